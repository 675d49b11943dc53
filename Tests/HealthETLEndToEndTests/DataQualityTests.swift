import Foundation
import XCTest
import HealthStore
@testable import SQLite
import TestSupport

/// Issue 32 (docs/data-quality.md): the reconciliation equals sums computed from the export
/// itself; Σ all_sources_sum of steps is the store's step samples; valid_day follows the rule
/// and its setting; the zone recorded; the source inventory; an incremental run equals a
/// full one byte for byte.
final class DataQualityTests: XCTestCase {
    private static let scripts = TestPaths.scripts + "/"

    /// A generated month (iPhone + Watch overlap, Garmin steps on the watchless days, manual
    /// entries, exact copies of every 7th record) exported mid-morning: every source's daily
    /// total, every all_sources_sum and every duplicates_dropped equals the figure recomputed
    /// from the XML by `check_reconciliation.py`.
    func testReconciliationEqualsTheExportsOwnSums() throws {
        let dir = try temporaryFolder(self)
        let full = dir.appendingPathComponent("full.xml").path, morning = dir.appendingPathComponent("morning.xml").path
        try generateExport(["--out", full, "--days", "30", "--start", "2024-10-07", "--seed", "32"])
        let cut = try runProcess(try TestTools.python(), [Self.scripts + "reshape_export.py", full, morning,
                                                  "--cut", "2024-11-05 09:30:00 +0100", "--copies", "7"])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        let out = dir.appendingPathComponent("out").path
        try importJSON(morning, out)
        let store = out + "/health.sqlite"

        let check = try runProcess(try TestTools.python(), [Self.scripts + "check_reconciliation.py", morning, store, "Europe/Berlin"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)

        // Every copy the run dropped is in duplicate_copies; those of the six summed types are
        // the reconciliation's duplicates_dropped, every day known.
        let copies = try queryRows(store, """
            SELECT (SELECT duplicates FROM runs), (SELECT sum(copies) FROM duplicate_copies),
                   (SELECT sum(copies) FROM duplicate_copies d JOIN types t ON t.id = d.type_id
                    WHERE t.identifier IN ('HKQuantityTypeIdentifierStepCount', 'HKQuantityTypeIdentifierDistanceWalkingRunning',
                      'HKQuantityTypeIdentifierActiveEnergyBurned', 'HKQuantityTypeIdentifierFlightsClimbed',
                      'HKQuantityTypeIdentifierAppleExerciseTime', 'HKQuantityTypeIdentifierAppleStandTime')),
                   (SELECT sum(duplicates_dropped) FROM reconciliation),
                   (SELECT count(*) FROM reconciliation WHERE duplicates_dropped IS NULL AND metric != 'workouts')
            """)[0].map { $0.int ?? -1 }
        XCTAssertGreaterThan(copies[0], 1000)
        XCTAssertEqual(copies[1], copies[0])
        XCTAssertEqual(copies[3], copies[2])
        XCTAssertGreaterThan(copies[2], 100)
        XCTAssertEqual(copies[4], 0)

        // The workbook's Data quality sheet: every day's row, valid_day and the steps' sums as stored.
        let sheet = try runProcess(try TestTools.python(importing: ["openpyxl"]), ["-c", """
            import sys, sqlite3, openpyxl
            ws = openpyxl.load_workbook(sys.argv[1] + "/health.xlsx")["Data quality"]
            rows = list(ws.iter_rows(min_row=2, values_only=True))
            stored = sqlite3.connect(sys.argv[1] + "/health.sqlite").execute(
                "SELECT q.date, q.watch_hours, q.valid_day, s.all_sources_sum FROM data_quality q "
                "LEFT JOIN reconciliation s ON s.date = q.date AND s.metric = 'steps' ORDER BY q.date").fetchall()
            assert len(rows) == len(stored) > 20, (len(rows), len(stored))
            for r, (date, hours, valid, steps) in zip(rows, stored):
                assert (r[0].date().isoformat(), r[1], r[4], r[9]) == (date, hours, valid, steps), (r, date, hours, valid, steps)
            """, out])
        XCTAssertEqual(sheet.status, 0, sheet.stderr)

        // Σ all_sources_sum of steps = the store's step samples (plain SQL on the samples view).
        let sums = try queryRows(store, """
            SELECT (SELECT sum(all_sources_sum) FROM reconciliation WHERE metric = 'steps'),
                   (SELECT sum(value) FROM samples WHERE type = 'HKQuantityTypeIdentifierStepCount')
            """)[0]
        XCTAssertEqual(try XCTUnwrap(sums[0].double), try XCTUnwrap(sums[1].double), accuracy: 1e-6)
        XCTAssertGreaterThan(sums[0].double ?? 0, 100_000)

        // merged is daily_analytics, overlap_removed the difference, rings the activity summary.
        let mismatched = try query(store, """
            SELECT r.date || ' ' || r.metric FROM reconciliation r JOIN daily_analytics d ON d.date = r.date
            LEFT JOIN activity_summaries a ON a.date = r.date
            WHERE r.metric != 'workouts' AND (r.merged IS NOT CASE r.metric WHEN 'steps' THEN d.steps WHEN 'stairs_climbed' THEN d.stairs_climbed
                     WHEN 'active_energy_kcal' THEN d.active_energy_kcal WHEN 'exercise_minutes' THEN d.exercise_minutes
                     WHEN 'stand_minutes' THEN d.stand_minutes
                     ELSE ifnull(d.walking_distance_m, 0) + ifnull(d.running_distance_m, 0) END
               OR abs(r.overlap_removed - (r.all_sources_sum - r.merged)) > 1e-6
               OR r.rings IS NOT CASE r.metric WHEN 'active_energy_kcal' THEN a.active_energy_kcal
                     WHEN 'exercise_minutes' THEN a.exercise_min END
               OR (r.rings IS NOT NULL AND r.rings_disagree IS NOT
                   (abs(r.merged - r.rings) > max(0.05 * r.rings, CASE r.metric WHEN 'exercise_minutes' THEN 2 ELSE 10 END))))
            """)
        XCTAssertEqual(mismatched, [])

        // The scenarios are there: the Watch and the iPhone overlap (the merge removed steps), a
        // third-party step source, days without the Watch (not valid), the morning's partial day.
        XCTAssertFalse(try query(store, "SELECT date FROM reconciliation WHERE metric = 'steps' AND overlap_removed > 100").isEmpty)
        XCTAssertEqual(try query(store, """
            SELECT DISTINCT source_name FROM reconciliation_sources WHERE metric = 'steps'
              AND source_name NOT LIKE '%iPhone%' AND source_name NOT LIKE '%Watch%'
            """).sorted(), ["Garmin Connect", "Health"])
        let watchless = try query(store, "SELECT date FROM data_quality WHERE watch_hours < 10 AND partial_day = 0")
        XCTAssertFalse(watchless.isEmpty)
        XCTAssertEqual(try query(store, "SELECT count(*) FROM data_quality WHERE valid_day != (watch_hours >= 10)"), ["0"])
        XCTAssertEqual(try query(store, "SELECT date FROM data_quality WHERE partial_day = 1 ORDER BY date").last, "2024-11-05")
        XCTAssertEqual(try query(store, "SELECT DISTINCT time_zone FROM data_quality WHERE time_zone IS NOT NULL"), ["Europe/Berlin"])
        // The offset of the recorded zone on each day: summer time until 27 October, then winter.
        XCTAssertEqual(try query(store, """
            SELECT DISTINCT (date < '2024-10-27') || utc_offset FROM data_quality WHERE time_zone IS NOT NULL ORDER BY 1
            """), ["0+01:00", "1+02:00"])

        // The inventory: one row per source (name and device model) and type, whatever the
        // versions; the Watch ranks before the iPhone, the third party after both.
        let ranks = try queryRows(store, "SELECT DISTINCT source_name, priority FROM source_inventory ORDER BY priority")
            .map { "\($0[0].string ?? "")=\($0[1].int ?? -1)" }
        let watch = try XCTUnwrap(ranks.firstIndex { $0.contains("Watch") }), phone = try XCTUnwrap(ranks.firstIndex { $0.contains("iPhone") })
        let garmin = try XCTUnwrap(ranks.firstIndex { $0.hasPrefix("Garmin") })
        XCTAssertLessThan(watch, phone, ranks.joined(separator: ", "))
        XCTAssertLessThan(phone, garmin, ranks.joined(separator: ", "))
        XCTAssertEqual(try query(store, """
            SELECT count(*) FROM (SELECT source_name, ifnull(device_model, ''), type FROM source_inventory GROUP BY 1, 2, 3 HAVING count(*) > 1)
            """), ["0"])
        XCTAssertEqual(try query(store, """
            SELECT (SELECT sum(records) FROM source_inventory) = (SELECT count(*) FROM sample_data)
            """), ["1"])
    }

    /// valid_day on a fixture: heart rate in 10 distinct local hours on one day, 9 on the next;
    /// the default rule (10 h) takes the first only, `validDayMinWatchHours: 9` both. Phone
    /// hours count the hours with iPhone steps; the zone is the records' HKTimeZone.
    func testValidDayFollowsTheWornHoursRule() throws {
        let dir = try temporaryFolder(self)
        func heartRate(_ day: String, _ hour: Int, minute: Int = 10) -> String {
            let t = "\(day) \(String(format: "%02d:%02d", hour, minute)):00 +0100"
            return #"<Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Ann’s Apple Watch" sourceVersion="10.0" device="&lt;&lt;HKDevice: 0x283fb5e00&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.0&gt;" unit="count/min" creationDate="\#(t)" startDate="\#(t)" endDate="\#(t)" value="70"/>"#
        }
        func phoneSteps(_ day: String, _ hour: Int, address: String) -> String {
            let s = "\(day) \(String(format: "%02d", hour)):00:00 +0100", e = "\(day) \(String(format: "%02d", hour)):05:00 +0100"
            return #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ann’s iPhone" sourceVersion="17.\#(hour)" device="&lt;&lt;HKDevice: \#(address)&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.0&gt;" unit="count" creationDate="\#(e)" startDate="\#(s)" endDate="\#(e)" value="100"/>"#
        }
        let sleep = #"<Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Ann’s Apple Watch" sourceVersion="10.0" creationDate="2024-01-16 07:00:00 +0100" startDate="2024-01-16 05:00:00 +0100" endDate="2024-01-16 06:00:00 +0100" value="HKCategoryValueSleepAnalysisAsleepCore"><MetadataEntry key="HKTimeZone" value="Asia/Tokyo"/></Record>"#
        // Day 1: hours 0…9 (two samples in hour 3 count once); day 2: hours 8…16.
        var records = (0..<10).map { heartRate("2024-01-15", $0) } + [heartRate("2024-01-15", 3, minute: 40)]
        records += (8..<17).map { heartRate("2024-01-16", $0) }
        // Two phone hours on day 1 from one phone under two memory addresses and versions.
        records += [phoneSteps("2024-01-15", 8, address: "0x283fb5e00"), phoneSteps("2024-01-15", 12, address: "0x1abc")]
        records.append(sleep)
        let export = try write(ExportXML.document(records, exportDate: "2024-01-20 09:00:00 +0100"), to: "export.xml", in: dir)

        let out = dir.appendingPathComponent("out").path
        try importJSON(export, out)
        let rows = try query(out + "/health.sqlite", """
            SELECT date || ' ' || watch_hours || ' ' || phone_hours || ' ' || valid_day || ' ' || ifnull(time_zone, '-')
                   || ' ' || ifnull(utc_offset, '-') FROM data_quality ORDER BY date
            """)
        XCTAssertEqual(rows, ["2024-01-15 10 2 1 - -", "2024-01-16 9 0 0 Asia/Tokyo +09:00"])
        // One phone is one source, whatever its addresses and versions.
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT source_name || '|' || device_model || '|' || records FROM source_inventory WHERE type LIKE '%StepCount'"),
                       ["Ann’s iPhone|iPhone|2"])
        let csv = try String(contentsOfFile: out + "/csv/data_quality.csv", encoding: .utf8)
        XCTAssertEqual(csv.split(whereSeparator: \.isNewline).first, "date,watch_hours,phone_hours,source_count,valid_day,partial_day,time_zone,utc_offset")

        // The setting, in a pipeline: 9 hours make both days valid, on the next run without new data.
        let pipeline = try write(#"{"validDayMinWatchHours": 9}"#, to: "nine.json", in: dir)
        try importJSON(export, out, ["--pipeline", pipeline])
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT valid_day FROM data_quality ORDER BY date"), ["1", "1"])
        let bad = try write(#"{"validDayMinWatchHours": 25}"#, to: "bad.json", in: dir)
        let refused = try healthetl(["import", export, "--out", out, "--pipeline", bad, "--timezone", "Europe/Berlin"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("validDayMinWatchHours"), refused.stderr)
    }

    /// A nightly run over the newer export (exact copies in both) leaves the same quality files
    /// as a full import of it, byte for byte, and rewrites only the days it touched.
    func testIncrementalQualityEqualsAFullImport() throws {
        let dir = try temporaryFolder(self)
        let generated = dir.appendingPathComponent("generated.xml").path, full = dir.appendingPathComponent("full.xml").path
        try generateExport(["--out", generated, "--days", "24", "--start", "2024-10-10", "--seed", "21"])
        let copied = try runProcess(try TestTools.python(), [Self.scripts + "reshape_export.py", generated, full, "--copies", "5"])
        XCTAssertEqual(copied.status, 0, copied.stderr)
        let (older, newer) = try splitExport(full, at: "2024-11-02 00:00:00 +0100", in: dir)
        let nightly = dir.appendingPathComponent("nightly").path, fresh = dir.appendingPathComponent("fresh").path
        try importJSON(older, nightly)
        let second = try importJSON(newer, nightly)
        XCTAssertEqual(second["mode"] as? String, "incremental")
        try importJSON(newer, fresh, ["--full"])
        for table in ["reconciliation", "reconciliation_sources", "data_quality", "sources"] {
            for file in ["csv/\(table).csv", "parquet/\(table).parquet"] {
                let a = try Data(contentsOf: URL(fileURLWithPath: nightly + "/" + file))
                let b = try Data(contentsOf: URL(fileURLWithPath: fresh + "/" + file))
                XCTAssertEqual(a, b, file)
                XCTAssertGreaterThan(a.count, 100, file)
            }
        }
        XCTAssertEqual(try query(fresh + "/health.sqlite", "SELECT sum(duplicates_dropped) > 100 FROM reconciliation"), ["1"])
    }

    /// A store of version 5 (no quality tables) is upgraded in place by the next import, which
    /// fills every day's quality rows even with nothing new to import; the exact copies its
    /// loads dropped were never counted per day, so `duplicates_dropped` is unknown (NULL).
    func testAVersion5StoreGetsItsQualityTables() throws {
        let dir = try temporaryFolder(self)
        let export = dir.appendingPathComponent("e.xml").path
        try generateExport(["--out", export, "--days", "6", "--start", "2024-10-10", "--seed", "7"])
        let out = dir.appendingPathComponent("out").path, fresh = dir.appendingPathComponent("fresh").path
        try importJSON(export, out)
        try importJSON(export, fresh)
        do {
            let db = try Database(path: out + "/health.sqlite", mode: .readWrite)
            try db.execute("""
                DROP TABLE reconciliation; DROP TABLE reconciliation_sources; DROP TABLE data_quality;
                DROP TABLE source_inventory; DROP TABLE duplicate_copies; PRAGMA user_version = 5;
                """)
        }
        let again = try importJSON(export, out)
        XCTAssertEqual(again["new_samples"] as? Int, 0)
        XCTAssertEqual(try query(out + "/health.sqlite", "PRAGMA user_version"), [String(StoreSchema.version)])
        // The samples' metrics: the `workouts` metric (a workout stored twice, issue 44) is written
        // by the vitals step with the workouts, which this store computed before; it has no count
        // of exact copies (NULL).
        let samples = "metric != 'workouts'"
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM reconciliation WHERE duplicates_dropped IS NOT NULL"), ["0"])
        XCTAssertEqual(try query(fresh + "/health.sqlite", "SELECT count(*) FROM reconciliation WHERE duplicates_dropped IS NULL AND \(samples)"), ["0"])
        let reconciliation = "date, metric, merged, all_sources_sum, overlap_removed, source_count, rings, rings_difference, rings_disagree"
        for table in ["reconciliation", "reconciliation_sources", "data_quality", "source_inventory"] {
            let filter = table.hasPrefix("reconciliation") ? " WHERE \(samples)" : ""
            let sql = "SELECT \(table == "reconciliation" ? reconciliation : "*") FROM \(table)\(filter) ORDER BY 1, 2, 3"
            XCTAssertEqual(try queryRows(out + "/health.sqlite", sql).map { "\($0)" },
                           try queryRows(fresh + "/health.sqlite", sql).map { "\($0)" }, table)
        }
    }
}
