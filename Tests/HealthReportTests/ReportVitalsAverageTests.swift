import XCTest
@testable import HealthCore
@testable import HealthReport

/// Issue 31: the seven-day average of the report's "Heart and vitals" section.
final class ReportVitalsAverageTests: XCTestCase {
    func testSevenDayAverageCountsTheDaysWithAValueInTheWeek() throws {
        let d: (String) -> CivilDate = { CivilDate(iso: $0)! }
        let series = [(d("2024-03-01"), 80.0), (d("2024-03-05"), 70.0), (d("2024-03-08"), 72.0), (d("2024-03-09"), 71.0)]
            .map { (date: $0.0, value: $0.1) }
        // 3 … 9 March: 70, 72, 71 (1 March is 8 days before).
        XCTAssertEqual(try XCTUnwrap(ReportVitals.sevenDayAverage(series, endingOn: d("2024-03-09"))), 71, accuracy: 1e-9)
        XCTAssertNil(ReportVitals.sevenDayAverage(series, endingOn: d("2024-02-28")))
    }
}
