import Foundation
import SQLite
import XCTest
import TestSupport

/// Issue 48, items 2–4: a traveller's days are local to where they were. Each fixture is
/// written in the local wall clock of the place every record was made, printed (as every
/// export prints) with the offset of the phone's zone at export; each trip day's figures are
/// counted by hand in its comments.
final class TravellersLocalDaysTests: XCTestCase {
    /// Records made at local wall-clock times, printed in `printed`'s offset.
    struct Trip {
        let printed: TimeZone
        /// Elements with the instant they end (an export holds those ended by its date).
        var elements: [(end: Date, xml: String)] = []

        init(printedIn zone: String) { printed = TimeZone(identifier: zone)! }

        static func date(_ local: String, _ zone: String) -> Date {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX"); f.timeZone = TimeZone(identifier: zone)!
            f.dateFormat = "yyyy-MM-dd HH:mm"
            return f.date(from: local)!
        }

        func text(_ date: Date) -> String {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX"); f.timeZone = printed
            f.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
            return f.string(from: date)
        }

        static let watch = #" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, model:Watch&gt;""#
        static func zoneEntry(_ zone: String) -> String { #"<MetadataEntry key="HKTimeZone" value="\#(zone)"/>"# }

        /// A night asleep from 23:00 to 07:00 local, waking on `wake`; its `HKTimeZone` unless `evidence` is false.
        mutating func night(wake: String, in zone: String, evidence: Bool = true) {
            let end = Self.date(wake + " 07:00", zone)
            let start = Self.date(CivilText.dayBefore(wake) + " 23:00", zone)
            elements.append((end, ExportXML.record("HKCategoryTypeIdentifierSleepAnalysis", source: "Watch",
                                                   value: "HKCategoryValueSleepAnalysisAsleepCore", start: text(start),
                                                   end: text(end), created: text(end), attributes: Self.watch,
                                                   children: evidence ? Self.zoneEntry(zone) : "")))
        }

        /// Ten minutes from `local` in `zone`: steps and a walk's distance (km) from the phone,
        /// active energy (kJ) from the Watch.
        mutating func activity(_ local: String, in zone: String, steps: Int, km: String, kJ: String) {
            let start = Self.date(local, zone), end = start.addingTimeInterval(600)
            for (type, source, unit, value) in [("StepCount", "iPhone", "count", "\(steps)"),
                                                ("DistanceWalkingRunning", "iPhone", "km", km),
                                                ("ActiveEnergyBurned", "Watch", "kJ", kJ)] {
                elements.append((end, ExportXML.record(type, source: source, unit: unit, value: value, start: text(start),
                                                       end: text(end), created: text(end))))
            }
        }

        /// A 30-minute run from `local` in `zone`, with its `HKTimeZone`.
        mutating func run(_ local: String, in zone: String) {
            let start = Self.date(local, zone), end = start.addingTimeInterval(1800)
            elements.append((end, #"<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" "#
                + #"sourceName="Watch" creationDate="\#(text(end))" startDate="\#(text(start))" endDate="\#(text(end))">"#
                + "\n" + Self.zoneEntry(zone) + "\n</Workout>"))
        }

        /// The export made at `local` (in the printed zone): what had ended by then.
        func export(at local: String, to name: String, in dir: URL) throws -> String {
            let date = Self.date(local, printed.identifier)
            let xml = ExportXML.document(elements.filter { $0.end <= date }.map(\.xml), exportDate: text(date))
            return try write(xml, to: name, in: dir)
        }
    }

    enum CivilText {
        static func dayBefore(_ day: String) -> String {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX"); f.timeZone = TimeZone(identifier: "UTC")!
            f.dateFormat = "yyyy-MM-dd"
            return f.string(from: f.date(from: day)!.addingTimeInterval(-86_400))
        }
    }

    /// date → [column: value] of `daily_analytics`.
    func days(_ out: String, _ columns: String = "steps, walking_distance_m, active_energy_kcal, sleep_total_minutes, zone, travel_day")
        throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for row in try queryRows(out + "/health.sqlite", "SELECT date, \(columns) FROM daily_analytics") {
            result[row[0].string!] = row.dropFirst().map { v in v.double.map { String(format: "%g", $0) } ?? v.description }
        }
        return result
    }

    /// Los Angeles (home) → Tokyo, 2–9 February 2024 → Los Angeles: nights in LA waking 28–31
    /// January and 11–14 February, in Tokyo waking 3–8 February; on each Tokyo day D (3–8) at
    /// 08:00 D + 1000 steps, 0.5 km, 418.4 kJ, and at 20:00 D + 2000 steps, 1 km, 209.2 kJ; on
    /// 9 February, the way home, 99 steps at noon in Tokyo.
    static func eastward() -> Trip {
        var trip = Trip(printedIn: "America/Los_Angeles")
        for d in 28...31 { trip.night(wake: "2024-01-\(d)", in: "America/Los_Angeles") }
        for d in 3...8 {
            let day = String(format: "2024-02-%02d", d)
            trip.night(wake: day, in: "Asia/Tokyo")
            trip.activity(day + " 08:00", in: "Asia/Tokyo", steps: 1000 + d, km: "0.5", kJ: "418.4")
            // An exact copy of 5 February's 08:00 steps (dropped at load, counted on its Tokyo day).
            if d == 5 { trip.elements.append(trip.elements[trip.elements.count - 3]) }
            trip.activity(day + " 20:00", in: "Asia/Tokyo", steps: 2000 + d, km: "1", kJ: "209.2")
        }
        // The day of the way home: 99 steps at noon in Tokyo (03:00 UTC, before the switch).
        trip.activity("2024-02-09 12:00", in: "Asia/Tokyo", steps: 99, km: "0", kJ: "0")
        for d in 11...14 { trip.night(wake: String(format: "2024-02-%02d", d), in: "America/Los_Angeles") }
        return trip
    }

    func testAnEastwardTripsDaysAreTokyoDaysWithoutAZoneAndLosAngelesDaysWithOne() throws {
        let dir = try temporaryFolder(self)
        let export = try Self.eastward().export(at: "2024-02-14 12:00", to: "trip.xml", in: dir)
        let travelled = dir.appendingPathComponent("travelled").path
        let summary = try importJSON(export, travelled, zone: nil)
        XCTAssertEqual(summary["time_zone"] as? String, "America/Los_Angeles", "home: the first HKTimeZone of the export")
        XCTAssertEqual(summary["local_days"] as? String, "where-recorded", "the default without a zone")
        XCTAssertEqual(summary["zone_timeline"] as? String, "2 zones: America/Los_Angeles, Asia/Tokyo (Asia/Tokyo 2024-02-01 – 2024-02-09)")
        let local = try days(travelled)
        // Hand count, Tokyo day D (3–8): steps (1000 + D) + (2000 + D), 0.5 + 1 km, (418.4 + 209.2) kJ
        // = 150 kcal, and the night waking on D, 23:00–07:00: 480 minutes.
        for d in 3...8 {
            XCTAssertEqual(local[String(format: "2024-02-%02d", d)], ["\(3000 + 2 * d)", "1500", "150", "480", "Asia/Tokyo",
                                                                   d >= 7 ? "1" : "0"], "Tokyo day \(d)")
        }
        // The flight days: those touching a window where the switch is a guess (from the start of
        // the last night of one zone to the start of the first night of the next).
        XCTAssertEqual(try query(travelled + "/health.sqlite", "SELECT date FROM daily_analytics WHERE travel_day = 1 ORDER BY date"),
                       ["2024-01-30", "2024-01-31", "2024-02-01", "2024-02-02", "2024-02-07", "2024-02-08", "2024-02-09", "2024-02-10"]
                        .filter { local[$0] != nil })
        XCTAssertEqual(local["2024-01-29"]?.suffix(2), ["America/Los_Angeles", "0"])
        // 9 February: 19.5 hours in Tokyo (from its midnight to the switch, 10:30 UTC), then 21.5
        // in Los Angeles (to LA's midnight): the day's zone is Los Angeles.
        XCTAssertEqual(local["2024-02-09"], ["99", "0", "0", "NULL", "America/Los_Angeles", "1"])
        XCTAssertEqual(try query(travelled + "/health.sqlite", "SELECT date(local_day * 86400, 'unixepoch') || ' ' || copies FROM duplicate_copies"),
                       ["2024-02-05 1"], "the dropped copy's day is its Tokyo day")
        // Every sample's local day, and the samples output, say the same.
        XCTAssertEqual(try query(travelled + "/health.sqlite", """
            SELECT CAST(sum(s.value) AS INTEGER) FROM sample_data s JOIN types t ON t.id = s.type_id
            WHERE t.identifier = 'HKQuantityTypeIdentifierStepCount' AND s.local_day = julianday('2024-02-05') - 2440587.5
            """), ["3010"])

        // HealthQL prints the record's own local time; the report marks the days away and the travel days.
        let steps = try healthetl(["query", "SELECT * FROM steps LIMIT 1", "--out", travelled, "--format", "csv"])
        XCTAssertTrue(steps.stdout.contains("2024-02-03 08:00:00,1003,"), steps.stdout + steps.stderr)
        let report = try String(contentsOfFile: travelled + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(report.contains("data-date=2024-02-05 data-metric=steps data-value=3010 data-zone=Tokyo>"), "a day in Tokyo time")
        XCTAssertTrue(report.contains(#"<i class="b1 tr" data-date=2024-02-07 data-metric=steps data-value=3014 data-zone=Tokyo>"#),
                      "a travel day in Tokyo time")
        XCTAssertTrue(report.contains("travel day (between two time zones)"), "the legend says what the mark means")

        // The same export in one zone, Los Angeles: everything as before issue 48. The 20:00 of
        // Tokyo day D is 03:00 in LA on D; the 08:00 of D + 1 is 15:00 in LA on D: LA day D
        // (3–7) counts (2000 + D) + (1000 + D + 1); each Tokyo night ends at 14:00 in LA, on D − 1.
        let zoned = dir.appendingPathComponent("zoned").path
        XCTAssertEqual(try importJSON(export, zoned, zone: "America/Los_Angeles")["local_days"] as? String, "zone")
        let la = try days(zoned)
        for d in 3...7 {
            XCTAssertEqual(la[String(format: "2024-02-%02d", d)]?.prefix(2), ["\(3001 + 2 * d)", "1500"], "LA day \(d)")
            XCTAssertEqual(la[String(format: "2024-02-%02d", d - 1)]?[3], "480", "LA night \(d - 1)")
        }
        XCTAssertEqual(la["2024-02-02"]?[0], "1003")
        let zonedSteps = try healthetl(["query", "SELECT * FROM steps LIMIT 1", "--out", zoned, "--format", "csv"])
        XCTAssertTrue(zonedSteps.stdout.contains("2024-02-02 15:00:00,1003,"), zonedSteps.stdout)
        XCTAssertFalse(try String(contentsOfFile: zoned + "/report/index.html", encoding: .utf8).contains("data-zone="))
        XCTAssertEqual(try query(zoned + "/health.sqlite", "SELECT DISTINCT zone || ' ' || travel_day FROM daily_analytics"),
                       ["America/Los_Angeles 0"])
        // Saying it outright gives the same: --local-days where-recorded, with LA as home.
        let explicit = dir.appendingPathComponent("explicit").path
        _ = try importJSON(export, explicit, ["--local-days", "where-recorded"], zone: "America/Los_Angeles")
        XCTAssertEqual(try days(explicit), local)
    }

    /// Nightly runs: an export before the trip, one during it (the timeline ends in Tokyo, 48
    /// hours after the last night there), and the last one (the trip grows, the way home
    /// appears): each run recomputes the days whose zone moved, and ends where `--full` does.
    func testNightlyRunsThatMoveTheTimelineEndWhereAFullImportDoes() throws {
        let dir = try temporaryFolder(self)
        let trip = Self.eastward()
        let exports = try [("2024-02-01 12:00", "a.xml"), ("2024-02-06 12:00", "b.xml"), ("2024-02-14 12:00", "c.xml")]
            .map { try trip.export(at: $0.0, to: $0.1, in: dir) }
        let nightly = dir.appendingPathComponent("nightly").path
        XCTAssertNil(try importJSON(exports[0], nightly, zone: nil)["zone_timeline"] as? String)
        let during = try importJSON(exports[1], nightly, zone: nil)
        XCTAssertEqual(during["mode"] as? String, "incremental")
        XCTAssertEqual(during["zone_timeline"] as? String, "2 zones: America/Los_Angeles, Asia/Tokyo (Asia/Tokyo 2024-02-01 – 2024-02-07)")
        // The export during the trip (05:00 on 7 February in Tokyo): its last complete day and night
        // are in Tokyo, within 48 hours of the last Tokyo night (a window: travel days), and the report says so.
        let report = try String(contentsOfFile: nightly + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(report.contains("<h2>6 Feb 2024, in Tokyo time, travel day</h2>"), "the day shown")
        XCTAssertTrue(report.contains("Last night (6 Feb 2024, in Tokyo time, travel day)"), "the night shown")
        let last = try importJSON(exports[2], nightly, zone: nil)
        XCTAssertEqual(last["mode"] as? String, "incremental")
        let fresh = dir.appendingPathComponent("fresh").path
        _ = try importJSON(exports[2], fresh, ["--full"], zone: nil)
        let incremental = try analyticsSnapshot(nightly + "/health.sqlite"), rebuilt = try analyticsSnapshot(fresh + "/health.sqlite")
        XCTAssertEqual(incremental.count, rebuilt.count)
        for (a, b) in zip(incremental, rebuilt) where a != b { XCTFail("incremental \(a)\n      full \(b)") }
        for file in ["csv/daily.csv", "csv/sleep.csv", "csv/workouts.csv", "parquet/samples.parquet"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: nightly + "/" + file)),
                           try Data(contentsOf: URL(fileURLWithPath: fresh + "/" + file)), file)
        }
        XCTAssertEqual(try days(nightly)["2024-02-05"]?.first, "3010")

        // Changing `localDays` rebuilds, and says so.
        let zoned = try importJSON(exports[2], nightly, ["--local-days", "zone"], zone: nil)
        XCTAssertEqual(zoned["mode"] as? String, "full")
        XCTAssertTrue((zoned["notes"] as? [String] ?? []).contains { $0.contains("local days changed (where-recorded → zone)") },
                      "\(zoned)")
        XCTAssertEqual(try days(nightly)["2024-02-05"]?.first, "3011")
    }

    /// A store built before issue 48 with no zone configured (its days in the one zone the
    /// export named, analytics version 5) moves to the timeline on its next run, and says so.
    func testAStoreOfOneZoneBuiltWithoutAZoneMovesToTheTimelineAndSaysSo() throws {
        let dir = try temporaryFolder(self)
        let export = try Self.eastward().export(at: "2024-02-14 12:00", to: "trip.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        _ = try importJSON(export, out, ["--local-days", "zone"], zone: nil)
        XCTAssertEqual(try days(out)["2024-02-05"]?.first, "3011", "Los Angeles days")
        // What such a store holds: the settings line of analytics version 5, without the mode.
        do {
            let db = try Database(path: out + "/health.sqlite", mode: .readWrite)
            try db.execute("UPDATE settings SET value = replace(value, 'schema=6;', 'schema=5;') WHERE key = 'analytics'")
            XCTAssertEqual(try db.rows("""
                SELECT value LIKE 'schema=5;zone=America/Los_Angeles;%' AND value NOT LIKE '%localDays%'
                FROM settings WHERE key = 'analytics'
                """), [[.integer(1)]])
        }
        let next = try importJSON(export, out, zone: nil)
        XCTAssertEqual(next["mode"] as? String, "full")
        XCTAssertTrue((next["notes"] as? [String] ?? []).contains {
            $0.contains("local days changed (zone → where-recorded)") && $0.contains("rebuilt every day")
        }, "\(next)")
        XCTAssertEqual(try days(out)["2024-02-05"]?.first, "3010", "Tokyo days")
        // And the run after it stays there: a later export with nothing new rebuilds nothing.
        let later = try Self.eastward().export(at: "2024-02-15 12:00", to: "later.xml", in: dir)
        XCTAssertEqual(try importJSON(later, out, zone: nil)["mode"] as? String, "nothing-new")
    }

    /// Berlin (home) → New York, 4–15 March 2024, across New York's change to daylight saving
    /// time (10 March, 02:00 → 03:00): the night waking on 10 March lasts 7 hours, not 8.
    func testAWestwardTripAcrossADaylightSavingChangeCountsNewYorkDays() throws {
        let dir = try temporaryFolder(self)
        var trip = Trip(printedIn: "Europe/Berlin")
        for d in 1...3 { trip.night(wake: "2024-03-0\(d)", in: "Europe/Berlin") }
        for d in 6...14 {
            let day = String(format: "2024-03-%02d", d)
            trip.night(wake: day, in: "America/New_York")
            if (7...13).contains(d) {
                trip.activity(day + " 09:00", in: "America/New_York", steps: 500 + d, km: "2", kJ: "836.8")
                trip.activity(day + " 21:00", in: "America/New_York", steps: 700 + d, km: "0.25", kJ: "0")
            }
        }
        for d in 17...20 { trip.night(wake: "2024-03-\(d)", in: "Europe/Berlin") }
        let export = try trip.export(at: "2024-03-20 18:00", to: "ny.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        _ = try importJSON(export, out, zone: nil)
        let local = try days(out)
        // Hand count, New York day D (7–13): (500 + D) + (700 + D) steps, 2.25 km, 200 kcal; the
        // night waking on D: 480 minutes, 420 on 10 March (23:00 EST to 07:00 EDT).
        for d in 7...13 {
            XCTAssertEqual(local[String(format: "2024-03-%02d", d)], ["\(1200 + 2 * d)", "2250", "200", d == 10 ? "420" : "480",
                                                                   "America/New_York", d == 13 ? "1" : "0"], "New York day \(d)")
        }
        // In Berlin's time the 21:00 of D is 03:00 (02:00 from 10 March) on D + 1.
        let berlin = dir.appendingPathComponent("berlin").path
        _ = try importJSON(export, berlin, zone: "Europe/Berlin")
        XCTAssertEqual(try days(berlin)["2024-03-07"]?.first, "507")
        XCTAssertEqual(try days(berlin)["2024-03-10"]?.first, "1219")
    }

    /// A trip whose only evidence is the workouts' `HKTimeZone`: Berlin runs 1–3 and 16–18
    /// April, Tokyo runs 8–12 April at 06:00 (23:00 the evening before in Berlin).
    func testATripEvidencedOnlyByWorkoutsMovesItsDays() throws {
        let dir = try temporaryFolder(self)
        var trip = Trip(printedIn: "Europe/Berlin")
        for d in 1...3 { trip.run("2024-04-0\(d) 18:00", in: "Europe/Berlin") }
        for d in 8...12 {
            let day = String(format: "2024-04-%02d", d)
            trip.run(day + " 06:00", in: "Asia/Tokyo")
            trip.night(wake: day, in: "Asia/Tokyo", evidence: false)
            if (9...11).contains(d) {
                trip.activity(day + " 06:30", in: "Asia/Tokyo", steps: 4000 + d, km: "3", kJ: "1255.2")
                trip.activity(day + " 22:00", in: "Asia/Tokyo", steps: 100 + d, km: "0", kJ: "0")
            }
        }
        for d in 16...18 { trip.run("2024-04-\(d) 18:00", in: "Europe/Berlin") }
        let export = try trip.export(at: "2024-04-18 20:00", to: "runs.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let semicolon = try write(#"{"csvDialect": "excel-semicolon"}"#, to: "p.json", in: dir)
        let summary = try importJSON(export, out, ["--pipeline", semicolon], zone: nil)
        XCTAssertEqual(summary["time_zone"] as? String, "Europe/Berlin")
        // The semicolon CSV's local date-times are each run's own: 06:00 in Tokyo, 18:00 in Berlin.
        let workouts = try String(contentsOfFile: out + "/csv/workouts.csv", encoding: .utf8)
        XCTAssertTrue(workouts.contains("2024-04-08 06:00:00") && workouts.contains("2024-04-01 18:00:00"), workouts)
        let local = try days(out)
        // Hand count, Tokyo day D (9–11): (4000 + D) + (100 + D) steps, 3 km, 300 kcal; the night
        // (no evidence of its own) waking on D at 07:00 Tokyo time: 480 minutes.
        for d in 9...11 {
            XCTAssertEqual(local[String(format: "2024-04-%02d", d)], ["\(4100 + 2 * d)", "3000", "300", "480", "Asia/Tokyo", "0"],
                           "Tokyo day \(d)")
        }
        // The workbook's Workouts sheet shows each run at its own wall clock (read by openpyxl).
        let script = """
            import sys, openpyxl
            ws = openpyxl.load_workbook(sys.argv[1])["Workouts"]
            rows = list(ws.iter_rows(values_only=True))
            i = rows[0].index("Start (local)")
            print("\\n".join(f"{r[i]:%Y-%m-%d %H:%M}" for r in rows[1:]))
            """
        let read = try runProcess(try TestTools.python(importing: ["openpyxl"]), ["-c", script, out + "/health.xlsx"])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdout.split(separator: "\n").map(String.init),
                       ["2024-04-01 18:00", "2024-04-02 18:00", "2024-04-03 18:00"] + (8...12).map { "2024-04-\(String(format: "%02d", $0)) 06:00" }
                        + ["2024-04-16 18:00", "2024-04-17 18:00", "2024-04-18 18:00"])
        // Each Tokyo run is dated on its Tokyo day.
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT local_date FROM workouts ORDER BY start_utc"),
                       ["2024-04-01", "2024-04-02", "2024-04-03", "2024-04-08", "2024-04-09", "2024-04-10", "2024-04-11",
                        "2024-04-12", "2024-04-16", "2024-04-17", "2024-04-18"])
    }

    /// A person who never travels: without a zone, every figure is what the zone gives; and the sample.
    func testAPersonWhoNeverTravelsGetsTheSameDaysWithAndWithoutAZone() throws {
        let dir = try temporaryFolder(self)
        var trip = Trip(printedIn: "Europe/Berlin")
        for d in 1...9 {
            let day = "2024-05-0\(d)"
            trip.night(wake: day, in: "Europe/Berlin")
            trip.activity(day + " 23:55", in: "Europe/Berlin", steps: 1000 + d, km: "1", kJ: "418.4")
            trip.activity(day + " 00:05", in: "Europe/Berlin", steps: 10 + d, km: "1", kJ: "418.4")
        }
        let export = try trip.export(at: "2024-05-09 23:59", to: "home.xml", in: dir)
        let without = dir.appendingPathComponent("without").path, with = dir.appendingPathComponent("with").path
        let summary = try importJSON(export, without, zone: nil)
        XCTAssertNil(summary["zone_timeline"] as? String)
        _ = try importJSON(export, with, zone: "Europe/Berlin")
        XCTAssertEqual(try analyticsSnapshot(without + "/health.sqlite"), try analyticsSnapshot(with + "/health.sqlite"))
        XCTAssertEqual(try days(without)["2024-05-05"]?.first, "1020")

        // The bundled sample (its HKTimeZone evidence is all Europe/Berlin): the same, as `make import` reads it.
        let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
        let sampleWithout = dir.appendingPathComponent("sample-without").path, sampleWith = dir.appendingPathComponent("sample-with").path
        XCTAssertEqual(try importJSON(sample, sampleWithout, zone: nil)["time_zone"] as? String, "Europe/Berlin")
        _ = try importJSON(sample, sampleWith, zone: "Europe/Berlin")
        XCTAssertEqual(try analyticsSnapshot(sampleWithout + "/health.sqlite"), try analyticsSnapshot(sampleWith + "/health.sqlite"))
    }
}
