import Foundation
import XCTest
@testable import HealthCore
@testable import HealthReport
@testable import HealthStore
@testable import SQLite
import TestSupport

/// The sleep-night rule (docs/sleep-nights.md) through whole imports of small exports written
/// here: a traveller's nights and naps, iPhone Bedtime without a watch, the nightly run, the
/// bundled sample read in New York, and a store of schema 4.
final class SleepNightsEndToEndTests: XCTestCase {
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let phone = #"sourceName="Clock" sourceVersion="10.2" device="&lt;&lt;HKDevice: 0x1&gt;, name:iPhone, model:iPhone, hardware:iPhone9,3, software:10.2&gt;""#
    static let watch = #"sourceName="Watch" sourceVersion="10.1" device="&lt;&lt;HKDevice: 0x2&gt;, name:Apple Watch, model:Watch, hardware:Watch6,1, software:10.1&gt;""#

    /// A sleep record between two wall-clock times written with the file's one offset.
    static func record(_ source: String, _ from: String, _ to: String, _ value: String, offset: String,
                       created: String? = nil) -> String {
        #"<Record type="\#(sleep)" \#(source) creationDate="\#(created ?? to):00 \#(offset)" startDate="\#(from):00 \#(offset)" "#
            + #"endDate="\#(to):00 \#(offset)" value="HKCategoryValueSleepAnalysis\#(value)"/>"#
    }

    static func export(_ records: [String], exportDate: String) -> String {
        ExportXML.document(records, exportDate: exportDate)
    }

    /// A watch night from `bed` to `wake` (`yyyy-MM-dd HH:mm`, Berlin winter time): in bed
    /// from the phone, 30-minute stages from the watch.
    static func berlinNight(_ bed: String, _ wake: String) -> [String] {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX"); f.timeZone = TimeZone(identifier: "Europe/Berlin")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        var out = [record(phone, bed, wake, "InBed", offset: "+0100")]
        var t = f.date(from: bed)!
        let end = f.date(from: wake)!
        let stages = ["AsleepCore", "AsleepDeep", "AsleepCore", "AsleepREM"]
        var i = 0
        while t < end {
            let next = min(t.addingTimeInterval(1800), end)
            out.append(record(watch, f.string(from: t), f.string(from: next), stages[i % 4], offset: "+0100"))
            t = next; i += 1
        }
        return out
    }

    /// Every night: its own date, within its span, asleep + awake within time in bed.
    private func assertNightsSound(_ store: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let rows = try queryRows(store, """
            SELECT night_date, (unixepoch(end_utc) - unixepoch(start_utc)) / 60.0, in_bed_minutes,
                   coalesce(asleep_minutes, 0) + awake_minutes FROM sleep_sessions
            """)
        XCTAssertEqual(Set(rows.map { $0[0].string ?? "" }).count, rows.count, file: file, line: line)
        for r in rows {
            let span = r[1].double ?? 0, inBed = r[2].double ?? 0, used = r[3].double ?? 0
            XCTAssertLessThanOrEqual(inBed, span + 1e-6, "\(r)", file: file, line: line)
            XCTAssertLessThanOrEqual(used, inBed + 1e-6, "\(r)", file: file, line: line)
        }
    }

    func testATravellersNightsAndNapsAreDatedByTheWakeUpDayWhereTheyAreRead() throws {
        let dir = try temporaryFolder(self)
        var records: [String] = []
        for d in 10...16 { records += Self.berlinNight("2024-02-\(d) 23:10", "2024-02-\(d + 1) 07:05") }
        // A nap on the 14th in Berlin (05:00–05:40 in Los Angeles, before the night that ends
        // there at 22:05 on the 14th).
        records.append(Self.record(Self.watch, "2024-02-14 14:00", "2024-02-14 14:40", "AsleepCore", offset: "+0100"))
        let path = try write(Self.export(records, exportDate: "2024-02-17 12:00:00 +0100"), to: "trip.xml", in: dir)
        let home = dir.appendingPathComponent("berlin").path, away = dir.appendingPathComponent("la").path
        _ = try importJSON(path, home, zone: "Europe/Berlin")
        _ = try importJSON(path, away, zone: "America/Los_Angeles")
        let nights = "SELECT night_date, asleep_minutes, nap_minutes, naps FROM sleep_sessions ORDER BY night_date"
        let berlin = try queryRows(home + "/health.sqlite", nights), la = try queryRows(away + "/health.sqlite", nights)
        XCTAssertEqual(berlin.map { $0[0].string }, (11...17).map { "2024-02-\($0)" })
        XCTAssertEqual(la.map { $0[0].string }, (10...16).map { "2024-02-\($0)" })
        for rows in [berlin, la] {
            XCTAssertEqual(rows.map { $0[1].double }, Array(repeating: 475, count: 7), "the nap stays out of every night")
            XCTAssertEqual(rows.compactMap { $0[2].double }.reduce(0, +), 40, accuracy: 1e-9)
        }
        XCTAssertEqual(berlin.first { $0[3].int == 1 }?[0].string, "2024-02-14")   // after the night ending 07:05
        XCTAssertEqual(la.first { $0[3].int == 1 }?[0].string, "2024-02-14")
        let daily = try queryRows(away + "/health.sqlite",
                                  "SELECT sleep_total_minutes, sleep_nap_minutes FROM daily_analytics WHERE date = '2024-02-14'")
        XCTAssertEqual(daily.first?[0].double, 475)
        XCTAssertEqual(daily.first?[1].double, 40)
        try assertNightsSound(home + "/health.sqlite")
        try assertNightsSound(away + "/health.sqlite")
    }

    func testAnEarlySleepersNightlyRunEqualsAFullImport() throws {
        // Bedtimes 17:30 and 19:35 in New York (both sides of the old 18:00 cutoff), as 30-minute
        // records. The second export adds one nap, so the nightly run recomputes only the days
        // around it: a night still running at the end of those days must be read whole, or its
        // first part would pass for a night (or a nap) ending on the last of them.
        let dir = try temporaryFolder(self)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX"); f.timeZone = TimeZone(identifier: "America/New_York")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        let nights = (1...9).flatMap { d -> [String] in
            var t = f.date(from: String(format: "2024-02-%02d ", d) + (d % 2 == 0 ? "17:30" : "19:35"))!
            let wake = f.date(from: String(format: "2024-02-%02d 02:10", d + 1))!
            var out: [String] = []   // a watch alone: no long in-bed record to reach past midnight
            while t < wake {
                let next = min(t.addingTimeInterval(1800), wake)
                out.append(Self.record(Self.watch, f.string(from: t), f.string(from: next), "AsleepCore", offset: "-0500"))
                t = next
            }
            return out
        }
        let nap = Self.record(Self.watch, "2024-02-05 13:00", "2024-02-05 13:30", "AsleepCore", offset: "-0500",
                              created: "2024-02-10 12:30")   // entered after the first export
        let first = try write(Self.export(nights, exportDate: "2024-02-10 12:00:00 -0500"), to: "a.xml", in: dir)
        let second = try write(Self.export(nights + [nap], exportDate: "2024-02-10 13:00:00 -0500"), to: "b.xml", in: dir)
        let nightly = dir.appendingPathComponent("nightly").path, fresh = dir.appendingPathComponent("fresh").path
        _ = try importJSON(first, nightly, zone: "America/New_York")
        let run = try importJSON(second, nightly, zone: "America/New_York")
        XCTAssertEqual(run["mode"] as? String, "incremental")
        XCTAssertLessThan(run["touched_days"] as? Int ?? 99, 9, "\(run)")
        _ = try importJSON(second, fresh, zone: "America/New_York")
        XCTAssertEqual(try query(fresh + "/health.sqlite", "SELECT night_date FROM sleep_sessions ORDER BY night_date"),
                       (2...10).map { String(format: "2024-02-%02d", $0) })
        XCTAssertEqual(try query(fresh + "/health.sqlite", "SELECT night_date FROM sleep_sessions WHERE naps = 1"), ["2024-02-05"])
        XCTAssertEqual(try analyticsSnapshot(nightly + "/health.sqlite").filter { !$0.contains("sample_data") },
                       try analyticsSnapshot(fresh + "/health.sqlite").filter { !$0.contains("sample_data") })
        try assertNightsSound(fresh + "/health.sqlite")
    }

    func testInBedOnlyNightsShowTimeInBedNotZeroSleep() throws {
        // iPhone Bedtime without a watch (an iOS 10 export): in-bed records only.
        let dir = try temporaryFolder(self)
        let records = (1...5).map { d in
            Self.record(Self.phone, String(format: "2024-02-%02d 05:28", d), String(format: "2024-02-%02d 09:30", d), "InBed", offset: "-0500")
        }
        let path = try write(Self.export(records, exportDate: "2024-02-05 12:00:00 -0500"), to: "bedtime.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        _ = try importJSON(path, out, zone: "America/New_York")
        let store = out + "/health.sqlite"
        let nights = try queryRows(store, "SELECT in_bed_minutes, asleep_minutes, recorded FROM sleep_sessions")
        XCTAssertEqual(nights.count, 5)
        for n in nights {
            XCTAssertEqual(n[0].double, 242)
            XCTAssertEqual(n[1], .null, "asleep is unknown, not 0")
            XCTAssertEqual(n[2].string, "in bed only")
        }
        let days = try queryRows(store, "SELECT sleep_total_minutes, sleep_in_bed_minutes FROM daily_analytics")
        XCTAssertEqual(days.map { $0[0] }, Array(repeating: .null, count: 5))
        XCTAssertEqual(days.map { $0[1].double }, Array(repeating: 242, count: 5))
        XCTAssertEqual(try query(store, "SELECT count(*) FROM weekly_analytics WHERE sleep_total_minutes IS NOT NULL"), ["0"])

        let csv = try String(contentsOfFile: out + "/csv/sleep.csv", encoding: .utf8)
        let lines = csv.components(separatedBy: "\r\n")   // RFC 4180 line ends
        let header = lines[0].components(separatedBy: ","), row = lines[1].components(separatedBy: ",")
        XCTAssertEqual(row[header.firstIndex(of: "recorded")!], "in bed only")
        XCTAssertEqual(row[header.firstIndex(of: "asleep_minutes")!], "")
        XCTAssertEqual(row[header.firstIndex(of: "in_bed_minutes")!], "242.0")

        let page = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("4.0 h in bed · 05:28–09:30"), "the last night shows its time in bed")
        XCTAssertTrue(page.contains("no sleep stages recorded"))
        XCTAssertFalse(page.contains("0.0 h asleep"))
        XCTAssertTrue(page.contains("Last 5 nights in bed only (no sleep stages recorded): 4.0 h in bed on average."))

        try assertWorkbookSleepSheet(out + "/health.xlsx")
    }

    /// The workbook's Sleep sheet (read by openpyxl) labels the nights and leaves asleep empty
    /// (a column empty on every night is left out: issue 33); durations are h:mm cells.
    private func assertWorkbookSleepSheet(_ path: String) throws {
        let script = """
        import datetime, json, sys, openpyxl
        ws = openpyxl.load_workbook(sys.argv[1], read_only=True)["Sleep"]
        rows = [list(r) for r in ws.iter_rows(values_only=True)]
        head = rows[0]
        def minutes(v):
            if v is None: return None
            if isinstance(v, datetime.timedelta): return round(v.total_seconds() / 60, 3)
            if isinstance(v, datetime.time): return round(v.hour * 60 + v.minute + v.second / 60, 3)
            return round(float(v) * 1440, 3)
        def cell(r, h): return r[head.index(h)] if h in head else None
        print(json.dumps([{"Recorded": cell(r, "Recorded"), "Asleep (min)": minutes(cell(r, "Asleep (h:mm)")),
                           "In bed (min)": minutes(cell(r, "In bed (h:mm)"))} for r in rows[1:]]))
        """
        let r = try runProcess(try TestTools.python(importing: ["openpyxl"]), ["-c", script, path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.stdout)
        XCTAssertEqual(rows.count, 5)
        for row in rows {
            XCTAssertEqual(row["Recorded"] as? String, "in bed only")
            XCTAssertTrue(row["Asleep (min)"] is NSNull, "\(row)")
            XCTAssertEqual(row["In bed (min)"] as? Double, 242)
        }
    }

    func testTheReportAveragesSleepOverNightsThatRecordedIt() {
        func night(_ day: Int, core: Double = 0, inBed: Double) -> ReportNight {
            var n = ReportNight(date: CivilDate(year: 2024, month: 2, day: day), bedtimeMinutes: -60, wakeMinutes: 420)
            n.core = core; n.inBed = inBed
            return n
        }
        let nights = [night(1, core: 420, inBed: 450), night(2, inBed: 300), night(3, core: 480, inBed: 500)]
        XCTAssertEqual(ReportPage.sleepAverage(nights),
                       "Last 2 nights with sleep recorded: 7.5 h asleep on average. "
                       + "Besides, 1 night in bed only (no sleep stages recorded): 5.0 h in bed on average.")
        XCTAssertTrue(ReportPage.lastNight(nights[1]).contains("5.0 h in bed"))
        XCTAssertTrue(ReportPage.lastNight(nights[2]).contains("8.0 h asleep"))
    }

    func testTheBundledSampleReadInNewYorkHasOneNightPerNight() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("ny").path
        _ = try importJSON(TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path, out, zone: "America/New_York")
        let store = out + "/health.sqlite"
        // Bedtimes 17:00–19:00 there: 30 nights, one a day, none longer than 14 hours.
        let dates = try query(store, "SELECT night_date FROM sleep_sessions ORDER BY night_date")
        var day = CivilDate(iso: "2024-03-20")!
        XCTAssertEqual(dates, (0..<30).map { _ in defer { day = day.adding(days: 1) }; return day.iso8601 })
        XCTAssertEqual(try query(store, "SELECT max(unixepoch(end_utc) - unixepoch(start_utc)) < 14 * 3600 FROM sleep_sessions"), ["1"])
        // The generator's three manual naps (45, 40, 35 min) are naps, whatever the zone.
        XCTAssertEqual(try query(store, "SELECT sum(naps), round(sum(nap_minutes), 6) FROM sleep_sessions").first, "3")
        XCTAssertEqual(try queryRows(store, "SELECT sum(nap_minutes) FROM sleep_sessions").first?[0].double ?? 0, 120, accuracy: 1e-6)
        try assertNightsSound(store)
    }

    func testAStoreOfSchema4IsUpgradedAndReanalysed() throws {
        let dir = try temporaryFolder(self)
        let path = try write(Self.export(Self.berlinNight("2024-02-10 23:10", "2024-02-11 07:05"), exportDate: "2024-02-12 12:00:00 +0100"),
                             to: "one.xml", in: dir)
        let out = dir.appendingPathComponent("out").path, store = out + "/health.sqlite"
        _ = try importJSON(path, out, zone: "Europe/Berlin")
        do {   // as version 4 left it: no sleep metrics, the old sleep_sessions, the old analytics stamp
            let db = try Database(path: store, mode: .readWrite)
            for table in ["daily_analytics", "weekly_analytics", "monthly_analytics", "yearly_analytics"] {
                try db.execute("ALTER TABLE \(table) DROP COLUMN sleep_in_bed_minutes; ALTER TABLE \(table) DROP COLUMN sleep_nap_minutes")
            }
            try db.execute("""
                DROP TABLE sleep_sessions;
                CREATE TABLE sleep_sessions (
                    id INTEGER PRIMARY KEY, night_date TEXT NOT NULL UNIQUE, start_utc TEXT NOT NULL, end_utc TEXT NOT NULL,
                    in_bed_minutes REAL NOT NULL, asleep_minutes REAL NOT NULL, core_minutes REAL NOT NULL,
                    deep_minutes REAL NOT NULL, rem_minutes REAL NOT NULL, unspecified_minutes REAL NOT NULL,
                    awake_minutes REAL NOT NULL, sources TEXT);
                UPDATE settings SET value = replace(value, 'schema=\(StoreSchema.analyticsVersion);', 'schema=3;') WHERE key = 'analytics';
                PRAGMA user_version = 4;
                """)
            // The in-place step alone, twice (a resumed staged store runs it again).
            try StoreSchema.upgrade(db)
            try StoreSchema.upgrade(db)
            let columns = try db.rows("SELECT name FROM pragma_table_info('sleep_sessions')").compactMap { $0.first?.string }
            XCTAssertTrue(columns.contains("recorded") && columns.contains("nap_minutes"), "\(columns)")
            try db.execute("PRAGMA user_version = 4")
        }
        // The analytics of version 4 dated nights otherwise: the next import recomputes them.
        let next = try importJSON(path, out, zone: "Europe/Berlin")
        XCTAssertEqual(next["mode"] as? String, "full")
        XCTAssertEqual(try query(store, "PRAGMA user_version"), [String(StoreSchema.version)])
        XCTAssertEqual(try query(store, "SELECT night_date || ' ' || recorded FROM sleep_sessions"), ["2024-02-11 sleep stages"])
        XCTAssertEqual(try query(store, "SELECT sleep_in_bed_minutes FROM daily_analytics WHERE date = '2024-02-11'"), ["475.0"])
    }
}
