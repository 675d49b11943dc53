import Foundation
import XCTest
import TestSupport

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil), so
/// these tests need no calendar type of the health model.
func epochDay(_ year: Int, _ month: Int, _ day: Int) -> Int32 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return Int32(era * 146_097 + dayOfEra - 719_468)
}
