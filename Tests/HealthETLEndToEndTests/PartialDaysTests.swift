import Foundation
import HealthStore
import XCTest
@testable import HealthCore
@testable import HealthReport
@testable import SQLite
import TestSupport

/// Issue 29 items 2, 4 and 8 (docs/days-and-averages.md): the export's own day and the first
/// day of data are partial, in every output, across full and incremental runs; the report
/// counts complete days only; every average's denominator is the days with data, a day's 0
/// included; a trend names the span it measured; the 7-day chart's "goal reached" colour is
/// earned.
final class PartialDaysTests: XCTestCase {
    private let goals = ReportGoals.defaults
    private static let reshape = TestPaths.script("reshape_export.py")

    /// A generated export of `days` days from Monday 2024-10-07, reshaped by `reshape_export.py`.
    private func export(in dir: URL, days: Int = 16, _ reshaping: [String]) throws -> (full: String, shaped: String) {
        let full = dir.appendingPathComponent("full.xml").path, shaped = dir.appendingPathComponent("shaped.xml").path
        try generateExport(["--out", full, "--days", "\(days)", "--start", "2024-10-07", "--seed", "21"])
        let r = try runProcess(try TestTools.python(), [Self.reshape, full, shaped] + reshaping)
        XCTAssertEqual(r.status, 0, r.stderr)
        return (full, shaped)
    }

    private func partialDays(_ out: String) throws -> [String] {
        try query(out + "/health.sqlite", "SELECT date FROM daily_analytics WHERE partial_day = 1 ORDER BY date")
    }

    private static let morningCut = "2024-10-19 09:00:00 +0200"

    // MARK: item 2, the store and its files

    /// An export taken at 09:00: its day (from ExportDate) and the first day are partial in the
    /// store, the CSV, the Parquet file and the workbook; the report opens on the day before and
    /// shows the export's day as "so far (exported 09:00)".
    func testAMorningExportsDayAndTheFirstDayArePartialInEveryOutput() throws {
        let dir = try temporaryFolder(self)
        let (_, morning) = try export(in: dir, ["--cut", Self.morningCut])
        let out = dir.appendingPathComponent("out").path
        try importJSON(morning, out)
        // The first day of data is the evening before the generator's first day (a night's start).
        XCTAssertEqual(try partialDays(out), ["2024-10-06", "2024-10-19"])
        let stored = try queryRows(out + "/health.sqlite", "SELECT date, partial_day FROM daily_analytics ORDER BY date")
            .map { "\($0[0].string!),\($0[1].int!)" }
        XCTAssertEqual(stored.count, 14)

        let csv = try String(contentsOfFile: out + "/csv/daily.csv", encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        XCTAssertTrue(csv[0].hasSuffix(",partial_day,zone,travel_day"), csv[0])
        let column = try XCTUnwrap(csv[0].split(separator: ",").firstIndex(of: "partial_day"))
        XCTAssertEqual(csv.dropFirst().map { "\($0.prefix(10)),\($0.split(separator: ",", omittingEmptySubsequences: false)[column])" },
                       stored)

        let page = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("19 Oct 2024 so far (exported 09:00)"))
        XCTAssertTrue(page.contains(#"<section id="dashboard"><h2>18 Oct 2024</h2>"#), "Today is the last complete day")
        XCTAssertNotNil(page.range(of: #"class="b[0-4] pt" data-date=2024-10-19"#, options: .regularExpression),
                        "the partial day's cell is marked")

        // The cohort dataset's daily partition is the person's own daily.parquet, byte for byte.
        let household = dir.appendingPathComponent("household").path
        let r2 = try healthetl(["import", morning, "--out", household, "--person", "ann", "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r2.status, 0, r2.stderr)
        XCTAssertEqual(try query(household + "/people/ann/health.sqlite", "SELECT date FROM daily_analytics WHERE partial_day = 1 ORDER BY date"),
                       ["2024-10-06", "2024-10-19"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: household + "/dataset/daily/person=ann/part-0.parquet")),
                       try Data(contentsOf: URL(fileURLWithPath: household + "/people/ann/parquet/daily.parquet")))

        // Read back by pyarrow and openpyxl.
        let python = try TestTools.python(importing: ["pyarrow", "openpyxl"])
        let script = """
            import json, sys, pyarrow.parquet as pq, openpyxl
            t = pq.read_table(sys.argv[1] + "/parquet/daily.parquet")
            ws = openpyxl.load_workbook(sys.argv[1] + "/health.xlsx")["Daily"]
            rows = list(ws.iter_rows(values_only=True))
            i = rows[0].index("Partial day")
            print(json.dumps({"parquet": [f"{d},{p}" for d, p in zip(t.column("date").to_pylist(), t.column("partial_day").to_pylist())],
                              "type": str(t.schema.field("partial_day").type), "header": rows[0][i],
                              "xlsx": [f"{r[0]:%Y-%m-%d},{r[i]}" for r in rows[1:]]}))
            """
        let r = try runProcess(python, ["-c", script, out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let read = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(read["parquet"] as? [String], stored)
        XCTAssertEqual(read["type"] as? String, "int64")
        XCTAssertEqual(read["header"] as? String, "Partial day")
        XCTAssertEqual(read["xlsx"] as? [String], stored)
    }

    /// The next export completes the previous export's day: an incremental run recomputes it,
    /// and every analytics table (with `partial_day`) equals a full import of the newer export.
    func testALaterExportCompletesThePreviousExportDayAsAFullImportWould() throws {
        let dir = try temporaryFolder(self)
        let (full, morning) = try export(in: dir, ["--cut", Self.morningCut])
        let nightly = dir.appendingPathComponent("nightly").path, fresh = dir.appendingPathComponent("fresh").path
        try importJSON(morning, nightly)
        let partialSteps = try query(nightly + "/health.sqlite", "SELECT coalesce(steps, 0) FROM daily_analytics WHERE date = '2024-10-19'")
        XCTAssertEqual(try importJSON(full, nightly)["mode"] as? String, "incremental")
        try importJSON(full, fresh, ["--full"])
        // The newer export was taken on 2024-10-23 at 09:41, the day after its last full day: a
        // day with no data, so no row (its last night, and an evening nap, end on the 22nd).
        XCTAssertEqual(try partialDays(nightly), ["2024-10-06"])
        XCTAssertEqual(try partialDays(fresh), ["2024-10-06"])
        let completed = try query(nightly + "/health.sqlite", "SELECT steps FROM daily_analytics WHERE date = '2024-10-19'")
        XCTAssertNotEqual(completed, partialSteps, "the day's later hours are counted")
        let incremental = try analyticsSnapshot(nightly + "/health.sqlite"), rebuilt = try analyticsSnapshot(fresh + "/health.sqlite")
        XCTAssertEqual(incremental.count, rebuilt.count)
        for (a, b) in zip(incremental, rebuilt) where a != b { XCTFail("incremental \(a)\n      full \(b)") }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: nightly + "/csv/daily.csv")),
                       try Data(contentsOf: URL(fileURLWithPath: fresh + "/csv/daily.csv")))
    }

    /// A store of version 4 (no `partial_day`) is read by the report by the same rule, and the
    /// next import upgrades it in place and sets the column, even with nothing new to import.
    func testAVersion4StoreIsUpgradedInPlace() throws {
        let dir = try temporaryFolder(self)
        let (_, morning) = try export(in: dir, ["--cut", Self.morningCut])
        let out = dir.appendingPathComponent("out").path
        try importJSON(morning, out)
        do {
            let db = try Database(path: out + "/health.sqlite", mode: .readWrite)
            try db.execute("ALTER TABLE daily_analytics DROP COLUMN partial_day; PRAGMA user_version = 4;")
            let days = try ReportData.load(from: db).days
            XCTAssertEqual(days.filter(\.partial).map(\.date.iso8601), ["2024-10-06", "2024-10-19"])
        }
        let again = try importJSON(morning, out)
        XCTAssertEqual(again["mode"] as? String, "incremental")
        XCTAssertEqual(again["new_samples"] as? Int, 0)
        XCTAssertEqual(try query(out + "/health.sqlite", "PRAGMA user_version"), [String(StoreSchema.version)])
        XCTAssertEqual(try partialDays(out), ["2024-10-06", "2024-10-19"])
        let csv = try String(contentsOfFile: out + "/csv/daily.csv", encoding: .utf8)
        XCTAssertTrue(csv.split(whereSeparator: \.isNewline).first?.hasSuffix(",partial_day,zone,travel_day") ?? false, csv)
    }

    /// Samples dated after the export (a meal plan, a clock set wrong) make days after the
    /// export's: partial too, and not "so far" (only the export's own day is). The generator's
    /// --export-time sets the ExportDate's clock; its records run on past it here.
    func testDaysAfterTheExportArePartialButOnlyTheExportsDayIsSoFar() throws {
        let dir = try temporaryFolder(self)
        let xml = dir.appendingPathComponent("export.xml").path, out = dir.appendingPathComponent("out").path
        try generateExport(["--out", xml, "--days", "16", "--start", "2024-10-07", "--seed", "21",
                            "--export-date", "2024-10-19", "--export-time", "07:30"])
        try importJSON(xml, out)
        XCTAssertEqual(try partialDays(out), ["2024-10-06", "2024-10-19", "2024-10-20", "2024-10-21", "2024-10-22"])
        let page = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains(#"<section id="dashboard"><h2>18 Oct 2024</h2>"#))
        XCTAssertTrue(page.contains("19 Oct 2024 so far (exported 07:30)"))
        XCTAssertFalse(page.contains("23 Oct 2024 so far"))

        // Without a row on the export's day, no "so far" card; Today is still the last complete day.
        var days = (0..<10).map { ReportDay(date: CivilDate(iso: "2017-10-28")!.adding(days: $0), steps: 5_000) }
        var planned = ReportDay(date: CivilDate(iso: "2017-11-09")!)
        planned.partial = true
        days.append(planned)
        let html = ReportPage(data: ReportData(days: days, export: ReportExport(date: CivilDate(iso: "2017-11-07")!, minutes: 605)),
                              goals: goals).html
        XCTAssertTrue(html.contains(#"<section id="dashboard"><h2>6 Nov 2017</h2>"#))
        XCTAssertFalse(html.contains("so far"))
    }

    // MARK: item 2, the report counts complete days only

    /// A year exported at 09:00 on 1 Jan 2022 with 81 steps so far: no insight, streak,
    /// comparison or default view is taken from that day (nor from the first day).
    private func exportedYear() -> ReportData {
        let first = CivilDate(iso: "2021-01-01")!
        var days = (0..<365).map { i -> ReportDay in
            var d = ReportDay(date: first.adding(days: i), steps: 10_500 + Double(i % 7) * 100, exerciseMinutes: 35)
            d.partial = i == 0
            return d
        }
        var today = ReportDay(date: CivilDate(iso: "2022-01-01")!, steps: 81, exerciseMinutes: 0)
        today.partial = true
        days.append(today)
        return ReportData(days: days, export: ReportExport(date: today.date, minutes: 9 * 60))
    }

    func testTheReportNeverCountsThePartialExportDay() {
        let data = exportedYear()
        let insights = Dictionary(Insights.all(data, goals: goals).map { ($0.kind, $0.text) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(insights["streak"], "Current streak: 364 days at 10,000 steps or more; longest: 364 days.")
        XCTAssertEqual(insights["period-change"], "Last 7 days: 10,800 steps a day, ±0% against the 7 days before (10,800).")
        // The week holding the partial day is judged by its complete days (27–31 Dec), never as the worst for it.
        let worst = insights["best-worst-week"]?.components(separatedBy: "worst:").last ?? "none"
        XCTAssertFalse(worst.contains("27 Dec 2021"), worst)
        XCTAssertFalse(worst.contains("none"), worst)
        XCTAssertTrue(insights["trend-steps"]?.hasPrefix("Steps steady over the last 8 weeks") ?? false, insights["trend-steps"] ?? "none")
        // Each insight skips a partial day handed to it directly, too.
        XCTAssertEqual(Insights.streaks(data.days, goals: goals)?.text, insights["streak"])
        XCTAssertEqual(Insights.lastWeekAgainstTheWeekBefore(data.days)?.text, insights["period-change"])

        let page = ReportPage(data: data, goals: goals).html
        XCTAssertTrue(page.contains(#"<section id="dashboard"><h2>31 Dec 2021</h2>"#))
        XCTAssertTrue(page.contains("1 Jan 2022 so far (exported 09:00)"))
        XCTAssertTrue(page.contains("<li>Steps: 81 steps</li>"))
        XCTAssertTrue(page.contains(#"<option value="2021-12" selected>"#), "Month opens on the last complete month")
        XCTAssertTrue(page.contains(#"<div class="mon on" data-month="2021-12">"#))
        XCTAssertTrue(page.contains(#"<option value="2021" selected>"#), "Year opens on the last complete year")
        XCTAssertTrue(page.contains(#"<div class="yr on" data-year="2021">"#))
        // January 2022 stays reachable, its one day marked partial.
        XCTAssertTrue(page.contains(#"<option value="2022-01">"#))
        XCTAssertTrue(page.contains(#"<i class="b0 pt" data-date=2022-01-01"#))
    }

    // MARK: item 4, the denominator of every average

    /// Exercise only on Saturdays, the rings saying 0 on the other days: the week view's
    /// "min a day" is the week's minutes over its days with data, and the change reads "vs last week".
    func testAWeekAveragesOverEveryDayWithDataCountingItsZero() throws {
        let dir = try temporaryFolder(self)
        let (_, sparse) = try export(in: dir, days: 21, ["--exercise-weekday", "5"])
        let out = dir.appendingPathComponent("out").path
        try importJSON(sparse, out)
        let store = out + "/health.sqlite"
        // Days with data: a daily row or an activity summary; the last complete day is Sunday 27 Oct.
        func week(_ from: String, _ to: String) throws -> (minutes: Double, days: Double, withExercise: Double) {
            let r = try queryRows(store, """
                WITH d AS (SELECT date FROM daily_analytics WHERE partial_day = 0 UNION SELECT date FROM activity_summaries)
                SELECT (SELECT sum(exercise_minutes) FROM daily_analytics WHERE date BETWEEN '\(from)' AND '\(to)'),
                       (SELECT count(*) FROM d WHERE date BETWEEN '\(from)' AND '\(to)'),
                       (SELECT count(exercise_minutes) FROM daily_analytics WHERE date BETWEEN '\(from)' AND '\(to)')
                """)[0]
            return (r[0].double ?? 0, r[1].double ?? 0, r[2].double ?? 0)
        }
        let now = try week("2024-10-21", "2024-10-27"), before = try week("2024-10-14", "2024-10-20")
        XCTAssertEqual(now.days, 7)
        XCTAssertEqual(now.withExercise, 1, "the fixture has exercise on Saturday only")
        let perDay = now.minutes / now.days, perDayBefore = before.minutes / before.days
        let change = Format.percent((perDay - perDayBefore) / perDayBefore * 100)
        XCTAssertNotEqual(Format.count(perDay), Format.count(now.minutes), "the old denominator would read differently")
        let page = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("<h3>Exercise</h3><p class=\"note\">\(Format.count(perDay)) min a day · \(change) vs last week</p>"),
                      "expected \(Format.count(perDay)) min a day · \(change) vs last week")
        XCTAssertFalse(page.contains("% a day"))
    }

    /// The year view's "steps a day" of a month: its complete days with data, each day's 0
    /// counted (a day with a ring and no steps), the partial first day left out.
    func testTheYearViewAveragesAMonthOverItsCompleteDaysWithData() {
        let first = CivilDate(iso: "2024-03-01")!
        var days = (0..<10).map { ReportDay(date: first.adding(days: $0), steps: $0 < 5 ? 9_000 : nil) }
        days[0].steps = 100
        days[0].partial = true
        days[7].standHours = 4   // a day with rings only: a day with data, 0 steps
        let data = ReportData(days: ReportData.countingZeros(days.filter { $0.steps != nil || $0.standHours != nil }))
        // 2–5 Mar at 9,000 and 8 Mar at 0: 36,000 / 5 (1 Mar is partial, 6, 7, 9 and 10 Mar have no data).
        XCTAssertTrue(ReportPage(data: data, goals: goals).html.contains("<title>M: 7,200 steps a day</title>"))
    }

    /// The zero of a day with data counts from the metric's first record on; sleep is never
    /// filled (a night without a record is unknown).
    func testADayWithDataCountsItsZeroFromTheMetricsFirstRecord() {
        let first = CivilDate(iso: "2024-03-04")!
        var days = (0..<6).map { ReportDay(date: first.adding(days: $0), steps: 5_000) }
        days[3].exerciseMinutes = 40
        days[4].standHours = 9
        let counted = ReportData.countingZeros(days)
        XCTAssertEqual(counted.map(\.exerciseMinutes), [nil, nil, nil, 40, 0, 0])
        XCTAssertEqual(counted.map(\.standHours), [nil, nil, nil, nil, 9, 0])
        XCTAssertEqual(counted.map(\.sleepMinutes), Array(repeating: nil, count: 6))
        XCTAssertEqual(counted.map(\.steps), Array(repeating: 5_000, count: 6))
    }

    /// 30 days of data (the bundled sample) never read "over the last 8 weeks", and "steady"
    /// never stands beside a change of 10 % or more.
    func testATrendNamesTheSpanItMeasuredAndSteadyMeansSteady() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        try importJSON(TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path, out)
        let page = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        let trends = try NSRegularExpression(pattern: #"data-insight="trend-[a-z]+">([^<]*)<"#)
            .matches(in: page, range: NSRange(page.startIndex..., in: page)).map { String(page[Range($0.range(at: 1), in: page)!]) }
        XCTAssertEqual(trends.count, 2, "\(trends)")
        for text in trends {
            XCTAssertFalse(text.contains("8 weeks"), text)
            XCTAssertTrue(text.contains("over the last 5 weeks"), text)
            XCTAssertFalse(text.contains("steady") && text.range(of: #"[−+]([1-9][0-9])%"#, options: .regularExpression) != nil, text)
        }
        // Hand-made: 5 weeks that fall 16 % with no good fit are not "steady".
        let first = CivilDate(iso: "2024-01-01")!
        let weekly = [10_000.0, 7_000, 10_500, 6_000, 8_000]
        let days = (0..<35).map { ReportDay(date: first.adding(days: $0), steps: weekly[$0 / 7]) }
        let text = Insights.trend(days, metric: .steps)?.text ?? ""
        XCTAssertEqual(text, "Steps without a clear direction over the last 5 weeks: weekly averages between 6,000 and 10,500 steps a day.")
    }

    // MARK: item 8, the 7-day chart

    /// The latest bar takes the "goal reached" colour only when its day reached the goal: in
    /// the markup, and as Chromium paints it (the legend's `b4`).
    func testTheLatestBarIsGoalColouredOnlyWhenTheGoalWasReached() throws {
        let first = CivilDate(iso: "2024-03-04")!
        let days = (0..<7).map { ReportDay(date: first.adding(days: $0), steps: $0 == 6 ? 4_000 : ($0 == 5 ? 12_000 : 8_000)) }
        let page = ReportPage(data: ReportData(days: days), goals: goals).html
        let from = page.range(of: "Steps, last 7 days")!.lowerBound
        let chart = String(page[from..<page[from...].range(of: "</svg>")!.upperBound])
        let classes = try NSRegularExpression(pattern: #"<rect class="(bar[^"]*)""#)
            .matches(in: chart, range: NSRange(chart.startIndex..., in: chart)).map { String(chart[Range($0.range(at: 1), in: chart)!]) }
        XCTAssertEqual(classes, ["bar", "bar", "bar", "bar", "bar", "bar met", "bar hi"])
        let reached = ReportPage(data: ReportData(days: days.dropLast() + [ReportDay(date: first.adding(days: 6), steps: 10_000)]),
                                 goals: goals).html
        XCTAssertTrue(reached.contains(#"<rect class="bar met hi""#))

        // As painted: the missed day's bar is not the legend's "goal reached" colour; the reached one is.
        let dir = try temporaryFolder(self)
        let probe = #"<script>console.log('fills '+JSON.stringify([...document.querySelectorAll('#dashboard rect.bar')].map(r=>getComputedStyle(r).fill))+' b4 '+getComputedStyle(document.querySelector('.legend i.b4')).backgroundColor)</script></body>"#
        let file = dir.appendingPathComponent("bars.html").path
        try page.replacingOccurrences(of: "</body>", with: probe).write(toFile: file, atomically: true, encoding: .utf8)
        guard let line = try chromiumConsole(file, in: dir).first(where: { $0.contains("fills [") }) else { return }
        let tail = line[line.range(of: "fills ")!.upperBound...]
        let fills = try XCTUnwrap(tail.range(of: #"\[[^\]]*\]"#, options: .regularExpression).map { String(tail[$0]) })
        let b4 = try XCTUnwrap(line.range(of: #"b4 rgb\([^)]*\)"#, options: .regularExpression).map { String(line[$0].dropFirst(3)) })
        let painted = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(fills.utf8)) as? [String])
        XCTAssertEqual(painted.count, 7)
        XCTAssertEqual(painted[5], b4)
        XCTAssertNotEqual(painted[6], b4)
    }

    /// Headless Chromium's console lines for a page (as ReportTests renders it).
    private func chromiumConsole(_ page: String, in dir: URL) throws -> [String] {
        let r = try TestTools.headlessChromium(["--window-size=1280,2400", "--screenshot=\(dir.appendingPathComponent("shot.png").path)",
                                                URL(fileURLWithPath: page).absoluteString],
                                               profile: dir.appendingPathComponent("profile").path, timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = TestTools.consoleLines(r)
        XCTAssertTrue(lines.contains { $0.contains("fills [") }, "the probe ran: \(lines)")
        return lines
    }
}
