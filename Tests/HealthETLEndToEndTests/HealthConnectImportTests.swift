import Foundation
import XCTest
import TestSupport

/// Issue 58: a Health Connect export through the same pipeline. The exports are generated from
/// Android's own schema (`tools/health_connect/schema.sql`, AOSP at a named commit), and every
/// day's figure is checked against a count by hand and against `aggregate.py`, an independent
/// re-implementation of Health Connect's own aggregation.
final class HealthConnectImportTests: XCTestCase {
    static let (phone, watch, strava) = ("com.google.android.apps.fitness", "com.sec.android.app.shealth", "com.strava")

    /// Two apps' overlapping steps, distance and energy (across midnight), an app missing from
    /// the priority list, a tie broken by modification time, a sleep session with stages, an
    /// exercise session with a pause and a route, and a trip to Tokyo.
    static func person() -> HealthConnectScenario {
        var s = HealthConnectScenario()
        s.apps = [(phone, "Fit"), (watch, "Samsung Health"), (strava, "Strava")]
        s.devices = [["manufacturer": "Google", "model": "Pixel 8", "type": 2], ["manufacturer": "Samsung", "model": "Galaxy Watch6", "type": 1]]
        s.priority = ["ACTIVITY": [watch, phone], "SLEEP": [watch]]
        s.add("steps_record_table", app: watch, ["device": 1, "start": "2025-03-01T23:30:00+01:00", "end": "2025-03-02T00:30:00+01:00", "count": 600])
        s.add("steps_record_table", app: phone, ["device": 0, "start": "2025-03-01T23:00:00+01:00", "end": "2025-03-02T01:00:00+01:00", "count": 1000])
        s.add("steps_record_table", app: strava, ["start": "2025-03-02T10:00:00+01:00", "end": "2025-03-02T11:00:00+01:00", "count": 3000])
        // One app's two records over the same half hour: the one modified last counts there.
        s.add("steps_record_table", app: phone, ["device": 0, "start": "2025-03-02T12:00:00+01:00", "end": "2025-03-02T13:00:00+01:00",
                                                 "count": 500, "last_modified": "2025-03-02T13:05:00+01:00"])
        s.add("steps_record_table", app: phone, ["device": 0, "start": "2025-03-02T12:00:00+01:00", "end": "2025-03-02T12:30:00+01:00",
                                                 "count": 400, "last_modified": "2025-03-02T14:00:00+01:00"])
        s.add("distance_record_table", app: watch, ["device": 1, "start": "2025-03-01T23:30:00+01:00", "end": "2025-03-02T00:30:00+01:00", "distance": 1000.0])
        s.add("distance_record_table", app: phone, ["device": 0, "start": "2025-03-01T23:00:00+01:00", "end": "2025-03-02T01:00:00+01:00", "distance": 2000.0])
        s.add("active_calories_burned_record_table", app: watch, ["device": 1, "start": "2025-03-02T08:00:00+01:00", "end": "2025-03-02T09:00:00+01:00", "energy": 300_000.0])
        s.add("active_calories_burned_record_table", app: phone, ["device": 0, "start": "2025-03-02T08:00:00+01:00", "end": "2025-03-02T10:00:00+01:00", "energy": 400_000.0])
        s.add("sleep_session_record_table", app: watch, [
            "device": 1, "start": "2025-03-01T23:00:00+01:00", "end": "2025-03-02T07:00:00+01:00",
            "children": ["sleep_stages_table": [
                ["start": "2025-03-01T23:00:00+01:00", "end": "2025-03-01T23:20:00+01:00", "stage_type": 1],
                ["start": "2025-03-01T23:20:00+01:00", "end": "2025-03-02T02:00:00+01:00", "stage_type": 4],
                ["start": "2025-03-02T02:00:00+01:00", "end": "2025-03-02T03:30:00+01:00", "stage_type": 5],
                ["start": "2025-03-02T03:30:00+01:00", "end": "2025-03-02T04:00:00+01:00", "stage_type": 7],
                ["start": "2025-03-02T04:00:00+01:00", "end": "2025-03-02T06:00:00+01:00", "stage_type": 4],
                ["start": "2025-03-02T06:00:00+01:00", "end": "2025-03-02T06:45:00+01:00", "stage_type": 6],
            ]],
        ])
        s.add("exercise_session_record_table", app: watch, [
            "device": 1, "start": "2025-03-02T17:00:00+01:00", "end": "2025-03-02T18:00:00+01:00", "exercise_type": 33, "has_route": 1,
            "children": [
                "exercise_segments_table": [["start": "2025-03-02T17:20:00+01:00", "end": "2025-03-02T17:30:00+01:00",
                                             "segment_type": 67, "repetitions_count": 0]],
                "exercise_laps_table": [["start": "2025-03-02T17:00:00+01:00", "end": "2025-03-02T17:20:00+01:00", "lap_length": 3000.0]],
                "exercise_route_table": (0..<3).map { i in
                    ["time": "2025-03-02T17:0\(i):00+01:00", "latitude": 52.52 + Double(i) * 0.001, "longitude": 13.40,
                     "altitude": 34.0, "horizontal_accuracy": 5.0, "vertical_accuracy": 3.0]
                },
            ],
        ])
        // Tokyo: a night and a morning walk at +09:00, then home again.
        s.add("sleep_session_record_table", app: watch, ["device": 1, "start": "2025-03-09T23:00:00+09:00", "end": "2025-03-10T06:00:00+09:00"])
        s.add("steps_record_table", app: watch, ["device": 1, "start": "2025-03-10T07:00:00+09:00", "end": "2025-03-10T08:00:00+09:00", "count": 1200])
        s.add("sleep_session_record_table", app: watch, ["device": 1, "start": "2025-03-11T23:00:00+01:00", "end": "2025-03-12T07:00:00+01:00"])
        s.add("steps_record_table", app: watch, ["device": 1, "start": "2025-03-12T12:00:00+01:00", "end": "2025-03-12T13:00:00+01:00", "count": 300])
        return s
    }

    private func importPerson(_ dir: URL) throws -> (zip: String, out: String, summary: [String: Any]) {
        let zip = dir.appendingPathComponent("health_connect_export.zip").path
        try Self.person().write(to: zip)
        let out = dir.appendingPathComponent("out").path
        let result = try runProcess(TestPaths.binary, ["import", zip, "--out", out, "--quiet", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        return (zip, out, summary)
    }

    private func day(_ out: String, _ date: String, _ column: String) throws -> Double? {
        try queryRows(out + "/health.sqlite", "SELECT \(column) FROM daily_analytics WHERE date = '\(date)'").first?.first?.double
    }

    func testDailyTotalsAreHealthConnectsOwn() throws {
        let dir = try temporaryFolder(self)
        let (zip, out, summary) = try importPerson(dir)
        XCTAssertEqual(summary["platform"] as? String, "health-connect")
        XCTAssertEqual(summary["input_kind"] as? String, "zip")
        // By hand. Steps on 1 March: the phone alone 23:00–23:30 (250), the watch 23:30–24:00
        // (300); on 2 March the watch to 00:30 (300), the phone 00:30–01:00 (250), the phone's
        // tie 12:00–12:30 from its later record (400) and 12:30–13:00 from the other (250);
        // Strava is not in the list and counts nowhere.
        XCTAssertEqual(try day(out, "2025-03-01", "steps"), 550)
        XCTAssertEqual(try day(out, "2025-03-02", "steps"), 1200)
        XCTAssertEqual(try day(out, "2025-03-01", "walking_distance_m") ?? 0, 1000, accuracy: 1e-9)
        XCTAssertEqual(try day(out, "2025-03-02", "walking_distance_m") ?? 0, 1000, accuracy: 1e-9)
        XCTAssertEqual(try day(out, "2025-03-02", "active_energy_kcal"), 500)   // the watch 300, the phone's last hour 200
        XCTAssertEqual(try day(out, "2025-03-02", "exercise_minutes"), 50)      // an hour's run less its 10-minute pause
        // The night: 480 minutes in bed, 430 asleep (light 160 + deep 90 + light 120 + REM 45,
        // and the 15 minutes no stage covers; the awake 20 and the awake-in-bed 30 left out).
        XCTAssertEqual(try day(out, "2025-03-02", "sleep_total_minutes"), 430)
        XCTAssertEqual(try day(out, "2025-03-02", "sleep_in_bed_minutes"), 480)
        // Tokyo: the walk is on Tokyo's 10 March, which is marked as a travel day.
        XCTAssertEqual(try day(out, "2025-03-10", "steps"), 1200)
        XCTAssertNil(try day(out, "2025-03-09", "steps"))
        XCTAssertEqual(try day(out, "2025-03-10", "travel_day"), 1)
        XCTAssertEqual(try day(out, "2025-03-12", "travel_day"), 0)
        // The source inventory shows the apps in Health Connect's order; Strava has no place.
        XCTAssertEqual(try query(out + "/health.sqlite", """
            SELECT DISTINCT source_name || ' ' || ifnull(priority, '-') FROM reconciliation_sources
            WHERE metric = 'steps' ORDER BY source_name
            """), ["Fit 2", "Samsung Health 1", "Strava -"])
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT activity_type FROM workouts"), ["HKWorkoutActivityTypeRunning"])
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM workout_route_points"), ["3"])

        // And Health Connect's own rule, re-implemented independently, gives the same days.
        let unzipped = dir.appendingPathComponent("db").path
        _ = try runProcess("/usr/bin/unzip", ["-q", "-o", zip, "-d", unzipped])
        let oracle = try HealthConnectScenario.dailyTotals(of: unzipped + "/health_connect_export.db")
        XCTAssertFalse(oracle.isEmpty)
        // Health Connect splits the night at midnight (40 minutes on the 1st, the rest on the 2nd);
        // the store dates the whole night by its wake-up day: the same minutes asleep.
        let split = ["2025-03-01", "2025-03-02"].compactMap { oracle[$0]?["sleep_minutes"] as? Double }
        XCTAssertEqual(split.count, 2)
        XCTAssertEqual(split.reduce(0, +), try day(out, "2025-03-02", "sleep_total_minutes") ?? 0, accuracy: 1e-9)
        for (date, totals) in oracle {
            // A whole number, truncated as Health Connect truncates it.
            if let steps = totals["steps"] as? Double {
                XCTAssertEqual(try day(out, date, "steps") ?? 0, steps, "steps on \(date)")
            }
            for (key, column) in [("distance_m", "walking_distance_m"), ("active_kcal", "active_energy_kcal"),
                                  ("exercise_minutes", "exercise_minutes")] {
                guard let expected = totals[key] as? Double else { continue }
                XCTAssertEqual(try day(out, date, column) ?? 0, expected, accuracy: 1e-6, "\(key) on \(date)")
            }
        }
    }

    /// One record of every table that has a home in the store, each converted from the unit
    /// Health Connect stores to the store's (docs/HEALTH_CONNECT.md, the mapping table).
    func testEveryTableBecomesItsType() throws {
        let app = "com.example.tracker"
        var s = HealthConnectScenario()
        s.apps = [(app, "Tracker")]
        let i: [String: Any] = ["start": "2025-03-02T10:00:00+01:00", "end": "2025-03-02T10:30:00+01:00"]
        let t: [String: Any] = ["time": "2025-03-02T10:00:00+01:00"]
        func add(_ table: String, _ at: [String: Any], _ fields: [String: Any]) { s.add(table, app: app, at.merging(fields) { a, _ in a }) }
        // (table, when, stored values, type, value in the store, unit in the store)
        let rows: [(String, [String: Any], [String: Any], String, Double, String)] = [
            ("steps_record_table", i, ["count": 100], "HKQuantityTypeIdentifierStepCount", 100, "count"),
            ("distance_record_table", i, ["distance": 1500.0], "HKQuantityTypeIdentifierDistanceWalkingRunning", 1500, "m"),
            ("active_calories_burned_record_table", i, ["energy": 250_000.0], "HKQuantityTypeIdentifierActiveEnergyBurned", 250, "kcal"),
            ("total_calories_burned_record_table", i, ["energy": 2_000_000.0], "HKQuantityTypeIdentifierTotalEnergyBurned", 2000, "kcal"),
            ("floors_climbed_record_table", i, ["floors": 3.0], "HKQuantityTypeIdentifierFlightsClimbed", 3, "count"),
            ("elevation_gained_record_table", i, ["elevation": 12.5], "HKQuantityTypeIdentifierElevationGained", 12.5, "m"),
            ("wheelchair_pushes_record_table", i, ["count": 40], "HKQuantityTypeIdentifierPushCount", 40, "count"),
            ("resting_heart_rate_record_table", t, ["beats_per_minute": 55], "HKQuantityTypeIdentifierRestingHeartRate", 55, "count/min"),
            ("heart_rate_variability_rmssd_record_table", t, ["heart_rate_variability_millis": 42.0],
             "HKQuantityTypeIdentifierHeartRateVariabilityRMSSD", 42, "ms"),
            ("oxygen_saturation_record_table", t, ["percentage": 97.0], "HKQuantityTypeIdentifierOxygenSaturation", 0.97, "%"),
            ("respiratory_rate_record_table", t, ["rate": 14.0], "HKQuantityTypeIdentifierRespiratoryRate", 14, "count/min"),
            ("body_temperature_record_table", t, ["temperature": 36.8, "measurement_location": 4],
             "HKQuantityTypeIdentifierBodyTemperature", 36.8, "degC"),
            ("basal_body_temperature_record_table", t, ["temperature": 36.4, "measurement_location": 4],
             "HKQuantityTypeIdentifierBasalBodyTemperature", 36.4, "degC"),
            ("blood_glucose_record_table", t, ["level": 5.5, "specimen_source": "2", "relation_to_meal": "2", "meal_type": "1"],
             "HKQuantityTypeIdentifierBloodGlucose", 5.5 * 180.15588000005408 / 10, "mg/dL"),
            ("vo2_max_record_table", t, ["vo2_milliliters_per_minute_kilogram": 45.0, "measurement_method": 2],
             "HKQuantityTypeIdentifierVO2Max", 45, "mL/min·kg"),
            ("weight_record_table", t, ["weight": 70_500.0], "HKQuantityTypeIdentifierBodyMass", 70.5, "kg"),
            ("height_record_table", t, ["height": 1.8], "HKQuantityTypeIdentifierHeight", 1.8, "m"),
            ("body_fat_record_table", t, ["percentage": 21.5], "HKQuantityTypeIdentifierBodyFatPercentage", 0.215, "%"),
            ("lean_body_mass_record_table", t, ["mass": 50_000.0], "HKQuantityTypeIdentifierLeanBodyMass", 50, "kg"),
            ("bone_mass_record_table", t, ["mass": 3_000.0], "HKQuantityTypeIdentifierBoneMass", 3, "kg"),
            ("body_water_mass_record_table", t, ["body_water_mass": 40_000.0], "HKQuantityTypeIdentifierBodyWaterMass", 40, "kg"),
            ("basal_metabolic_rate_record_table", t, ["basal_metabolic_rate": 80.0], "HKQuantityTypeIdentifierBasalMetabolicRate",
             80 * 86_400 / 4_184, "kcal/d"),
            ("hydration_record_table", i, ["volume": 0.5], "HKQuantityTypeIdentifierDietaryWater", 0.5, "L"),
        ]
        for row in rows { add(row.0, row.1, row.2) }
        add("blood_pressure_record_table", t, ["systolic": 120.0, "diastolic": 80.0, "measurement_location": "1", "body_position": "2"])
        add("nutrition_record_table", i, ["energy": 500_000.0, "protein": 30.0, "trans_fat": 1.0, "meal_type": 2])
        add("heart_rate_record_table", i, ["children": ["heart_rate_record_series_table": [
            ["time": "2025-03-02T10:00:00+01:00", "beats_per_minute": 61], ["time": "2025-03-02T10:10:00+01:00", "beats_per_minute": 72]]]])
        add("menstruation_flow_record_table", t, ["flow": 2])
        add("ovulation_test_record_table", t, ["result": 1])
        add("cervical_mucus_record_table", t, ["appearance": 5, "sensation": 1])
        add("intermenstrual_bleeding_record_table", t, [:])
        add("mindfulness_session_record_table", i, ["type": 1])
        add("sexual_activity_record_table", t, ["protection_used": 1])
        let dir = try temporaryFolder(self)
        let db = dir.appendingPathComponent("health_connect_export.db").path
        try s.write(to: db)
        let out = dir.appendingPathComponent("out").path
        let result = try runProcess(TestPaths.binary, ["import", db, "--out", out, "--quiet", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let store = out + "/health.sqlite"
        for (table, _, _, type, value, unit) in rows {
            let stored = try queryRows(store, "SELECT value, unit FROM samples WHERE type = '\(type)'")
            XCTAssertEqual(stored.count, 1, "\(table) → \(type)")
            XCTAssertEqual(stored.first?[0].double ?? .nan, value, accuracy: 1e-9 * max(1, abs(value)), "\(table) → \(type)")
            XCTAssertEqual(stored.first?[1].string, unit, "\(table) → \(type)")
        }
        func values(_ type: String) throws -> [String] {
            try query(store, "SELECT coalesce(category_value, value) FROM samples WHERE type = '\(type)' ORDER BY start_utc, value")
        }
        XCTAssertEqual(try values("HKQuantityTypeIdentifierBloodPressureSystolic"), ["120.0"])
        XCTAssertEqual(try values("HKQuantityTypeIdentifierBloodPressureDiastolic"), ["80.0"])
        XCTAssertEqual(try query(store, "SELECT count(*) FROM correlations WHERE type = 'HKCorrelationTypeIdentifierBloodPressure'"), ["1"])
        XCTAssertEqual(try values("HKQuantityTypeIdentifierDietaryEnergyConsumed"), ["500.0"])
        XCTAssertEqual(try values("HKQuantityTypeIdentifierHeartRate"), ["61.0", "72.0"])
        XCTAssertEqual(try values("HKCategoryTypeIdentifierMenstrualFlow"), ["HKCategoryValueMenstrualFlowMedium"])
        XCTAssertEqual(try values("HKCategoryTypeIdentifierOvulationTestResult"), ["HKCategoryValueOvulationTestResultLuteinizingHormoneSurge"])
        XCTAssertEqual(try values("HKCategoryTypeIdentifierCervicalMucusQuality"), ["HKCategoryValueCervicalMucusQualityEggWhite"])
        XCTAssertEqual(try values("HKCategoryTypeIdentifierIntermenstrualBleeding"), ["HKCategoryValueNotApplicable"])
        XCTAssertEqual(try values("HKCategoryTypeIdentifierMindfulSession"), ["HKCategoryValueNotApplicable"])
        XCTAssertEqual(try query(store, "SELECT metadata FROM samples WHERE type = 'HKCategoryTypeIdentifierSexualActivity'"),
                       [#"{"HKSexualActivityProtectionUsed":"1"}"#])
        // What has no home is counted and named, never dropped in silence.
        XCTAssertTrue(result.stdout.contains("nutrition_record_table.trans_fat: 1 values (no HealthKit type)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("blood_pressure_record_table.body_position: 1 values (not kept)"), result.stdout)
        XCTAssertFalse(result.stdout.contains("uuid"), "a row's identity is not a value left behind")
    }

    /// Another person's Health Connect export into the same folder is refused, and what decides
    /// is the records: an export holds all of them, so the same person's next export holds the
    /// first records of the last one; another person's holds none.
    func testAnotherPersonsExportIsRefused() throws {
        let dir = try temporaryFolder(self)
        let (_, out, _) = try importPerson(dir)
        let before = try publishedOutputs(out)
        let other = dir.appendingPathComponent("other.zip").path
        let result = try runProcess(try TestTools.python(), [HealthConnectScenario.generator, "--synthetic", "--days", "10", "--seed", "7", other])
        XCTAssertEqual(result.status, 0, result.stderr)
        try assertImportRefused(other, into: out, saying: ["is not the export of the person", "--person ID", "--full"],
                                within: 30, before: before)
        // The same person's later export (one more record) is added to the store.
        var later = Self.person()
        later.add("steps_record_table", app: Self.watch, ["device": 1, "start": "2025-03-13T12:00:00+01:00",
                                                          "end": "2025-03-13T13:00:00+01:00", "count": 700])
        let next = dir.appendingPathComponent("later.zip").path
        try later.write(to: next)
        XCTAssertEqual(try importJSON(next, out, zone: nil)["mode"] as? String, "incremental")
    }

    /// An Android person is a person like any other: status, people, HealthQL, the report, the
    /// workbook and FHIR (its devices named by their app, and Health Connect) all read the store.
    func testEveryOutputServesAnAndroidPerson() throws {
        let dir = try temporaryFolder(self)
        let zip = dir.appendingPathComponent("health_connect_export.zip").path
        try Self.person().write(to: zip)
        let out = dir.appendingPathComponent("family").path
        let pipeline = try write(#"{"outputs": ["sqlite", "csv", "parquet", "report", "xlsx", "fhir"]}"#, to: "p.json", in: dir)
        XCTAssertEqual(try importJSON(zip, out, ["--person", "ana", "--pipeline", pipeline], zone: nil)["platform"] as? String,
                       "health-connect")
        let person = out + "/people/ana"
        let status = try runProcess(TestPaths.binary, ["status", "--out", person])
        XCTAssertTrue(status.stdout.contains("(platform: health-connect, Android)"), status.stdout)
        let shown = try runProcess(TestPaths.binary, ["people", "show", "ana", "--out", out])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let steps = try runProcess(TestPaths.binary, ["query", "SELECT sum(value) FROM steps WHERE date = '2025-03-02'", "--out", person,
                                                      "--format", "csv"])
        XCTAssertEqual(steps.status, 0, steps.stderr)
        XCTAssertTrue(steps.stdout.contains("1200"), steps.stdout)
        let devices = try String(contentsOfFile: person + "/fhir/Device.ndjson", encoding: .utf8)
        XCTAssertTrue(devices.contains("Recorded by the app Samsung Health and exported by Android Health Connect"), devices)
        XCTAssertTrue(devices.contains(#""modelNumber":"Galaxy Watch6""#), devices)
        let report = try String(contentsOfFile: person + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(report.contains("Samsung Health"), "the report names the app")
        XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: person + "/health.xlsx")).count, 1000)
        XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: out + "/dataset/daily/person=ana/part-0.parquet")).count, 0)
    }

    /// A household of two iPhone people and an Android person through `import-all`: one
    /// dataset, each person's partition, read back by pyarrow.
    func testAHouseholdOfIPhoneAndAndroidPeople() throws {
        let dir = try temporaryFolder(self)
        let exports = dir.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.packageRoot.path + "/sample-data/export.xml",
                                         toPath: exports.appendingPathComponent("alice.xml").path)
        try generateExport(["--out", exports.appendingPathComponent("bob.xml").path, "--days", "20", "--seed", "5"])
        try Self.person().write(to: exports.appendingPathComponent("carol.zip").path)
        let out = dir.appendingPathComponent("out").path
        let run = try runProcess(TestPaths.binary, ["import-all", exports.path, "--out", out, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let python = try TestTools.python(importing: ["pyarrow"])
        let read = try runProcess(python, ["-c", """
            import pyarrow.dataset as ds, sys
            t = ds.dataset(sys.argv[1] + "/dataset/daily", format="parquet", partitioning="hive").to_table()
            rows = {p: 0 for p in ("alice", "bob", "carol")}
            for p, s, d in zip(t.column("person").to_pylist(), t.column("steps").to_pylist(), t.column("date").to_pylist()):
                rows[p] += 1
                if p == "carol" and str(d) == "2025-03-02": print("carol 2025-03-02", s)
            print(" ".join(f"{p}={n > 0}" for p, n in sorted(rows.items())))
            """, out])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertTrue(read.stdout.contains("alice=True bob=True carol=True"), read.stdout)
        XCTAssertTrue(read.stdout.contains("carol 2025-03-02 1200"), read.stdout)
    }
}
