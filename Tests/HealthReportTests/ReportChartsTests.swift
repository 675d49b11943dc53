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

    /// The x of each dot of a line chart.
    private func dotXs(_ svg: String) throws -> [Double] {
        let regex = try NSRegularExpression(pattern: #"<circle class="dot" cx="([-0-9.]+)""#)
        return regex.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { Double(svg[Range($0.range(at: 1), in: svg)!])! }
    }

    private func labels(_ svg: String) throws -> [(x: Double, text: String)] {
        let regex = try NSRegularExpression(pattern: #"<text class="lbl" x="([-0-9.]+)" y="[-0-9.]+">([^<]*)</text>"#)
        return regex.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map {
            (Double(svg[Range($0.range(at: 1), in: svg)!])!, String(svg[Range($0.range(at: 2), in: svg)!]))
        }
    }

    /// Issue 45: a real export measured HRV on 9 and 10 Jan 2022 and then on 27 Jan 2023. The x
    /// axis is time: the year between is a year wide, the line breaks across it, and the labels
    /// carry both years.
    func testALineChartsAxisIsProportionalToTimeAndShowsTheYears() throws {
        let points = [("2022-01-09", 41.0), ("2022-01-10", 44.0), ("2023-01-27", 38.0), ("2023-01-28", 40.0)]
            .map { (date: CivilDate(iso: $0.0)!, value: $0.1) }
        let svg = SVGCharts.line(points, unit: "ms", title: "HRV")
        let xs = try dotXs(svg)
        XCTAssertEqual(xs.count, 4)
        let perDay = (xs[3] - xs[0]) / Double(points[3].date.daysSinceEpoch - points[0].date.daysSinceEpoch)
        XCTAssertEqual(xs[1] - xs[0], perDay, accuracy: 0.15, "one day is one day wide")
        XCTAssertEqual(xs[2] - xs[1], perDay * 382, accuracy: 0.5, "the gap is 382 days wide, not one step")
        XCTAssertTrue(svg.contains(#"d="M48 "#) && svg.components(separatedBy: " M").count == 2, "the line breaks once, over the gap: \(svg)")
        let shown = try labels(svg).map(\.text)
        XCTAssertEqual(shown.first, "9 Jan 2022", "the first label carries its year: \(shown)")
        XCTAssertTrue(shown.contains { $0.hasSuffix("2023") }, "the first label of the new year carries it: \(shown)")
        // One year: no year on the labels.
        let spring = SVGCharts.line((0..<20).map { (CivilDate(iso: "2024-04-01")!.adding(days: $0), 50.0) }, unit: "bpm", title: "RHR")
        XCTAssertFalse(try labels(spring).contains { $0.text.contains("2024") })
    }

    /// Labels never overlap (estimated from their length at 11 px), whatever the count of dates,
    /// and the latest date always has its label.
    func testDateLabelsNeverOverlapAndTheLatestIsShown() throws {
        let start = CivilDate(iso: "2024-12-01")!
        for count in [2, 7, 30, 31, 90, 180] {
            let points = (0..<count).map { (date: start.adding(days: $0), value: Double($0 % 5)) }
            let nights = (0..<min(count, 30)).map { night(start.adding(days: $0).iso8601, bed: -30, wake: 420) }
            for svg in [SVGCharts.line(points, unit: "ms", title: "t"), SVGCharts.nights(nights), SVGCharts.bedAndWake(nights)] {
                let shown = try labels(svg)
                XCTAssertFalse(shown.isEmpty)
                for (a, b) in zip(shown, shown.dropFirst()) {
                    let room = (TimeAxis.labelWidth(a.text) + TimeAxis.labelWidth(b.text)) / 2
                    XCTAssertGreaterThanOrEqual(b.x - a.x, room - 0.1, "\(a.text) and \(b.text) overlap (\(count) dates)")
                }
                XCTAssertTrue(shown.allSatisfy { $0.x - TimeAxis.labelWidth($0.text) / 2 >= -0.1 && $0.x + TimeAxis.labelWidth($0.text) / 2 <= 720.1 })
            }
            let last = start.adding(days: count - 1)
            XCTAssertTrue(try labels(SVGCharts.line(points, unit: "ms", title: "t")).last!.text.hasPrefix(Format.shortDay(last)), "\(count)")
        }
    }

    /// A night without a record leaves its day empty: the sleep charts' columns sit at their dates.
    func testSleepChartsLeaveAGapForAMissingNight() throws {
        let nights = [night("2024-04-01", bed: -30, wake: 420), night("2024-04-02", bed: -30, wake: 420), night("2024-04-05", bed: -30, wake: 420)]
        let svg = SVGCharts.bedAndWake(nights)
        let regex = try NSRegularExpression(pattern: #"class="span" x1="([-0-9.]+)""#)
        let xs = regex.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { Double(svg[Range($0.range(at: 1), in: svg)!])! }
        XCTAssertEqual(xs.count, 3)
        XCTAssertEqual(xs[2] - xs[1], 3 * (xs[1] - xs[0]), accuracy: 0.2, "two missing nights are two empty days")
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
