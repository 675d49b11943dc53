import Foundation
import XCTest
@testable import HealthCore
@testable import HealthReport
import HealthStore
@testable import SQLite
import TestSupport

/// Issue 22: the trends report. Insights on hand-made days; the page of an import checked
/// against the store cell by cell; ten years rendered fast and small; headless Chromium at
/// phone and desktop widths (no console error, no request leaves the file).
final class ReportTests: XCTestCase {
    private static let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
    private let goals = ReportGoals.defaults

    private func day(_ iso: String, steps: Double?, sleep: Double? = nil) -> ReportDay {
        ReportDay(date: CivilDate(iso: iso)!, steps: steps, sleepMinutes: sleep)
    }

    /// `count` consecutive days from `start`, steps from `steps(i)`.
    private func days(from start: String, _ count: Int, steps: (Int) -> Double?) -> [ReportDay] {
        let first = CivilDate(iso: start)!
        return (0..<count).map { i in ReportDay(date: first.adding(days: i), steps: steps(i)) }
    }

    // MARK: insights

    /// Every table of the report starts through one helper: headers escaped (a distance unit
    /// or a person's text could hold `&` or `<`), numeric ones aligned as their cells.
    func testTableStartEscapesHeadersAndMarksNumericOnes() {
        XCTAssertEqual(Format.tableStart(["Week", "Distance <mi> & more", "Energy (kcal)"], numeric: [2]),
                       #"<table><thead><tr><th>Week</th><th>Distance &lt;mi&gt; &amp; more</th><th class="num">Energy (kcal)</th></tr></thead><tbody>"#)
        XCTAssertEqual(Format.tableStart(["Day"], class: "quality-gaps"),
                       #"<table class="quality-gaps"><thead><tr><th>Day</th></tr></thead><tbody>"#)
    }

    func testStreaksCountConsecutiveGoalDaysAndAGapEndsThem() {
        // 3 at goal, 1 below, 4 at goal, a missing day, 2 at goal (the current run).
        var d = days(from: "2024-03-01", 8) { [12_000, 10_000, 11_000, 900, 10_500, 10_001, 15_000, 10_000][$0] }
        d += days(from: "2024-03-10", 2) { _ in 20_000 }
        XCTAssertEqual(Insights.streaks(d, goals: goals)?.text,
                       "Current streak: 2 days at 10,000 steps or more; longest: 4 days.")
        XCTAssertNil(Insights.streaks([], goals: goals))
        let broken = days(from: "2024-03-01", 3) { _ in 12_000 } + [day("2024-03-04", steps: 100)]
        XCTAssertTrue(Insights.streaks(broken, goals: goals)!.text.hasPrefix("Current streak: 0 days"))
    }

    func testBestAndWorstWeekAndMonth() {
        // Three full weeks from Monday 2024-03-04: 5,000, 12,000, 8,000 a day.
        let d = days(from: "2024-03-04", 21) { [5_000.0, 12_000, 8_000][$0 / 7] }
        XCTAssertEqual(Insights.bestAndWorst(d, period: .week)?.text,
                       "Best week: the week of 11 Mar 2024 (12,000 steps a day); worst: the week of 4 Mar 2024 (5,000).")
        // Months need 15 days: March (28 days) and April (30) qualify, May (3) does not.
        let m = days(from: "2024-03-04", 28) { _ in 7_000 } + days(from: "2024-04-01", 30) { _ in 9_000 }
            + days(from: "2024-05-01", 3) { _ in 30_000 }
        XCTAssertEqual(Insights.bestAndWorst(m, period: .month)?.text,
                       "Best month: April 2024 (9,000 steps a day); worst: March 2024 (7,000).")
        XCTAssertNil(Insights.bestAndWorst(days(from: "2024-03-04", 7) { _ in 1 }, period: .week), "one week is no comparison")
    }

    func testThisWeekAgainstTheWeekBeforeWithItsPercentage() {
        let d = days(from: "2024-03-01", 14) { $0 < 7 ? 8_000 : 10_000 }
        XCTAssertEqual(Insights.lastWeekAgainstTheWeekBefore(d)?.text,
                       "Last 7 days: 10,000 steps a day, +25% against the 7 days before (8,000).")
        XCTAssertNil(Insights.lastWeekAgainstTheWeekBefore(days(from: "2024-03-01", 9) { _ in 5 }))
    }

    func testWeekdaysAgainstWeekends() {
        // 2024-03-04 is a Monday: two weeks, weekdays 10,000, weekends 6,000.
        let d = days(from: "2024-03-04", 14) { CivilDate(iso: "2024-03-04")!.adding(days: $0).weekdayFromMonday >= 5 ? 6_000 : 10_000 }
        XCTAssertEqual(Insights.weekdaysAgainstWeekends(d)?.text,
                       "Weekends: 6,000 steps a day, −40% against weekdays (10,000).")
    }

    func testSleepRegularityIsTheSpreadOfBedAndWakeTimes() {
        let nights = (0..<10).map { i in
            ReportNight(date: CivilDate(iso: "2024-03-01")!.adding(days: i), bedtimeMinutes: i % 2 == 0 ? -60 : -120, wakeMinutes: 420)
        }
        XCTAssertEqual(Insights.sleepRegularity(nights)?.text,
                       "Over the last 10 nights, bedtime varied by ±30 min and wake time by ±0 min (standard deviation).")
        XCTAssertNil(Insights.sleepRegularity(Array(nights.prefix(6))))
    }

    func testATrendIsClaimedOnlyWhenTheNumbersSupportIt() {
        // 8 weeks rising 6,000 → 9,500 a day, a straight line: 3,500 more, 45% of the average 7,750.
        let rising = days(from: "2024-01-01", 56) { 6_000 + Double($0 / 7) * 500 }
        XCTAssertEqual(Insights.trend(rising, metric: .steps)?.text, "Steps trending up: +45% over the last 8 weeks.")
        let falling = days(from: "2024-01-01", 56) { 9_500 - Double($0 / 7) * 500 }
        XCTAssertEqual(Insights.trend(falling, metric: .steps)?.text, "Steps trending down: −45% over the last 8 weeks.")
        // Noise around 8,000 with no direction: not a trend, and not steady either (issue 29).
        let noisy = days(from: "2024-01-01", 56) { [6_000.0, 10_000][($0 / 7) % 2] }
        XCTAssertEqual(Insights.trend(noisy, metric: .steps)!.text,
                       "Steps without a clear direction over the last 8 weeks: weekly averages between 6,000 and 10,000 steps a day.")
        let steady = days(from: "2024-01-01", 56) { [7_800.0, 8_200][($0 / 7) % 2] }
        XCTAssertTrue(Insights.trend(steady, metric: .steps)!.text.hasPrefix("Steps steady over the last 8 weeks"))
        XCTAssertNil(Insights.trend(days(from: "2024-01-01", 20) { _ in 1 }, metric: .steps), "too few weeks")
    }

    // MARK: the page of an import

    private func importSample(_ outputs: [String]? = nil) throws -> String {
        let dir = try temporaryFolder(self)
        var pipeline: [String: Any] = ["goals": ["steps": 9000]]
        if let outputs { pipeline["outputs"] = outputs }
        let path = dir.appendingPathComponent("p.json").path
        try JSONSerialization.data(withJSONObject: pipeline).write(to: URL(fileURLWithPath: path))
        let out = dir.appendingPathComponent("out").path
        let r = try healthetl(["import", Self.sample, "--out", out, "--pipeline", path, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return out
    }

    func testEveryCellCarriesTheStoresValueAndEveryMonthIsReachable() throws {
        let out = try importSample()
        let page = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: out + "/report/index.html")[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: out + "/report")[.posixPermissions] as? Int, 0o700)
        let cells = try NSRegularExpression(pattern: #"data-date=([0-9-]+) data-metric=([a-z_]+) data-value=("[^"]*"|[^ >]*)"#)
            .matches(in: page, range: NSRange(page.startIndex..., in: page))
            .map { m in (1...3).map { String(page[Range(m.range(at: $0), in: page)!]) } }
        XCTAssertGreaterThan(cells.count, 100)
        let db = try Database(path: out + "/health.sqlite", mode: .readOnly)
        var checked = 0
        for cell in cells where cell[1] != "stand_hours" {
            let stored = try db.scalar("SELECT \(cell[1]) FROM daily_analytics WHERE date = ?", [.text(cell[0])])
            if case .null = stored {
                // A day with data counts its 0 from the metric's first record on; sleep never
                // (docs/days-and-averages.md).
                let first = try db.scalar("SELECT min(date) FROM daily_analytics WHERE \(cell[1]) IS NOT NULL").string ?? "9999"
                let withData = try db.scalar("""
                    SELECT (SELECT count(*) FROM daily_analytics WHERE date = ?1) + (SELECT count(*) FROM activity_summaries WHERE date = ?1)
                    """, [.text(cell[0])]).int ?? 0 > 0
                let zero = withData && cell[0] >= first && cell[1] != "sleep_total_minutes"
                XCTAssertEqual(cell[2], zero ? "0" : "\"\"", "\(cell)")
                continue
            }
            XCTAssertEqual(Double(cell[2]) ?? .nan, stored.double ?? -1, accuracy: 1e-9, "\(cell)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 100)
        // Every month with data has its calendar and an entry in the month picker.
        for month in try db.rows("SELECT DISTINCT substr(date, 1, 7) FROM daily_analytics").compactMap({ $0[0].string }) {
            XCTAssertTrue(page.contains(#"data-month="\#(month)""#), month)
            XCTAssertTrue(page.contains(#"<option value="\#(month)""#), month)
        }
        for kind in ["streak", "best-worst-week", "period-change", "weekday-weekend", "sleep-regularity", "trend-steps"] {
            XCTAssertTrue(page.contains(#"data-insight="\#(kind)""#), kind)
        }
        // The goal of the pipeline is the one shown.
        XCTAssertTrue(page.contains("at 9,000 steps or more"))
        // Nothing from elsewhere: no URL in any attribute or style, and a policy that forbids it.
        XCTAssertTrue(page.contains("default-src 'none'"))
        for pattern in [#"(src|href)="(?!#)"#, "https?:", #"url\("#, "@import"] {
            XCTAssertNil(page.range(of: pattern, options: .regularExpression), pattern)
        }
    }

    /// The Heart section lists the latest 12 ECG recordings, newest first, as the Watch
    /// classified them (escaped), and says how many there are in all.
    func testTheHeartSectionListsTheLatestECGRecordings() {
        let first = CivilDate(iso: "2024-01-01")!
        let ecg = (0..<15).map { i in
            ReportECG(date: first.adding(days: 3 * i), classification: i == 14 ? "Atrial <b>Fibrillation</b>" : "Sinus Rhythm",
                      averageHeartRate: i == 13 ? nil : 60 + Double(i), symptoms: i == 14 ? "Dizziness & fatigue" : nil)
        }
        let html = ReportPage(data: ReportData(days: [ReportDay(date: first, steps: 5000)], ecg: ecg), goals: goals).html
        let rows = html.components(separatedBy: "<tr data-ecg=").dropFirst().map { String($0.prefix(10)) }
        XCTAssertEqual(rows, (3..<15).reversed().map { first.adding(days: 3 * $0).iso8601 })
        XCTAssertTrue(html.contains("ECG recordings, the last 12 of 15"))
        XCTAssertTrue(html.contains("<td>Atrial &lt;b&gt;Fibrillation&lt;/b&gt;</td><td>74</td><td>Dizziness &amp; fatigue</td>"), html)
        XCTAssertTrue(html.contains("<td>Sinus Rhythm</td><td>–</td><td>–</td>"))
        XCTAssertFalse(html.contains("No resting heart rate, HRV or ECG recorded"))
        let none = ReportPage(data: ReportData(days: [ReportDay(date: first, steps: 5000)]), goals: goals).html
        XCTAssertFalse(none.contains("data-ecg="))
        XCTAssertTrue(none.contains("No resting heart rate, HRV or ECG recorded"))
    }

    func testOnlyAnImportWithTheReportOutputWritesIt() throws {
        let without = try importSample(["sqlite", "csv"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: without + "/report"))
        // `healthetl report` writes it on demand.
        let r = try healthetl(["report", "--out", without])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), without + "/report/index.html")
        XCTAssertTrue(FileManager.default.fileExists(atPath: without + "/report/index.html"))
    }

    func testTenYearsRenderFastAndSmall() throws {
        let first = CivilDate(iso: "2015-01-01")!
        var state: UInt64 = 7
        func next() -> Double { state = state &* 6_364_136_223_846_793_005 &+ 1; return Double(state >> 40) / Double(1 << 24) }
        let days = (0..<3653).map { i -> ReportDay in
            var d = ReportDay(date: first.adding(days: i), steps: 4000 + next() * 12_000, activeEnergy: 200 + next() * 600,
                              exerciseMinutes: (next() * 80).rounded(), standHours: (6 + next() * 8).rounded(),
                              sleepMinutes: 300 + next() * 200)
            d.ringEnergyGoal = 520
            return d
        }
        let nights = days.map { ReportNight(date: $0.date, core: 200, deep: 60, rem: 80, bedtimeMinutes: -60 - next() * 90, wakeMinutes: 400 + next() * 60) }
        let workouts = stride(from: 0, to: 3653, by: 3).map { ReportWorkout(date: first.adding(days: $0), type: "Running", minutes: 40,
                                                                               distanceMeters: 7000, energyKcal: 450) }
        let data = ReportData(days: days, nights: nights, workouts: workouts,
                              restingHeartRate: days.map { ($0.date, 55 + next() * 10) }, hrv: days.map { ($0.date, 40 + next() * 30) })
        let started = Date()
        let html = ReportPage(data: data, goals: goals).html
        let seconds = Date().timeIntervalSince(started)
        print("ten years of days: \(html.utf8.count) bytes in \(String(format: "%.2f", seconds)) s")
        // Release builds take a fraction of a second (docs/OUTPUTS.md); the tests run a debug build.
        XCTAssertLessThan(seconds, 10)
        XCTAssertLessThan(html.utf8.count, 2_000_000, "ten years must stay under 2 MB")
        XCTAssertEqual(html.components(separatedBy: "data-metric=steps ").count - 1, 3653 * 2, "a month cell and a year cell a day")
        XCTAssertEqual(html.components(separatedBy: "class=\"mon").count - 1, 121, "every month reachable")
    }

    // MARK: a real browser

    /// Renders `page` with headless Chromium at `width`; returns its console lines. (Headless
    /// Chromium lays out a window under 500 px at 500: the page at a true 390 px is measured in
    /// ReportLayoutTests.)
    private func render(_ page: String, width: Int, screenshot: String) throws -> [String] {
        let profile = try temporaryFolder(self).path
        let r = try TestTools.headlessChromium(["--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=\(width),2400",
                                                "--screenshot=\(screenshot)", URL(fileURLWithPath: page).absoluteString],
                                               profile: profile, timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: screenshot))
        return TestTools.consoleLines(r)
    }

    private func consoleProblems(_ lines: [String]) -> [String] {
        lines.filter { $0.contains("Uncaught") || $0.contains("violates") || $0.contains("Refused") || $0.contains(":ERROR:") }
    }

    func testChromiumRendersThePageAtPhoneAndDesktopWidthsWithoutErrorsOrRequests() throws {
        let out = try importSample()
        let page = out + "/report/index.html"
        let shots = try temporaryFolder(self)
        for width in [390, 1280] {
            let png = shots.appendingPathComponent("report-\(width).png").path
            let console = try render(page, width: width, screenshot: png)
            XCTAssertTrue(console.contains { $0.contains("report ready") }, "the script ran: \(console)")
            XCTAssertEqual(consoleProblems(console), [], "width \(width)")
            if let keep = ProcessInfo.processInfo.environment["HEALTHETL_SCREENSHOT_DIR"] {
                try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
                let target = (keep as NSString).appendingPathComponent("report-\(width).png")
                try? FileManager.default.removeItem(atPath: target)
                try FileManager.default.copyItem(atPath: png, toPath: target)
            }
        }
        // The check can fail: a page that asks for anything from elsewhere is caught.
        let evil = shots.appendingPathComponent("evil.html").path
        try String(contentsOfFile: page, encoding: .utf8).replacingOccurrences(of: "<body>", with: #"<body><img src="http://example.invalid/x.png">"#)
            .write(toFile: evil, atomically: true, encoding: .utf8)
        XCTAssertFalse(consoleProblems(try render(evil, width: 390, screenshot: shots.appendingPathComponent("evil.png").path)).isEmpty)
    }
}
