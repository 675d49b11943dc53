import XCTest
import TestSupport

/// Records that reach the export in another order than they happened (a ride that Strava
/// syncs a day late, heart-rate samples uploaded after their workout) end a nightly run where
/// a `--full` import of the newer export ends (issue 56, item 1).
final class LateArrivalTests: XCTestCase {
    private static let watch = "Pat’s Apple Watch", strava = "Strava"

    private static func heartRate(_ bpm: Int, at time: String, created: String) -> String {
        ExportXML.record("HeartRate", source: watch, unit: "count/min", value: "\(bpm)", start: time, end: time, created: created)
    }

    /// A workout without heart-rate statistics (before iOS 16, or an app that sends none): its
    /// figures come from the samples.
    private static func workout(_ activity: String, source: String, start: String, end: String, created: String) -> String {
        #"<Workout workoutActivityType="HKWorkoutActivityType\#(activity)" duration="30" durationUnit="min" sourceName="\#(source)" creationDate="\#(created)" startDate="\#(start)" endDate="\#(end)"/>"#
    }

    /// Night one: the ride's samples (not the ride), the walk (not its samples), half of the
    /// swim's samples. Night two adds the ride, the walk's samples and the rest of the swim's.
    private static let firstNight = [
        heartRate(140, at: "2024-05-01 09:05:00 +0200", created: "2024-05-01 09:40:00 +0200"),
        heartRate(142, at: "2024-05-01 09:15:00 +0200", created: "2024-05-01 09:40:00 +0200"),
        heartRate(144, at: "2024-05-01 09:25:00 +0200", created: "2024-05-01 09:40:00 +0200"),
        workout("Walking", source: watch, start: "2024-05-01 18:00:00 +0200", end: "2024-05-01 18:30:00 +0200",
                created: "2024-05-01 18:31:00 +0200"),
        workout("Swimming", source: watch, start: "2024-05-01 20:00:00 +0200", end: "2024-05-01 20:30:00 +0200",
                created: "2024-05-01 20:31:00 +0200"),
        heartRate(100, at: "2024-05-01 20:05:00 +0200", created: "2024-05-01 20:31:00 +0200"),
        heartRate(102, at: "2024-05-01 20:10:00 +0200", created: "2024-05-01 20:31:00 +0200"),
    ]
    private static let secondNight = [
        workout("Cycling", source: strava, start: "2024-05-01 09:00:00 +0200", end: "2024-05-01 09:30:00 +0200",
                created: "2024-05-02 07:00:00 +0200"),
        heartRate(67, at: "2024-05-01 18:05:00 +0200", created: "2024-05-02 06:00:00 +0200"),
        heartRate(68, at: "2024-05-01 18:10:00 +0200", created: "2024-05-02 06:00:00 +0200"),
        heartRate(69, at: "2024-05-01 18:15:00 +0200", created: "2024-05-02 06:00:00 +0200"),
        heartRate(70, at: "2024-05-01 18:20:00 +0200", created: "2024-05-02 06:00:00 +0200"),
        heartRate(110, at: "2024-05-01 20:20:00 +0200", created: "2024-05-02 06:00:00 +0200"),
    ]

    func testALateWorkoutAndLateSamplesGiveANightlyRunTheFullImportsHeartRates() throws {
        let dir = try temporaryFolder(self)
        let older = dir.appendingPathComponent("older.xml"), newer = dir.appendingPathComponent("newer.xml")
        try ExportXML.document(Self.firstNight, exportDate: "2024-05-01 23:00:00 +0200").write(to: older, atomically: true, encoding: .utf8)
        try ExportXML.document(Self.firstNight + Self.secondNight, exportDate: "2024-05-02 23:00:00 +0200")
            .write(to: newer, atomically: true, encoding: .utf8)
        let pipeline = dir.appendingPathComponent("pipeline.json")
        try #"{"outputs": ["sqlite", "csv", "fhir"]}"#.write(to: pipeline, atomically: true, encoding: .utf8)

        let nightly = dir.appendingPathComponent("nightly").path, fresh = dir.appendingPathComponent("fresh").path
        _ = try importJSON(older.path, nightly, ["--pipeline", pipeline.path])
        XCTAssertEqual(try importJSON(newer.path, nightly, ["--pipeline", pipeline.path])["mode"] as? String, "incremental")
        _ = try importJSON(newer.path, fresh, ["--pipeline", pipeline.path, "--full"])

        let figures = "SELECT activity_type || ' ' || ifnull(avg_heart_rate, '-') || '/' || ifnull(min_heart_rate, '-') || '/' || ifnull(max_heart_rate, '-') FROM workouts ORDER BY start_us"
        // The hand count: the samples that start inside each workout.
        let expected = ["HKWorkoutActivityTypeCycling 142.0/140.0/144.0", "HKWorkoutActivityTypeWalking 68.5/67.0/70.0",
                        "HKWorkoutActivityTypeSwimming 104.0/100.0/110.0"]
        XCTAssertEqual(try query(fresh + "/health.sqlite", figures), expected)
        XCTAssertEqual(try query(nightly + "/health.sqlite", figures), expected)
        XCTAssertEqual(try queryRows(nightly + "/health.sqlite", "SELECT * FROM workouts ORDER BY id"),
                       try queryRows(fresh + "/health.sqlite", "SELECT * FROM workouts ORDER BY id"))
        XCTAssertEqual(try analyticsSnapshot(nightly + "/health.sqlite"), try analyticsSnapshot(fresh + "/health.sqlite"))
        for name in ["csv/workouts.csv", "csv/workout_details.csv", "csv/daily.csv", "fhir/Observation.ndjson", "fhir/Device.ndjson"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: nightly + "/" + name))
            XCTAssertEqual(a, try Data(contentsOf: URL(fileURLWithPath: fresh + "/" + name)), name)
            XCTAssertGreaterThan(a.count, 0, name)
        }
    }
}
