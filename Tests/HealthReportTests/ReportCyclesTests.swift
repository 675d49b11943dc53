import XCTest
@testable import HealthCore
@testable import HealthReport
@testable import HealthStore

/// Issue 60: the report's Cycles section says what was recorded and nothing it cannot know.
final class ReportCyclesTests: XCTestCase {
    func d(_ s: String) -> CivilDate { CivilDate(iso: s)! }

    func cycle(_ start: String, next: String?, complete: Bool = true, period: Int?, length: Int?) -> StoredCycle {
        StoredCycle(start: d(start), nextStart: next.map(d), complete: complete, periodDays: period, length: length,
                    startFrom: "rule", spottingDays: 0, ovulationPositive: nil, sources: nil)
    }

    func testNoCycleDataNoSectionAndNoLink() {
        XCTAssertEqual(ReportCyclesSection(cycles: [], days: []).html, "")
        let page = ReportPage(data: ReportData(days: [ReportDay(date: d("2025-01-01"), steps: 100)]), goals: ReportGoals()).html
        XCTAssertFalse(page.contains("cycles"))
    }

    /// A partial first cycle, two whole ones (28 and 31 days) and the open last one: lengths only
    /// where known, the median of the two known ones (29.5), no length for the open one.
    func testLengthsOnlyWhereKnown() {
        let cycles = [cycle("2025-01-01", next: "2025-01-20", complete: false, period: nil, length: nil),
                      cycle("2025-01-20", next: "2025-02-17", period: 5, length: 28),
                      cycle("2025-02-17", next: "2025-03-20", period: 4, length: 31),
                      cycle("2025-03-20", next: nil, period: 4, length: nil)]
        let day = StoredCycleDay(date: d("2025-03-20"), cycleDay: 1, inPeriod: true, flow: "heavy", spotting: false, ovulationTest: nil)
        let section = ReportCyclesSection(cycles: cycles, days: [day])
        XCTAssertEqual(section.summary, "4 cycles from 1 Jan 2025 to 20 Mar 2025; 2 with a known length: 28–31 days, median 29.5. "
            + "The last cycle is still open: it has no length. The first began before the data did: its start and length are not known.")
        let html = section.html
        XCTAssertTrue(html.contains(#"<i class="cp f-heavy" data-date=2025-03-20 data-flow=heavy data-cycle-day=1>20</i>"#))
        XCTAssertTrue(html.contains("<td class=num>open</td>"))
        XCTAssertTrue(html.contains("(partial)</td><td class=num>not known</td><td class=num>not known</td>"))
        XCTAssertTrue(html.contains("Cycle lengths"), "two known lengths make a chart")
    }
}
