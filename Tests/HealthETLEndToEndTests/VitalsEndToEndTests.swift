import Foundation
import XCTest
@testable import HealthAggregate
@testable import HealthCore
@testable import HealthStore
import SQLite
import TestSupport

/// Issue 31 end to end: a small export built here, imported by the binary, read back from the
/// store's vitals tables (docs/vitals-hrv-workouts.md), and an incremental import equal to a full one.
final class VitalsEndToEndTests: XCTestCase {
    static let watch = #"sourceName="Watch" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, model:Watch&gt;""#

    static func record(_ type: String, _ unit: String, _ value: String, _ start: String, end: String? = nil, body: String = "") -> String {
        ExportXML.record(type, source: "Watch", unit: unit, value: value, start: start, end: end ?? start, created: start,
                         attributes: #" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, model:Watch&gt;""#, children: body)
    }

    static func hrv(_ start: String, end: String, sdnn: String, beats: [(String, String)]) -> String {
        record("HeartRateVariabilitySDNN", "ms", sdnn, start, end: end, body: "<HeartRateVariabilityMetadataList>\n"
               + beats.map { #"<InstantaneousBeatsPerMinute bpm="\#($0.0)" time="\#($0.1)"/>"# }.joined(separator: "\n")
               + "\n</HeartRateVariabilityMetadataList>")
    }

    /// The records of day `n` of March 2024 (10 … 13), each day's kinds the same.
    static func day(_ n: Int) -> [String] {
        let d = "2024-03-\(n)"
        var parts: [String] = []
        switch n {
        case 10:
            // A 12-hour clock with a narrow no-break space before PM: intervals 800, 850, 780.
            parts.append(hrv("\(d) 18:14:48 +0100", end: "\(d) 18:15:48 +0100", sdnn: "35",
                             beats: [("75", "6:14:48.94\u{202F}PM"), ("75", "6:14:49.74\u{202F}PM"),
                                     ("71", "6:14:50.59\u{202F}PM"), ("77", "6:14:51.37\u{202F}PM")]))
            // One beat; a time that does not parse; a bpm of 0.
            parts.append(hrv("\(d) 20:00:00 +0100", end: "\(d) 20:01:00 +0100", sdnn: "40", beats: [("60", "8:00:01.00 PM")]))
            parts.append(hrv("\(d) 21:00:00 +0100", end: "\(d) 21:01:00 +0100", sdnn: "41",
                             beats: [("60", "9:00:01.00 PM"), ("60", "not a time")]))
            parts.append(hrv("\(d) 22:00:00 +0100", end: "\(d) 22:01:00 +0100", sdnn: "42",
                             beats: [("60", "10:00:01.00 PM"), ("0", "10:00:02.00 PM")]))
        case 11:
            // A 24-hour clock with a decimal comma: intervals 1000, 900, 1000.
            parts.append(hrv("\(d) 08:34:04 +0100", end: "\(d) 08:35:04 +0100", sdnn: "60",
                             beats: [("60", "08:34:05,10"), ("60", "08:34:06,10"), ("67", "08:34:07,00"), ("60", "08:34:08,00")]))
            // Across midnight: intervals 1000, 900 (the list belongs to its start's day).
            parts.append(hrv("\(d) 23:59:58 +0100", end: "2024-03-12 00:00:05 +0100", sdnn: "61",
                             beats: [("60", "11:59:59.00 PM"), ("60", "12:00:00.00 AM"), ("67", "12:00:00.90 AM")]))
        default: break
        }
        parts += [
            record("RestingHeartRate", "count/min", "\(50 + n)", "\(d) 07:00:00 +0100"),
            record("RestingHeartRate", "count/min", "\(54 + n)", "\(d) 19:00:00 +0100"),
            record("BodyMass", "kg", "70.5", "\(d) 07:05:00 +0100"),
            record("BodyMass", "kg", "\(Double(n) / 10 + 69)", "\(d) 08:05:00 +0100"),
            record("OxygenSaturation", "%", "0.97", "\(d) 03:00:00 +0100"),
            record("OxygenSaturation", "%", "0.95", "\(d) 04:00:00 +0100"),
            #"""
            <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" creationDate="\#(d) 09:00:00 +0100" startDate="\#(d) 09:00:00 +0100" endDate="\#(d) 09:00:00 +0100">
             <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" creationDate="\#(d) 09:00:00 +0100" startDate="\#(d) 09:00:00 +0100" endDate="\#(d) 09:00:00 +0100" value="\#(110 + n)"/>
             <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Cuff" unit="mmHg" creationDate="\#(d) 09:00:00 +0100" startDate="\#(d) 09:00:00 +0100" endDate="\#(d) 09:00:00 +0100" value="\#(70 + n)"/>
            </Correlation>
            """#,
        ]
        if n == 12 {
            // A run with heart rate and a route; strength training without heart-rate samples.
            for (time, bpm) in [("07:00:00", "120"), ("07:02:00", "150"), ("07:05:00", "175"), ("07:09:00", "100")] {
                parts.append(record("HeartRate", "count/min", bpm, "\(d) \(time) +0100"))
            }
            parts.append(#"""
                <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="10" durationUnit="min" totalDistance="2.2" totalDistanceUnit="km" totalEnergyBurned="120" totalEnergyBurnedUnit="kcal" sourceName="Watch" creationDate="\#(d) 07:10:00 +0100" startDate="\#(d) 07:00:00 +0100" endDate="\#(d) 07:10:00 +0100">
                 <WorkoutRoute sourceName="Watch" startDate="\#(d) 07:00:00 +0100" endDate="\#(d) 07:10:00 +0100">
                  <Location date="\#(d) 07:00:00 +0100" latitude="52.50" longitude="13.4" altitude="30"/>
                  <Location date="\#(d) 07:05:00 +0100" latitude="52.51" longitude="13.4" altitude="40"/>
                  <Location date="\#(d) 07:10:00 +0100" latitude="52.52" longitude="13.4" altitude="35"/>
                 </WorkoutRoute>
                </Workout>
                <Workout workoutActivityType="HKWorkoutActivityTypeTraditionalStrengthTraining" duration="30" durationUnit="min" sourceName="Watch" creationDate="\#(d) 18:30:00 +0100" startDate="\#(d) 18:00:00 +0100" endDate="\#(d) 18:30:00 +0100"/>
                """#)
        }
        return parts
    }

    static func export(days: ClosedRange<Int>, exportDay: Int) -> String {
        let me = #"<Me HKCharacteristicTypeIdentifierDateOfBirth="1984-06-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>"#
        return ExportXML.document([me] + days.flatMap(day), exportDate: "2024-03-\(exportDay) 23:00:00 +0100")
    }

    private func importExport(_ text: String, name: String, out: URL, in dir: URL, pipeline: [String: Any] = [:]) throws {
        let path = try write(text, to: name, in: dir)
        var args = ["import", path, "--out", out.path, "--quiet", "--timezone", "Europe/Berlin"]
        if !pipeline.isEmpty {
            let file = dir.appendingPathComponent(name + ".json")
            try JSONSerialization.data(withJSONObject: pipeline).write(to: file)
            args += ["--pipeline", file.path]
        }
        let r = try healthetl(args)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    private func row(_ db: String, _ sql: String) throws -> [SQLValue] { try XCTUnwrap(try queryRows(db, sql).first, sql) }

    func testEveryRuleOfTheVitalsTablesOnAnImport() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out")
        try importExport(Self.export(days: 10...13, exportDay: 13), name: "export.xml", out: out, in: dir)
        let db = out.appendingPathComponent("health.sqlite").path

        // HRV: every clock read, the figures by hand (docs: intervals kept, differences between them).
        let pm = try row(db, "SELECT beats, intervals, mean_nn_ms, sdnn_ms, rmssd_ms, pnn50_percent, apple_sdnn_ms, note, local_date FROM hrv_measurements WHERE apple_sdnn_ms = 35")
        XCTAssertEqual(pm[0].int, 4); XCTAssertEqual(pm[1].int, 3)
        XCTAssertEqual(try XCTUnwrap(pm[2].double), 810, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(pm[3].double), 1300.0.squareRoot(), accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(pm[4].double), 3700.0.squareRoot(), accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(pm[5].double), 100.0 / 3, accuracy: 1e-9)   // 70 > 50, of 3 intervals
        XCTAssertTrue(pm[7].isNullValue); XCTAssertEqual(pm[8].string, "2024-03-10")
        let comma = try row(db, "SELECT intervals, rmssd_ms, pnn50_percent FROM hrv_measurements WHERE apple_sdnn_ms = 60")
        XCTAssertEqual(comma[0].int, 3)
        XCTAssertEqual(try XCTUnwrap(comma[1].double), 100, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(comma[2].double), 200.0 / 3, accuracy: 1e-9)
        let midnight = try row(db, "SELECT intervals, mean_nn_ms, rmssd_ms, local_date FROM hrv_measurements WHERE apple_sdnn_ms = 61")
        XCTAssertEqual(midnight[0].int, 2)
        XCTAssertEqual(try XCTUnwrap(midnight[1].double), 950, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(midnight[2].double), 100, accuracy: 1e-6)
        XCTAssertEqual(midnight[3].string, "2024-03-11")
        // Bad lists: nulls and a note each, never a crash.
        for (sdnn, note) in [(40, "fewer than 2 beats"), (41, "a beat time that does not parse"), (42, "a beat with no bpm (0 or missing)")] {
            let bad = try row(db, "SELECT mean_nn_ms, sdnn_ms, rmssd_ms, pnn50_percent, note FROM hrv_measurements WHERE apple_sdnn_ms = \(sdnn)")
            XCTAssertTrue(bad[0...3].allSatisfy(\.isNullValue), "\(sdnn)")
            XCTAssertEqual(bad[4].string, note)
        }

        // Daily vitals: resting HR the day's mean, weight the day's latest, SpO₂ in %, RMSSD the
        // day's mean of the measurements, blood pressure the day's readings.
        let day10 = try row(db, "SELECT resting_heart_rate, weight_kg, spo2_percent, hrv_rmssd_ms, hrv_sdnn_ms, systolic_mmhg, diastolic_mmhg, vo2_max, blood_glucose_mg_dl FROM daily_vitals WHERE date = '2024-03-10'")
        XCTAssertEqual(try XCTUnwrap(day10[0].double), (60.0 + 64) / 2, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(day10[1].double), 70, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(day10[2].double), 96, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(day10[3].double), 3700.0.squareRoot(), accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(day10[4].double), (35.0 + 40 + 41 + 42) / 4, accuracy: 1e-9)   // Apple's values, every record
        XCTAssertEqual(day10[5].double, 120); XCTAssertEqual(day10[6].double, 80)
        XCTAssertTrue(day10[7].isNullValue && day10[8].isNullValue, "no such data: a null, the column still there")
        XCTAssertEqual(try query(db, "SELECT count(*) FROM daily_vitals"), ["4"])
        let pressure = try queryRows(db, "SELECT local_date, systolic_mmhg, diastolic_mmhg, source_name FROM blood_pressure ORDER BY time_utc")
        XCTAssertEqual(pressure.map { $0[0].string }, ["2024-03-10", "2024-03-11", "2024-03-12", "2024-03-13"])
        XCTAssertEqual(pressure.map { $0[1].double }, [120, 121, 122, 123])
        XCTAssertEqual(pressure.map { $0[2].double }, [80, 81, 82, 83])

        // Workouts: display names, local times, heart rate and zones (max 208 − 0.7 × 39), route.
        let run = try row(db, """
            SELECT activity, local_start, local_end, avg_heart_rate, max_heart_rate, heart_rate_samples, zone1_seconds, zone2_seconds,
                   zone3_seconds, zone4_seconds, zone5_seconds, zone_max_heart_rate, route_distance_m, elevation_gain_m,
                   pace_min_per_km, note FROM workout_details WHERE activity = 'Running'
            """)
        XCTAssertEqual(run[1].string, "2024-03-12T07:00:00"); XCTAssertEqual(run[2].string, "2024-03-12T07:10:00")
        XCTAssertEqual(try XCTUnwrap(run[3].double), (120.0 + 150 + 175 + 100) / 4, accuracy: 1e-9)
        XCTAssertEqual(run[4].double, 175); XCTAssertEqual(run[5].int, 4)
        XCTAssertEqual((6...10).map { run[$0].double }, [60, 60, 0, 60, 60])
        XCTAssertEqual(try XCTUnwrap(run[11].double), 208 - 0.7 * 39, accuracy: 1e-9)
        let distance = 2 * RouteFigures.haversine(52.50, 13.4, 52.51, 13.4)
        XCTAssertEqual(try XCTUnwrap(run[12].double), distance, accuracy: 1e-3)
        XCTAssertEqual(try XCTUnwrap(run[13].double), 10, accuracy: 1e-9)
        // The pace of the distance the row shows (Apple's 2.2 km), not the route's (issue 44).
        XCTAssertEqual(try XCTUnwrap(run[14].double), 10 / 2.2, accuracy: 1e-6)
        XCTAssertTrue(run[15].isNullValue)
        let strength = try row(db, "SELECT avg_heart_rate, heart_rate_samples, zone1_seconds, route_distance_m, note FROM workout_details WHERE activity = 'Traditional Strength Training'")
        XCTAssertTrue(strength[0].isNullValue && strength[2].isNullValue && strength[3].isNullValue)
        XCTAssertEqual(strength[1].int, 0)
        XCTAssertEqual(strength[4].string, "no heart-rate samples")
    }

    func testThePipelinesMaximumHeartRateOverridesTheBirthDate() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out")
        try importExport(Self.export(days: 12...12, exportDay: 12), name: "export.xml", out: out, in: dir,
                         pipeline: ["maxHeartRate": 200])
        let db = out.appendingPathComponent("health.sqlite").path
        let run = try row(db, "SELECT zone_max_heart_rate, zone1_seconds, zone2_seconds, zone3_seconds, zone4_seconds, zone5_seconds FROM workout_details WHERE activity = 'Running'")
        // 100 = 50 %, 120 = 60 %, 150 = 75 %, 175 = 87.5 % of 200.
        XCTAssertEqual(run.map(\.double), [200, 60, 60, 60, 60, 0])
        let bad = dir.appendingPathComponent("bad.json")
        try JSONSerialization.data(withJSONObject: ["maxHeartRate": 20]).write(to: bad)
        let r = try healthetl(["import", dir.appendingPathComponent("export.xml").path, "--out", dir.appendingPathComponent("bad").path,
                               "--pipeline", bad.path])
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertTrue(r.stderr.contains("maxHeartRate"), r.stderr)
    }

    func testAPersonsMaximumHeartRateOverridesThePipeline() throws {
        let dir = try temporaryFolder(self)
        let root = dir.appendingPathComponent("family").path
        let set = try healthetl(["people", "set", "ana", "--max-heart-rate", "200", "--out", root])
        XCTAssertEqual(set.status, 0, set.stderr)
        let bad = try healthetl(["people", "set", "ana", "--max-heart-rate", "fast", "--out", root])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        let path = try write(Self.export(days: 12...12, exportDay: 12), to: "export.xml", in: dir)
        let r = try healthetl(["import", path, "--person", "ana", "--out", root, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let db = URL(fileURLWithPath: root).appendingPathComponent("people/ana/health.sqlite").path
        XCTAssertEqual(try query(db, "SELECT zone_max_heart_rate FROM workout_details WHERE activity = 'Running'"), ["200.0"])
    }

    /// The vitals tables without their store ids (a sample's id depends on the order rows arrived).
    static let vitalsQueries = [
        "SELECT * FROM daily_vitals ORDER BY date",
        "SELECT local_date, start_utc, source_name, beats, intervals, mean_nn_ms, sdnn_ms, rmssd_ms, pnn50_percent, apple_sdnn_ms, note FROM hrv_measurements ORDER BY start_utc",
        "SELECT local_date, time_utc, systolic_mmhg, diastolic_mmhg, source_name FROM blood_pressure ORDER BY time_utc",
        "SELECT * FROM workout_details ORDER BY local_start, activity",
    ]

    static func snapshot(_ db: String) throws -> [String] {
        try vitalsQueries.flatMap { sql in try queryRows(db, sql).map { $0.map(\.description).joined(separator: "|") } }
    }

    func testAnIncrementalImportEqualsAFullOne() throws {
        let dir = try temporaryFolder(self)
        let incremental = dir.appendingPathComponent("incremental"), full = dir.appendingPathComponent("full")
        try importExport(Self.export(days: 10...11, exportDay: 11), name: "first.xml", out: incremental, in: dir)
        try importExport(Self.export(days: 10...13, exportDay: 13), name: "second.xml", out: incremental, in: dir)
        try importExport(Self.export(days: 10...13, exportDay: 13), name: "whole.xml", out: full, in: dir)
        let a = try Self.snapshot(incremental.appendingPathComponent("health.sqlite").path)
        let b = try Self.snapshot(full.appendingPathComponent("health.sqlite").path)
        XCTAssertEqual(try query(incremental.appendingPathComponent("health.sqlite").path,
                                 "SELECT mode FROM runs ORDER BY id DESC LIMIT 1"), ["incremental"])
        XCTAssertGreaterThan(a.count, 15)
        XCTAssertEqual(a, b)
    }

    /// A store imported from days 10 and 11 (exported on day 11) and taken back to version 5 (no
    /// vitals tables), beside an empty folder for the full import to compare with.
    private func storeOfVersion5() throws -> (dir: URL, out: URL, full: URL, db: String) {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out"), full = dir.appendingPathComponent("full")
        try importExport(Self.export(days: 10...11, exportDay: 11), name: "first.xml", out: out, in: dir)
        let db = out.appendingPathComponent("health.sqlite").path
        try Database(path: db).execute("""
            DROP TABLE daily_vitals; DROP TABLE blood_pressure; DROP TABLE hrv_measurements; DROP TABLE workout_details;
            DELETE FROM settings WHERE key = 'vitals'; PRAGMA user_version = 5;
            """)
        return (dir, out, full, db)
    }

    /// A store of version 5 (no vitals tables) upgraded in place by an incremental run gets every
    /// day's vitals, not only the touched days'.
    func testAnUpgradedStoreGetsTheVitalsOfEveryDay() throws {
        let (dir, out, full, db) = try storeOfVersion5()
        try importExport(Self.export(days: 10...13, exportDay: 13), name: "second.xml", out: out, in: dir)
        try importExport(Self.export(days: 10...13, exportDay: 13), name: "whole.xml", out: full, in: dir)
        XCTAssertEqual(try query(db, "PRAGMA user_version"), ["\(StoreSchema.version)"])
        XCTAssertEqual(try Self.snapshot(db), try Self.snapshot(full.appendingPathComponent("health.sqlite").path))
    }

    /// The same with nothing new in the next export: no day to recompute, and still every day's vitals.
    func testAnUpgradedStoreGetsItsVitalsWithNothingNew() throws {
        let (dir, out, full, db) = try storeOfVersion5()
        try importExport(Self.export(days: 10...11, exportDay: 11), name: "again.xml", out: out, in: dir)
        try importExport(Self.export(days: 10...11, exportDay: 11), name: "whole.xml", out: full, in: dir)
        XCTAssertEqual(try query(db, "PRAGMA user_version"), ["\(StoreSchema.version)"])
        XCTAssertGreaterThan(try query(db, "SELECT count(*) FROM daily_vitals").first.flatMap { Int($0) } ?? 0, 0)
        XCTAssertEqual(try Self.snapshot(db), try Self.snapshot(full.appendingPathComponent("health.sqlite").path))
    }
}

extension SQLValue {
    var isNullValue: Bool { if case .null = self { true } else { false } }
}
