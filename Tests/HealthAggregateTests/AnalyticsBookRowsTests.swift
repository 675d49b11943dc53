import XCTest
import HealthCore
@testable import HealthAggregate

/// The book's per-type tables become rows ordered by date, type name and hour, whatever
/// order the types and hours came in; taking them empties the book's tables.
final class AnalyticsBookRowsTests: XCTestCase {
    private func book() -> AnalyticsBook {
        var book = AnalyticsBook()
        let (may1, may2, apr30) = (CivilDate(year: 2024, month: 5, day: 1), CivilDate(year: 2024, month: 5, day: 2),
                                   CivilDate(year: 2024, month: 4, day: 30))
        // Types added in an order unlike their names' ("Step" after "Flights" after "Distance"
        // would be sorted; here the reverse), hours out of order (a fall-back hour repeated
        // after the next one, a day before the first).
        book.addCumulative(type: "HKQuantityTypeIdentifierStepCount", unit: "count", amounts: [
            DayAmount(date: may1, hour: 9, amount: 100), DayAmount(date: may1, hour: 9, amount: 20),
            DayAmount(date: may1, hour: 3, amount: 7), DayAmount(date: may2, hour: 0, amount: 5),
            DayAmount(date: may1, hour: 2, amount: 1), DayAmount(date: may1, hour: 3, amount: 2),
        ])
        book.addCumulative(type: "HKQuantityTypeIdentifierFlightsClimbed", unit: "count", amounts: [
            DayAmount(date: may2, hour: 23, amount: 3), DayAmount(date: apr30, hour: 12, amount: 4),
        ])
        book.addCumulative(type: "HKQuantityTypeIdentifierDistanceWalkingRunning", unit: "km", amounts: [
            DayAmount(date: may1, hour: 9, amount: 1.5, inRunning: 0.5),
        ])
        return book
    }

    func testHourRowsAreOrderedByDateTypeNameAndHour() {
        var taken = book()
        let rows = taken.takeHourRows()
        XCTAssertEqual(rows.map { "\($0.date) \($0.type.dropFirst(24)) \($0.hour) \($0.sum)" }, [
            "2024-04-30 FlightsClimbed 12 4.0",
            "2024-05-01 DistanceWalkingRunning 9 1.5",
            "2024-05-01 StepCount 2 1.0",
            "2024-05-01 StepCount 3 9.0",
            "2024-05-01 StepCount 9 120.0",
            "2024-05-02 FlightsClimbed 23 3.0",
            "2024-05-02 StepCount 0 5.0",
        ])
        XCTAssertEqual(book().hourRows, rows, "reading the rows leaves the book as it was; taking them, the same rows")
        XCTAssertEqual(taken.hourRows, [], "taken: the hourly table is empty")
    }

    func testTypeRowsAreTheSameTakenOrRead() {
        var taken = book()
        let read = taken.typeRows
        XCTAssertEqual(read.map { "\($0.date) \($0.type.dropFirst(24)) \($0.sum ?? -1)" }, [
            "2024-04-30 FlightsClimbed 4.0",
            "2024-05-01 DistanceWalkingRunning 1.5",
            "2024-05-01 StepCount 130.0",
            "2024-05-02 FlightsClimbed 3.0",
            "2024-05-02 StepCount 5.0",
        ])
        XCTAssertEqual(taken.takeTypeRows(), read)
        XCTAssertEqual(taken.typeRows, [])
        XCTAssertEqual(taken.dailyRows.count, 3, "the daily table stays")
    }
}
