import XCTest
@testable import HealthAggregate
@testable import HealthCore

/// The cycle rule (docs/cycles.md), one test per rule, on days built here. Days are numbered
/// from 1 March 2025 (day 0); each expectation is counted by hand in its comment.
final class CycleRulesTests: XCTestCase {
    let origin = CivilDate(year: 2025, month: 3, day: 1)
    func d(_ n: Int) -> CivilDate { origin.adding(days: n) }

    func flow(_ n: Int, _ level: MenstrualCycles.Flow = .medium, key: Bool? = nil) -> MenstrualCycles.Day {
        var day = MenstrualCycles.Day(date: d(n))
        day.flow = level; day.cycleStartKey = key; day.flowRecords = 1
        return day
    }

    func period(_ first: Int, _ days: Int, key: Bool? = nil) -> [MenstrualCycles.Day] {
        (first..<first + days).map { n in flow(n, key: key.map { _ in n == first }) }
    }

    /// Data from 20 days before day 0, so a start on day 0 has its 10 flow-free days seen.
    func build(_ days: [MenstrualCycles.Day], firstData: Int = -20) -> (cycles: [MenstrualCycles.Cycle], days: [MenstrualCycles.DayInCycle]) {
        MenstrualCycles.build(days, firstDataDay: d(firstData))
    }

    /// Periods of 5 days on days 0, 28, 56: cycles of 28 and 28 days, the last open.
    func testRegularCyclesAndTheOpenLastOne() {
        let built = build(period(0, 5) + period(28, 5) + period(56, 5))
        XCTAssertEqual(built.cycles.map(\.start), [d(0), d(28), d(56)])
        XCTAssertEqual(built.cycles.map(\.length), [28, 28, nil])
        XCTAssertEqual(built.cycles.map(\.periodDays), [5, 5, 5])
        XCTAssertEqual(built.cycles.map(\.startFrom), [.rule, .rule, .rule])
        XCTAssertEqual(built.days.first { $0.day.date == d(30) }?.cycleDay, 3)   // 28 → 1, 29 → 2, 30 → 3
    }

    /// Flow on 0, 1, 3, 4 (day 2 not logged): one period of 5 days; day 2 gets a period row without flow.
    func testOneDayWithoutFlowInsideAPeriodDoesNotEndIt() {
        let built = build([flow(0), flow(1), flow(3), flow(4, .light)])
        XCTAssertEqual(built.cycles.count, 1)
        XCTAssertEqual(built.cycles[0].periodDays, 5)
        XCTAssertEqual(built.cycles[0].flowDays, [.medium: 3, .light: 1])
        let two = built.days.first { $0.day.date == d(2) }
        XCTAssertEqual(two?.inPeriod, true)
        XCTAssertNil(two?.day.flow)
        XCTAssertEqual(two?.cycleDay, 3)
    }

    /// Flow again 6 days after a period's last day (days 0–4, then 11): not a new period (fewer than
    /// 10 flow-free days); its flow counts in the cycle, outside the period.
    func testFlowSoonAfterAPeriodIsNoNewCycle() {
        let built = build(period(0, 5) + [flow(11, .light)])
        XCTAssertEqual(built.cycles.count, 1)
        XCTAssertEqual(built.cycles[0].periodDays, 5)
        XCTAssertEqual(built.cycles[0].flowDays, [.medium: 5, .light: 1])
        XCTAssertEqual(built.days.first { $0.day.date == d(11) }?.inPeriod, false)
    }

    /// A period on the first day of data (days 0–3, data from day 0): its start is not known, so
    /// neither its period nor its cycle length; the next cycle (day 27) is whole.
    func testAPeriodAcrossTheExportsFirstDayIsPartial() {
        let built = build(period(0, 4) + period(27, 5) + period(55, 4), firstData: 0)
        XCTAssertEqual(built.cycles.map(\.complete), [false, true, true])
        XCTAssertEqual(built.cycles.map(\.length), [nil, 28, nil])
        XCTAssertEqual(built.cycles.map(\.periodDays), [nil, 5, 4])
        XCTAssertNil(built.days.first { $0.day.date == d(1) }?.cycleDay)
        // Apple's own start key on the first day is known: that cycle is whole.
        let keyed = build(period(0, 4, key: true) + period(27, 5, key: true), firstData: 0)
        XCTAssertEqual(keyed.cycles.map(\.complete), [true, true])
        XCTAssertEqual(keyed.cycles.map(\.length), [27, nil])
        XCTAssertEqual(keyed.cycles.map(\.startFrom), [.cycleStartKey, .cycleStartKey])
        // Apple's key 0 on the first flow of the data: the period began before it (a partial cycle).
        let before = build((0..<3).map { flow($0, key: false) } + period(27, 5, key: true), firstData: 0)
        XCTAssertEqual(before.cycles.map(\.startFrom), [.beforeData, .cycleStartKey])
        XCTAssertEqual(before.cycles.map(\.complete), [false, true])
        XCTAssertEqual(before.cycles.map(\.length), [nil, nil])
    }

    /// A skipped month: periods on 0 and 58 make one cycle of 58 days, not a missing row.
    func testASkippedMonthIsALongCycle() {
        let built = build(period(0, 5) + period(58, 5))
        XCTAssertEqual(built.cycles.map(\.length), [58, nil])
    }

    /// Spotting on day 14 between periods on 0 and 29: counted in the first cycle, no start.
    func testSpottingIsCountedAndStartsNothing() {
        var spot = MenstrualCycles.Day(date: d(14)); spot.spotting = true
        let built = build(period(0, 5) + [spot] + period(29, 5))
        XCTAssertEqual(built.cycles.map(\.spottingDays), [1, 0])
        XCTAssertEqual(built.cycles.map(\.length), [29, nil])
    }

    /// Apple's key decides where it is recorded: 0 on flow after a long gap is no start; 1 starts
    /// a cycle even 5 days after the last period (fewer than the rule's 10).
    func testApplesCycleStartKeyOverridesTheRule() {
        let notAStart = build(period(0, 5, key: true) + [flow(20, key: false), flow(21, key: false)])
        XCTAssertEqual(notAStart.cycles.map(\.start), [d(0)])
        let start = build(period(0, 5, key: true) + period(10, 3, key: true))
        XCTAssertEqual(start.cycles.map(\.start), [d(0), d(10)])
        XCTAssertEqual(start.cycles.map(\.length), [10, nil])
        // A second app's start key inside the same period (day 1) is not a second cycle.
        let twice = build([flow(0, key: true), flow(1, key: true)] + (2..<5).map { flow($0, key: false) })
        XCTAssertEqual(twice.cycles.count, 1)
    }

    /// A Health Connect period record (days 0–4, no flow records) is a period; its start is the record's.
    func testAHealthConnectPeriodWithoutFlow() {
        let days = (0..<5).map { n -> MenstrualCycles.Day in
            var day = MenstrualCycles.Day(date: d(n)); day.inPeriodRecord = true; day.periodRecordStarts = n == 0
            return day
        }
        let built = build(days + [flow(30)])
        XCTAssertEqual(built.cycles.map(\.startFrom), [.periodRecord, .rule])
        XCTAssertEqual(built.cycles.map(\.periodDays), [5, 1])
        XCTAssertEqual(built.cycles.map(\.length), [30, nil])
        XCTAssertEqual(built.cycles[0].flowDays, [:])
    }

    /// The first positive ovulation test of a cycle is its ovulation date; earlier days have no cycle.
    func testOvulationAndDaysBeforeTheFirstCycle() {
        var before = MenstrualCycles.Day(date: d(-5)); before.basalTemperature = 36.4
        var negative = MenstrualCycles.Day(date: d(12)); negative.ovulationTest = "negative"; negative.ovulationTests = 1
        var positive = MenstrualCycles.Day(date: d(14)); positive.ovulationTest = "positive"; positive.ovulationTests = 1
        var again = MenstrualCycles.Day(date: d(15)); again.ovulationTest = "positive"; again.ovulationTests = 1
        let built = build([before] + period(0, 5) + [negative, positive, again])
        XCTAssertEqual(built.cycles[0].firstPositiveOvulationTest, d(14))
        XCTAssertEqual(built.cycles[0].ovulationTests, 3)
        let first = built.days.first { $0.day.date == d(-5) }
        XCTAssertNil(first?.cycleStart)
        XCTAssertEqual(built.days.map(\.day.date), [d(-5)] + (0..<5).map(d) + [d(12), d(14), d(15)])
    }
}
