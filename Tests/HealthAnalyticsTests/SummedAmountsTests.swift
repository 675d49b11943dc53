import XCTest
@testable import HealthAggregate
@testable import HealthAnalytics
@testable import HealthCore

/// A cumulative series' merged amounts are summed per (day, hour) as they arrive (issue 35:
/// memory), and the book's figures stay the very same doubles as from the amounts one by one.
final class SummedAmountsTests: XCTestCase {
    func testRunsOfAnHourBecomeOneAmountAndTheBookAgreesBitForBit() {
        var generator = SystemRandomNumberGenerator()
        let first = CivilDate(daysSinceEpoch: 19_000)
        var all: [DayAmount] = []
        var date = first, hour = 0
        for _ in 0..<5_000 {
            // Amounts whose sums depend on the order of addition (0.1 and friends).
            let amount = Double(Int.random(in: 1...1_000, using: &generator)) / 10 + 1e-9 * Double.random(in: 0..<1, using: &generator)
            all.append(DayAmount(date: date, hour: hour, amount: amount, inRunning: amount / 3))
            if Int.random(in: 0..<7, using: &generator) == 0 {
                hour += 1
                if hour == 24 { hour = 0; date = date.adding(days: 1) }
            }
        }
        var summed: [DayAmount] = []
        var rest = all[...]
        while !rest.isEmpty {   // in batches of uneven sizes, as the merger hands them over
            let n = min(rest.count, Int.random(in: 1...300, using: &generator))
            AnalyticsBuilder.appendSummingRuns(Array(rest.prefix(n)), to: &summed)
            rest = rest.dropFirst(n)
        }
        let hours = Set(all.map { "\($0.date)-\($0.hour)" }).count
        XCTAssertEqual(summed.count, hours, "one amount per hour of the series")
        XCTAssertLessThan(summed.count, all.count / 3)

        for type in ["HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierDistanceWalkingRunning"] {
            var one = AnalyticsBook(), other = AnalyticsBook()
            one.addCumulative(type: type, unit: "kcal", amounts: all)
            other.addCumulative(type: type, unit: "kcal", amounts: summed)
            XCTAssertEqual(one.hourRows, other.hourRows, type)
            XCTAssertEqual(one.typeRows, other.typeRows, type)
            XCTAssertEqual(one.dailyRows, other.dailyRows, type)
        }
    }
}
