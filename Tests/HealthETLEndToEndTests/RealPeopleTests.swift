import Foundation
import HealthReport
import HealthStore
import SQLite
import XCTest
import TestSupport

/// Issue 44: what real people's exports hold around the headline numbers. Each test builds the
/// small export it needs: a ride stored by the Watch and by Strava, two people's exports, a Watch
/// named with a no-break space and no `device`.
final class RealPeopleTests: XCTestCase {
    private let watchDevice = "&lt;&lt;HKDevice: 0x283fb5e00&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.0&gt;"

    private func export(_ elements: [String], me: String = "", exportDate: String = "2024-03-30 09:00:00 +0100") -> String {
        ExportXML.document((me.isEmpty ? [] : [me]) + elements, exportDate: exportDate)
    }

    private func workout(_ activity: String, source: String, device: String? = nil, start: String, end: String,
                         km: Double, kcal: Double) -> String {
        let deviceAttribute = device.map { " device=\"\($0)\"" } ?? ""
        return #"<Workout workoutActivityType="HKWorkoutActivityType\#(activity)" duration="60" durationUnit="min" totalDistance="\#(km)" totalDistanceUnit="km" totalEnergyBurned="\#(kcal)" totalEnergyBurnedUnit="kcal" sourceName="\#(source)" sourceVersion="1"\#(deviceAttribute) creationDate="\#(end)" startDate="\#(start)" endDate="\#(end)"/>"#
    }

    private func run(_ arguments: [String]) throws -> ProcessResult {
        try healthetl(arguments + ["--timezone", "Europe/Berlin"])
    }

    // MARK: 1. a workout recorded by two apps

    func testAWorkoutRecordedByTwoAppsIsListedTwiceAndCountedOnceEverywhere() throws {
        let dir = try temporaryFolder(self)
        let watchRide = workout("Cycling", source: "Alex’s Apple Watch", device: watchDevice,
                                start: "2024-03-24 10:00:00 +0100", end: "2024-03-24 11:00:00 +0100", km: 27.1, kcal: 610)
        // Strava's copy of the same ride: a minute later to a minute later, as apps round.
        let stravaRide = workout("Cycling", source: "Strava", start: "2024-03-24 10:01:00 +0100",
                                 end: "2024-03-24 11:01:00 +0100", km: 27.2, kcal: 623)
        let watchRun = workout("Running", source: "Alex’s Apple Watch", device: watchDevice,
                               start: "2024-03-25 18:00:00 +0100", end: "2024-03-25 18:40:00 +0100", km: 7, kcal: 420)
        // A Strava run on another morning is a workout of its own.
        let stravaRun = workout("Running", source: "Strava", start: "2024-03-26 07:00:00 +0100",
                                end: "2024-03-26 07:30:00 +0100", km: 5, kcal: 300)
        let first = try write(export([watchRide, watchRun], exportDate: "2024-03-25 20:00:00 +0100"), to: "first.xml", in: dir)
        let full = try write(export([watchRide, stravaRide, watchRun, stravaRun]), to: "export.xml", in: dir)

        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try run(["import", full, "--out", out, "--quiet"]).status, 0)
        let db = out + "/health.sqlite"
        XCTAssertEqual(try query(db, "SELECT count(*) FROM workouts"), ["4"], "every row kept, as the Health app lists both")
        let copies = try query(db, """
            SELECT c.source_name || ' ' || c.activity_type || ' → ' || o.source_name
            FROM workout_details d JOIN workouts c ON c.id = d.workout_id JOIN workouts o ON o.id = d.duplicate_of
            """)
        XCTAssertEqual(copies, ["Strava HKWorkoutActivityTypeCycling → Alex’s Apple Watch"])
        XCTAssertEqual(try query(db, "SELECT note FROM workout_details WHERE duplicate_of IS NOT NULL").first?
                        .hasPrefix("a copy of workout"), true)
        // The reconciliation names the copy: that day 2 workouts stored, 1 counted; Strava's counts 0.
        XCTAssertEqual(try query(db, "SELECT date || ' ' || merged || ' ' || all_sources_sum || ' ' || overlap_removed "
                                     + "FROM reconciliation WHERE metric = 'workouts'"), ["2024-03-24 1.0 2.0 1.0"])
        XCTAssertEqual(try query(db, "SELECT source_name || ' ' || total || ' of ' || samples || ' #' || priority "
                                     + "FROM reconciliation_sources WHERE metric = 'workouts' ORDER BY priority"),
                       ["Alex’s Apple Watch 1.0 of 1 #1", "Strava 0.0 of 1 #2"])

        // HealthQL (and so the MCP server, which answers with it): one ride, two runs.
        let ql = try healthetl(["query", "SELECT type, count(*) AS n, sum(distance) AS m FROM workouts GROUP BY type ORDER BY type",
                                "--out", out, "--format", "csv"])
        XCTAssertEqual(ql.status, 0, ql.stderr)
        XCTAssertEqual(ql.stdout.split(whereSeparator: \.isNewline).map(String.init), ["type,n,m", "cycling,1,27100", "running,2,12000"])

        // The CSV lists all four and names the copy; the report counts the ride once.
        let csv = try String(contentsOfFile: out + "/csv/workouts.csv", encoding: .utf8).split(whereSeparator: \.isNewline)
        XCTAssertTrue(csv[0].hasSuffix(",duplicate_of"), String(csv[0]))
        XCTAssertEqual(csv.count, 5)
        XCTAssertEqual(csv.filter { $0.contains("Strava") && $0.contains("Cycling") && !$0.hasSuffix(",") }.count, 1)

        // Incremental (the Watch's ride first, then the export with Strava's copy) equals full.
        let incremental = dir.appendingPathComponent("incremental").path
        XCTAssertEqual(try run(["import", first, "--out", incremental, "--quiet"]).status, 0)
        XCTAssertEqual(try run(["import", full, "--out", incremental, "--quiet"]).status, 0)
        for sql in ["SELECT * FROM workout_details ORDER BY workout_id", "SELECT * FROM workouts ORDER BY id",
                    "SELECT * FROM reconciliation ORDER BY date, metric", "SELECT * FROM reconciliation_sources ORDER BY date, metric, source_name"] {
            XCTAssertEqual(try queryRows(incremental + "/health.sqlite", sql).map { "\($0)" }, try queryRows(db, sql).map { "\($0)" }, sql)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: incremental + "/csv/workouts.csv")),
                       try Data(contentsOf: URL(fileURLWithPath: out + "/csv/workouts.csv")))
    }

    /// The sample's ride of 2024-03-24, stored by the Watch and by Strava: four rides, not five,
    /// and its week's row in the report counts one.
    func testTheSamplesRideStoredByTheWatchAndStravaCountsOnce() throws {
        let out = try temporaryFolder(self).appendingPathComponent("out").path
        let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
        XCTAssertEqual(try run(["import", sample, "--out", out, "--quiet"]).status, 0)
        let db = out + "/health.sqlite"
        XCTAssertEqual(try query(db, "SELECT count(*) FROM workouts WHERE activity_type LIKE '%Cycling'"), ["5"])
        XCTAssertEqual(try query(db, "SELECT count(*) FROM counted_workouts WHERE activity_type LIKE '%Cycling'"), ["4"])
        let ql = try healthetl(["query", "SELECT count(*) AS rides FROM workouts WHERE type = 'cycling'", "--out", out, "--format", "csv"])
        XCTAssertEqual(ql.stdout.split(whereSeparator: \.isNewline).last, "4", ql.stderr)
        let report = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertFalse(report.contains("<td>Cycling</td><td class=num>2</td>"), "no week counts the ride twice")
        XCTAssertTrue(report.contains("<td>Cycling</td><td class=num>1</td><td class=num>69</td><td class=num>27.2</td>"))
        // Item 4: the run of 2024-04-17 holds one heart-rate sample (75 bpm): the report shows
        // Apple's own statistics (as workouts.csv does), and the pace as minutes and seconds.
        XCTAssertTrue(report.contains("<td>2024-04-17 19:08</td><td>Running</td><td>31</td><td>5.40</td><td>120 / 120</td>"
            + "<td>–</td><td>–</td><td>–</td><td>–</td><td>–</td><td>5:41</td>"), "the run of 2024-04-17 in the report")
        XCTAssertTrue(report.contains("Pace (m:ss/km)"))
        XCTAssertEqual(try query(db, "SELECT d.avg_heart_rate || ' ' || w.avg_heart_rate FROM workout_details d JOIN workouts w "
                                     + "ON w.id = d.workout_id WHERE d.local_date = '2024-04-17'"), ["120.0 120.0"])
    }

    // MARK: 2. another person's export

    private let alex = #"<Me HKCharacteristicTypeIdentifierDateOfBirth="1988-04-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexMale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeONegative"/>"#
    private let sam = #"<Me HKCharacteristicTypeIdentifierDateOfBirth="1988-06-14" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeAPositive"/>"#

    private func steps(_ source: String, _ day: String, _ value: Int) -> String {
        #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="\#(source)" sourceVersion="1" unit="count" creationDate="\#(day) 12:10:00 +0100" startDate="\#(day) 12:00:00 +0100" endDate="\#(day) 12:10:00 +0100" value="\#(value)"/>"#
    }

    /// Every file of a folder, with its bytes (the run log and the lock left out: a refused run
    /// is logged, and took the lock).
    private func snapshot(_ folder: String) throws -> [String: Data] {
        try fileContents(under: folder) { $0.hasSuffix("runs.log") || $0.hasSuffix(".healthetl/lock") }
    }

    func testAnotherPersonsExportIsRefusedAndChangesNothing() throws {
        let dir = try temporaryFolder(self)
        let his = try write(export([steps("Alex’s iPhone", "2024-03-21", 12978)], me: alex), to: "alex.xml", in: dir)
        let hers = try write(export([steps("Sam’s iPhone", "2024-03-21", 9000)], me: sam), to: "sam.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try run(["import", his, "--out", out, "--quiet"]).status, 0)
        let before = try snapshot(out)

        let refused = try run(["import", hers, "--out", out])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        for said in ["another person's export", "date of birth 1988-06-14", "sex female", "blood type A+",
                     "date of birth 1988-04-02", "sex male", "--person ID", "--out", "--full", "Nothing was changed"] {
            XCTAssertTrue(refused.stderr.contains(said), "the refusal says \(said): \(refused.stderr)")
        }
        XCTAssertEqual(try snapshot(out), before, "nothing in the folder changed")
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT steps FROM daily_analytics WHERE date = '2024-03-21'"), ["12978"])

        // What the message offers works: her own folder, or --full to replace.
        XCTAssertEqual(try run(["import", hers, "--out", out, "--person", "sam", "--quiet"]).status, 0)
        XCTAssertEqual(try run(["import", hers, "--out", out, "--full", "--quiet"]).status, 0)
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT steps FROM daily_analytics WHERE date = '2024-03-21'"), ["9000"])
    }

    /// Neither export says who it is (`Me` unset, as for many people): the person's own Apple
    /// devices decide. A later export of the same person still holds their devices' records.
    func testWithoutMeAnExportOfOtherDevicesIsRefusedAndTheSamePersonsIsNot() throws {
        let dir = try temporaryFolder(self)
        let unset = #"<Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet"/>"#
        func phoneSteps(_ owner: String, _ day: String, _ value: Int) -> String {
            #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="\#(owner)’s iPhone" sourceVersion="17.0" device="&lt;&lt;HKDevice: 0x1&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.0&gt;" unit="count" creationDate="\#(day) 12:10:00 +0100" startDate="\#(day) 12:00:00 +0100" endDate="\#(day) 12:10:00 +0100" value="\#(value)"/>"#
        }
        let his = try write(export([phoneSteps("Alex", "2024-03-21", 12978)], me: unset, exportDate: "2024-03-22 09:00:00 +0100"),
                            to: "alex.xml", in: dir)
        let hisLater = try write(export([phoneSteps("Alex", "2024-03-21", 12978), phoneSteps("Alex", "2024-03-23", 5000)], me: unset),
                                 to: "alex-later.xml", in: dir)
        let hers = try write(export([phoneSteps("Sam", "2024-03-21", 9000), phoneSteps("Sam", "2024-03-23", 7000)], me: unset),
                             to: "sam.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try run(["import", his, "--out", out, "--quiet"]).status, 0)
        let before = try snapshot(out)
        let refused = try run(["import", hers, "--out", out])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("another person's export: its records come from Sam’s iPhone, none of the devices "
                                              + "of the store"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("(Alex’s iPhone)") && refused.stderr.contains("--person ID"), refused.stderr)
        XCTAssertEqual(try snapshot(out), before, "nothing in the folder changed, no load left to resume")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/.healthetl/load.sqlite"))
        // His own later export goes in.
        XCTAssertEqual(try run(["import", hisLater, "--out", out, "--quiet"]).status, 0)
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT steps FROM daily_analytics WHERE date = '2024-03-23'"), ["5000"])
    }

    func testAFactSetLaterIsTheSamePersonAndIsSaid() throws {
        let dir = try temporaryFolder(self)
        let unset = #"<Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexMale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet"/>"#
        let early = try write(export([steps("Alex’s iPhone", "2024-03-21", 100)], me: unset, exportDate: "2024-03-22 09:00:00 +0100"),
                              to: "early.xml", in: dir)
        let later = try write(export([steps("Alex’s iPhone", "2024-03-21", 100), steps("Alex’s iPhone", "2024-03-23", 200)], me: alex),
                              to: "later.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try run(["import", early, "--out", out, "--quiet"]).status, 0)
        let added = try run(["import", later, "--out", out])
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stderr.contains("date of birth set since the last import (1988-04-02)"), added.stderr)
        XCTAssertTrue(added.stderr.contains("blood type set since the last import (O-)"), added.stderr)
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT date_of_birth FROM profile"), ["1988-04-02"])
    }

    // MARK: 3. Apple's source names

    func testAWatchNamedWithANoBreakSpaceAndNoDeviceRanksAsTheWatch() throws {
        let dir = try temporaryFolder(self)
        let watch = "윤창희의 Apple\u{A0}Watch", phone = "윤창희의 iPhone"
        func record(_ source: String, device: Bool, hour: Int, value: Int) -> String {
            let s = "2024-03-21 \(String(format: "%02d", hour)):00:00 +0900", e = "2024-03-21 \(String(format: "%02d", hour)):10:00 +0900"
            let model = source == watch ? watchDevice
                : "&lt;&lt;HKDevice: 0x1&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.0&gt;"
            return #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="\#(source)" sourceVersion="9"\#(device ? " device=\"\(model)\"" : "") unit="count" creationDate="\#(e)" startDate="\#(s)" endDate="\#(e)" value="\#(value)"/>"#
        }
        // Hour 10: the Watch with a device; hour 11: the same Watch without one. The phone
        // counted the same walks, a little differently.
        let xml = export([record(watch, device: true, hour: 10, value: 500), record(watch, device: false, hour: 11, value: 600),
                          record(phone, device: true, hour: 10, value: 550), record(phone, device: true, hour: 11, value: 650)],
                         exportDate: "2024-03-22 09:00:00 +0900")
        let path = try write(xml, to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", path, "--out", out, "--timezone", "Asia/Seoul", "--quiet"]).status, 0)
        let db = out + "/health.sqlite"
        XCTAssertEqual(try query(db, "SELECT steps FROM daily_analytics WHERE date = '2024-03-21'"), ["1100"], "the Watch wins both hours")
        let priorities = try query(db, "SELECT DISTINCT priority FROM source_inventory WHERE source_name = '\(watch)'")
        XCTAssertEqual(priorities.count, 1, "one Watch, one priority, with and without a device: \(priorities)")
        let phonePriority = try query(db, "SELECT DISTINCT priority FROM source_inventory WHERE source_name = '\(phone)'")
        XCTAssertLessThan(Int(priorities[0])!, Int(phonePriority[0])!)
    }

    // MARK: 4. workout figures that agree

    /// Apple's statistics where the samples are too few; one distance per row for the pace; a
    /// route faster than the activity can be is flagged and its distance not used.
    func testWorkoutFiguresFallBackToApplesStatisticsAndRoutesMustBePossible() throws {
        let dir = try temporaryFolder(self)
        func run(_ start: String, _ end: String, distance: String = "", inside: String = "") -> String {
            #"<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min"\#(distance) sourceName="Alex’s Apple Watch" sourceVersion="1" device="\#(watchDevice)" creationDate="\#(end)" startDate="\#(start)" endDate="\#(end)">"#
                + inside + "</Workout>"
        }
        func route(_ start: String, _ end: String, toLatitude: Double) -> String {
            #"<WorkoutRoute sourceName="Alex’s Apple Watch" sourceVersion="1" creationDate="\#(end)" startDate="\#(start)" endDate="\#(end)">"#
                + #"<Location date="\#(start)" latitude="52.5" longitude="13.4" altitude="40" horizontalAccuracy="2" verticalAccuracy="2" course="0" speed="3"/>"#
                + #"<Location date="\#(end)" latitude="\#(toLatitude)" longitude="13.4" altitude="40" horizontalAccuracy="2" verticalAccuracy="2" course="0" speed="3"/>"#
                + "</WorkoutRoute>"
        }
        let statistics = #"<WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-03-21 07:00:00 +0100" endDate="2024-03-21 07:30:00 +0100" average="150" minimum="120" maximum="170" unit="count/min"/>"#
        let xml = export([
            // Apple's distance and heart rate, no samples inside.
            run("2024-03-21 07:00:00 +0100", "2024-03-21 07:30:00 +0100",
                distance: #" totalDistance="5" totalDistanceUnit="km""#, inside: statistics),
            // A route of about 50 km in 30 minutes: 100 km/h is no run.
            run("2024-03-22 07:00:00 +0100", "2024-03-22 07:30:00 +0100",
                inside: route("2024-03-22 07:00:00 +0100", "2024-03-22 07:30:00 +0100", toLatitude: 52.95)),
            // A route of about 5 km and no distance of Apple's: the route's pace.
            run("2024-03-23 07:00:00 +0100", "2024-03-23 07:30:00 +0100",
                inside: route("2024-03-23 07:00:00 +0100", "2024-03-23 07:30:00 +0100", toLatitude: 52.545)),
        ])
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try self.run(["import", try write(xml, to: "export.xml", in: dir), "--out", out, "--quiet"]).status, 0)
        let rows = try queryRows(out + "/health.sqlite", """
            SELECT local_date, avg_heart_rate, max_heart_rate, zone1_seconds, pace_min_per_km, route_distance_m, note
            FROM workout_details ORDER BY local_date
            """)
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual(rows[0][1].double, 150); XCTAssertEqual(rows[0][2].double, 170)
        XCTAssertNil(rows[0][3].double, "no zones from no samples")
        XCTAssertEqual(rows[0][4].double ?? 0, 6.0, accuracy: 1e-9, "30 min over Apple's 5 km")
        XCTAssertEqual(rows[0][6].string, "heart rate from Apple's workout statistics (no heart-rate samples: too few for zones)")
        XCTAssertNil(rows[1][4].double, "no pace from an impossible route")
        XCTAssertTrue(rows[1][6].string?.contains("GPS speed (100 km/h) is impossible for running") == true, "\(rows[1][6])")
        let routeMeters = try XCTUnwrap(rows[2][5].double)
        XCTAssertEqual(routeMeters, 5004, accuracy: 10)
        XCTAssertEqual(rows[2][4].double ?? 0, 30 / (routeMeters / 1000), accuracy: 1e-9)
    }

    /// Apple reuses a GPX file's name: two routes name one file, and the export holds one. Its
    /// points go to the route whose time holds them, and both workouts say so.
    func testTwoRoutesNamingOneGPXFileAreReported() throws {
        let folder = try temporaryFolder(self).appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        func run(_ start: String, _ end: String) -> String {
            #"<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" totalDistance="5" totalDistanceUnit="km" sourceName="Alex’s Apple Watch" sourceVersion="1" device="\#(watchDevice)" creationDate="\#(end)" startDate="\#(start)" endDate="\#(end)">"#
                + #"<WorkoutRoute sourceName="Alex’s Apple Watch" sourceVersion="1" creationDate="\#(end)" startDate="\#(start)" endDate="\#(end)"><FileReference path="/workout-routes/route_2024-03-21_7.00am.gpx"/></WorkoutRoute></Workout>"#
        }
        let xml = export([run("2024-03-21 07:00:00 +0100", "2024-03-21 07:30:00 +0100"),
                          run("2024-03-28 07:00:00 +0100", "2024-03-28 07:30:00 +0100")])
        _ = try write(xml, to: "export.xml", in: folder)
        // The file the zip kept: the first run's points (21 March, 06:00–06:08 UTC), though the
        // second route names it last.
        let points = (0..<5).map { i in
            #"<trkpt lat="\#(52.5 + Double(i) * 0.01)" lon="13.4"><ele>40</ele><time>2024-03-21T06:0\#(i * 2):00Z</time></trkpt>"#
        }.joined()
        _ = try write(#"<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="Apple Health Export"><trk><trkseg>\#(points)</trkseg></trk></gpx>"#,
                      to: "workout-routes/route_2024-03-21_7.00am.gpx", in: folder)
        let out = folder.deletingLastPathComponent().appendingPathComponent("out").path
        XCTAssertEqual(try self.run(["import", folder.path, "--out", out, "--quiet"]).status, 0)
        let rows = try queryRows(out + "/health.sqlite", """
            SELECT d.local_date, (SELECT count(*) FROM workout_route_points p JOIN workout_routes r ON r.id = p.route_id
                                  WHERE r.workout_id = d.workout_id), d.note
            FROM workout_details d ORDER BY d.local_date
            """)
        XCTAssertEqual(rows.map { $0[1].int }, [5, 0], "the points are the first run's, by their times")
        XCTAssertTrue(rows[1][2].string?.contains("its route file route_2024-03-21_7.00am.gpx is named by workout") == true
                      && rows[1][2].string?.contains("its points went there") == true, "\(rows[1][2])")
        XCTAssertTrue(rows[0][2].string?.contains("the points are this workout's, by their times") == true, "\(rows[0][2])")
    }

    /// Item 6: a workout's statistics are stored in their type's own unit, as its samples are:
    /// ground-contact time in ms (it was the time dimension's minutes), energy in kcal.
    func testWorkoutStatisticsKeepTheirTypesUnit() throws {
        let dir = try temporaryFolder(self)
        let statistic = { (type: String, values: String, unit: String) in
            #"<WorkoutStatistics type="HKQuantityTypeIdentifier\#(type)" startDate="2024-03-21 07:00:00 +0100" endDate="2024-03-21 07:30:00 +0100" \#(values) unit="\#(unit)"/>"#
        }
        let workout = #"<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Alex’s Apple Watch" sourceVersion="1" creationDate="2024-03-21 07:30:00 +0100" startDate="2024-03-21 07:00:00 +0100" endDate="2024-03-21 07:30:00 +0100">"#
            + statistic("RunningGroundContactTime", #"average="251" minimum="230" maximum="270""#, "ms")
            + statistic("ActiveEnergyBurned", #"sum="1200""#, "kJ") + "</Workout>"
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try run(["import", try write(export([workout]), to: "export.xml", in: dir), "--out", out, "--quiet"]).status, 0)
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT average || ' ' || unit FROM workout_statistics WHERE type LIKE '%GroundContactTime'"),
                       ["251.0 ms"])
        let energy = try queryRows(out + "/health.sqlite", "SELECT sum, unit FROM workout_statistics WHERE type LIKE '%ActiveEnergyBurned'")
        XCTAssertEqual(energy[0][0].double ?? 0, 1200 / 4.184, accuracy: 1e-9)
        XCTAssertEqual(energy[0][1].string, "kcal")
    }

    // MARK: 5. goals from the export

    /// The export's own goals, day by day: ring goals from each day's ActivitySummary (changed
    /// mid-export) and the sleep goal set in Health (7 h, then 5 h); a goal the pipeline sets wins.
    func testTheExportsGoalsHoldDayByDayUnlessTheSettingsSetOne() throws {
        let dir = try temporaryFolder(self)
        func summary(_ day: String, move: Int) -> String {
            #"<ActivitySummary dateComponents="\#(day)" activeEnergyBurned="300" activeEnergyBurnedGoal="\#(move)" activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="20" appleExerciseTimeGoal="25" appleStandHours="10" appleStandHoursGoal="10"/>"#
        }
        func sleepGoal(_ day: String, hours: Int) -> String {
            #"<Record type="HKDataTypeSleepDurationGoal" sourceName="Health" sourceVersion="17.0" unit="hr" creationDate="\#(day) 21:00:00 +0100" startDate="\#(day) 21:00:00 +0100" endDate="\#(day) 21:00:00 +0100" value="\#(hours)"/>"#
        }
        var elements = [sleepGoal("2024-03-18", hours: 7), sleepGoal("2024-03-21", hours: 5)]
        for day in 18...24 {
            let date = "2024-03-\(day)"
            elements += [steps("Alex’s iPhone", date, 8000), summary(date, move: day < 21 ? 400 : 600)]
        }
        let path = try write(export(elements, me: alex), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try run(["import", path, "--out", out, "--quiet"]).status, 0)
        let data = try ReportData.load(from: Database(path: out + "/health.sqlite", mode: .readOnly))
        let days = Dictionary(uniqueKeysWithValues: data.days.map { ($0.date.iso8601, $0) })
        let unset = ReportGoals()
        XCTAssertEqual(days["2024-03-19"]?.goal(.sleep, unset), 7)
        XCTAssertEqual(days["2024-03-20"]?.goal(.sleep, unset), 7)
        XCTAssertEqual(days["2024-03-21"]?.goal(.sleep, unset), 5, "the goal set that evening holds for its day")
        XCTAssertEqual(days["2024-03-23"]?.goal(.sleep, unset), 5)
        XCTAssertEqual(days["2024-03-20"]?.goal(.activeEnergy, unset), 400)
        XCTAssertEqual(days["2024-03-22"]?.goal(.activeEnergy, unset), 600)
        XCTAssertEqual(days["2024-03-22"]?.goalAndOrigin(.exercise, unset).origin, .export)
        XCTAssertEqual(days["2024-03-22"]?.goalAndOrigin(.steps, unset).origin, .defaults)
        // A goal set in the pipeline (or a person's settings) wins over the export's.
        let set = ReportGoals(activeEnergyKcal: 550, sleepHours: 8)
        XCTAssertEqual(days["2024-03-22"]?.goal(.activeEnergy, set), 550)
        XCTAssertEqual(days["2024-03-22"]?.goal(.sleep, set), 8)
        // The report says where the goals of the day it shows came from.
        let report = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(report.contains("Goals: move, exercise and stand from your Activity ring goals that day; "
                                      + "sleep from the sleep goal set in Health; steps: the defaults."), report)
        let pipeline = try write(#"{"goals": {"sleepHours": 8}}"#, to: "goals.json", in: dir)
        XCTAssertEqual(try healthetl(["report", "--out", out, "--pipeline", pipeline]).status, 0)
        let again = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(again.contains("sleep as the settings set (person or pipeline)"), again)
        XCTAssertTrue(again.contains("/ 8.0 h"), "the sleep goal of the pipeline")
    }

    // MARK: 6. daily_metrics of category types

    /// An idle stand hour is an hour not stood; sleep records overlap (in bed, each stage), so
    /// their day has a count and no sum of minutes.
    func testIdleStandHoursCountNoMinutesAndSleepRecordsAreNotAddedUp() throws {
        let dir = try temporaryFolder(self)
        func category(_ type: String, _ value: String, _ start: String, _ end: String) -> String {
            #"<Record type="HKCategoryTypeIdentifier\#(type)" sourceName="Alex’s Apple Watch" sourceVersion="1" creationDate="\#(end)" startDate="\#(start)" endDate="\#(end)" value="HKCategoryValue\#(value)"/>"#
        }
        let xml = export([
            category("AppleStandHour", "AppleStandHourIdle", "2024-03-21 12:00:00 +0100", "2024-03-21 13:00:00 +0100"),
            category("AppleStandHour", "AppleStandHourStood", "2024-03-21 13:00:00 +0100", "2024-03-21 14:00:00 +0100"),
            category("AppleStandHour", "AppleStandHourStood", "2024-03-21 14:00:00 +0100", "2024-03-21 15:00:00 +0100"),
            category("SleepAnalysis", "SleepAnalysisInBed", "2024-03-20 23:00:00 +0100", "2024-03-21 07:00:00 +0100"),
            category("SleepAnalysis", "SleepAnalysisAsleepCore", "2024-03-20 23:10:00 +0100", "2024-03-21 06:50:00 +0100"),
        ])
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try run(["import", try write(xml, to: "export.xml", in: dir), "--out", out, "--quiet"]).status, 0)
        let db = out + "/health.sqlite"
        XCTAssertEqual(try query(db, "SELECT sum || ' ' || count FROM daily_metrics WHERE type LIKE '%AppleStandHour'"), ["120.0 3"])
        XCTAssertEqual(try query(db, "SELECT ifnull(sum, 'none') || ' ' || count FROM daily_metrics WHERE type LIKE '%SleepAnalysis'"),
                       ["none 2"])
        XCTAssertEqual(try query(db, "SELECT asleep_minutes FROM sleep_sessions"), ["460.0"], "the night's own figure")
    }

    /// Item 6: a month of nightly runs ends with the vitals of a full import, to the last bit
    /// (each day's mean of several HRV measurements was summed in the store's row order, which
    /// differs between an incremental store and a full one).
    func testAMonthOfNightlyRunsEndsWithTheVitalsOfAFullImport() throws {
        let dir = try temporaryFolder(self)
        let full = dir.appendingPathComponent("full.xml").path
        try generateExport(["--out", full, "--days", "30", "--start", "2024-10-01", "--seed", "44", "--scale", "2"])
        let nightly = dir.appendingPathComponent("nightly").path
        for day in [6, 12, 18, 24] {
            let (cut, _) = try splitExport(full, at: "2024-10-\(String(format: "%02d", day)) 13:00:00 +0200", in: dir,
                                           named: ("cut-\(day).xml", "unused.xml"))
            XCTAssertEqual(try run(["import", cut, "--out", nightly, "--quiet"]).status, 0)
        }
        XCTAssertEqual(try run(["import", full, "--out", nightly, "--quiet"]).status, 0)
        let fresh = dir.appendingPathComponent("fresh").path
        XCTAssertEqual(try run(["import", full, "--out", fresh, "--full", "--quiet"]).status, 0)
        // Doubles compared by their bits, not their rounded text.
        let sql = "SELECT date, hrv_rmssd_ms, hrv_sdnn_ms, resting_heart_rate, spo2_percent, respiratory_rate FROM daily_vitals ORDER BY date"
        func bits(_ store: String) throws -> [String] {
            try queryRows(store + "/health.sqlite", sql).map { row in
                row.map { $0.double.map { String($0.bitPattern, radix: 16) } ?? ($0.string ?? "null") }.joined(separator: " ")
            }
        }
        let incremental = try bits(nightly), rebuilt = try bits(fresh)
        XCTAssertGreaterThan(rebuilt.count, 20)
        XCTAssertGreaterThan(try query(fresh + "/health.sqlite", "SELECT count(*) FROM hrv_measurements").first.flatMap { Int($0) } ?? 0, 20)
        XCTAssertEqual(incremental.count, rebuilt.count)
        for (a, b) in zip(incremental, rebuilt) where a != b { XCTFail("incremental \(a)\n      full \(b)") }
    }
}
