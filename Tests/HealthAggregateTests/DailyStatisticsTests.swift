import XCTest
@testable import HealthAggregate
@testable import HealthCore

/// The per-day statistics that ride along each series read equal what SQL's GROUP BY over
/// the day and type gave before: counts of all samples, mean/min/max of the valued ones,
/// minutes for categories, the smallest unit, only the days asked for.
final class DailyStatisticsTests: XCTestCase {
    let minute: Int64 = 60_000_000

    func testNumericDaysInAnyOrder() {
        var s = DailyStatistics(type: "HKQuantityTypeIdentifierBodyMass", keeping: nil)
        s.add(localDay: 10, start: 0, end: 0, value: 70, unit: "kg")
        s.add(localDay: 11, start: 0, end: 0, value: 71, unit: "kg")
        s.add(localDay: 10, start: 0, end: 0, value: 72, unit: "g")   // day 10 again, after day 11
        s.add(localDay: 10, start: 0, end: 0, value: nil, unit: nil)  // counted, not averaged
        let rows = s.finish()
        XCTAssertEqual(rows.map(\.date.daysSinceEpoch), [10, 11])
        XCTAssertEqual(rows[0], DailyTypeMetric(date: CivilDate(daysSinceEpoch: 10), type: "HKQuantityTypeIdentifierBodyMass",
                                                unit: "g", average: 71, minimum: 70, maximum: 72, count: 3))
        XCTAssertEqual(rows[1].average, 71)
        XCTAssertEqual(rows[1].count, 1)
    }

    func testCategoriesCountMinutes() {
        var s = DailyStatistics(type: "HKCategoryTypeIdentifierMindfulSession", keeping: nil)
        s.add(localDay: 5, start: 0, end: 10 * minute, value: nil, unit: nil)
        s.add(localDay: 5, start: 20 * minute, end: 35 * minute, value: nil, unit: nil)
        let rows = s.finish()
        XCTAssertEqual(rows, [DailyTypeMetric(date: CivilDate(daysSinceEpoch: 5), type: "HKCategoryTypeIdentifierMindfulSession",
                                              unit: "min", sum: 25, count: 2)])
    }

    func testOnlyTheDaysAskedForAreKept() {
        let days = CivilDate(daysSinceEpoch: 20)...CivilDate(daysSinceEpoch: 21)
        var s = DailyStatistics(type: "T", keeping: days)
        for day in 18...23 { s.add(localDay: day, start: 0, end: 0, value: Double(day), unit: "u") }
        s.add(localDay: 19, start: 0, end: 0, value: 1, unit: "u")   // the look-back before the window
        XCTAssertEqual(s.finish().map(\.date.daysSinceEpoch), [20, 21])
    }
}
