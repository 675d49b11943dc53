import Foundation
import HealthStore
import XCTest
@testable import HealthCore
@testable import HealthReport

/// Issue 33 item 2: charts a reader can read: value axes with units, unambiguous dates, a
/// bedtime chart that never clips a night, rings with numbers.
final class ReportChartsTests: XCTestCase {
    private func night(_ iso: String, bed: Double, wake: Double) -> ReportNight {
        ReportNight(date: CivilDate(iso: iso)!, core: 300, bedtimeMinutes: bed, wakeMinutes: wake)
    }

    /// The y coordinates of the spans of a bedtime chart.
    private func spanEnds(_ svg: String) throws -> [Double] {
        let regex = try NSRegularExpression(pattern: #"class="span"[^>]* y1="([-0-9.]+)" y2="([-0-9.]+)""#)
        return regex.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).flatMap { m in
            [1, 2].map { Double(svg[Range(m.range(at: $0), in: svg)!])! }
        }
    }

    func testTheBedtimeChartWidensToNightsOutsideEveningToNoon() throws {
        // The sample's late nights: one ending 14:51, one 18:25, and one starting 17:30 the day before.
        let nights = [night("2024-03-20", bed: -60, wake: 420), night("2024-03-21", bed: 30, wake: 14 * 60 + 51),
                      night("2024-03-22", bed: 120, wake: 18 * 60 + 25), night("2024-03-23", bed: -390, wake: 400)]
        let range = SVGCharts.clockRange(nights)
        XCTAssertEqual(range.from, -420, "17:30 the evening before widens the axis to 17:00")
        XCTAssertEqual(range.to, 19 * 60, "18:25 widens it to 19:00")
        let svg = SVGCharts.bedAndWake(nights, width: 720, height: 220)
        let ends = try spanEnds(svg)
        XCTAssertEqual(ends.count, 8)
        // Plot from y 10 to 198: every end strictly inside, distinct ends for distinct times.
        XCTAssertTrue(ends.allSatisfy { $0 >= 10 && $0 <= 198 }, "\(ends)")
        XCTAssertLessThan(ends[3], ends[5], "14:51 above 18:25: neither clipped to 12:00")
        XCTAssertTrue(svg.contains("02:00–18:25"), "the night's tooltip keeps its times")
        // The usual nights keep the 20:00–12:00 axis.
        XCTAssertEqual(SVGCharts.clockRange([night("2024-03-20", bed: -60, wake: 420)]).from, -240)
        XCTAssertEqual(SVGCharts.clockRange([night("2024-03-20", bed: -60, wake: 420)]).to, 720)
    }

    func testChartsHaveUnitsAndUnambiguousDates() {
        let start = CivilDate(iso: "2024-04-01")!
        let nights = (0..<30).map { night(start.adding(days: $0).iso8601, bed: -30, wake: 420) }
        let stages = SVGCharts.nights(nights)
        XCTAssertTrue(stages.contains(#"<text class="unit" x="0" y="11">h</text>"#), "hours on the stages' axis")
        XCTAssertTrue(stages.contains(">1 Apr<"), "dates as 1 Apr")
        XCTAssertFalse(stages.contains("1/4"), "never day/month")
        let line = SVGCharts.line((0..<20).map { (start.adding(days: $0), 55.0 + Double($0 % 3)) }, unit: "bpm", title: "Resting heart rate")
        XCTAssertTrue(line.contains(">bpm</text>") && line.contains(">1 Apr<") && line.contains(">20 Apr<"), "unit and first and last dates")
        let bars = SVGCharts.bars([SVGCharts.Bar(label: "Mo 15", value: 12_000)], goal: 10_000, unit: "steps", title: "Steps")
        XCTAssertTrue(bars.contains(">steps</text>") && bars.contains(">15k</text>"), "the value axis: its unit and round ticks")
        XCTAssertEqual(SVGCharts.niceTicks(12_000), [0, 5000, 10_000, 15_000])
        XCTAssertEqual(SVGCharts.niceTicks(8.6, step: 2), [0, 2, 4, 6, 8, 10])
        // Each chart in its own box, never drawn narrower than itself.
        XCTAssertTrue(bars.hasPrefix(#"<div class="chart"><svg viewBox="0 0 340 180" style="min-width:340px""#))
    }

    func testTheRingsHaveALegendWithTheirNumbers() {
        var day = ReportDay(date: CivilDate(iso: "2024-04-18")!, activeEnergy: 419, exerciseMinutes: 12, standHours: 9)
        day.ringEnergyGoal = 520
        // No goal set in the settings: the day's own ring goal (the export's) holds (issue 44).
        let legend = ReportPage.ringLegend(day, ReportGoals())
        XCTAssertTrue(legend.contains("Move: 419/520 kcal (81%)"), legend)
        XCTAssertTrue(legend.contains("Exercise: 12/30 min (40%)"), legend)
        XCTAssertTrue(legend.contains("Stand hours: 9.0/12.0 h (75%)"), legend)
        // A goal the settings set wins over the day's.
        XCTAssertTrue(ReportPage.ringLegend(day, .defaults).contains("Move: 419/500 kcal (84%)"))
    }
}
