import XCTest
@testable import HealthEmit
import TestSupport

/// Nightly runs over a fresh (cumulative) export add only what is new, and end where a fresh
/// `--full` import of the newer export ends.
final class IncrementalRunTests: XCTestCase {
    func testNightlyRunEqualsAFullImportOfTheNewerExport() throws {
        let dir = try temporaryFolder(self)
        let full = dir.appendingPathComponent("full.xml").path
        try generateExport(["--out", full, "--days", "24", "--start", "2024-10-10", "--seed", "21"])
        let (older, newer) = try splitExport(full, at: "2024-11-02 00:00:00 +0100", in: dir)

        let nightly = dir.appendingPathComponent("nightly").path
        let first = try importJSON(older, nightly)
        XCTAssertEqual(first["mode"] as? String, "full")
        let second = try importJSON(newer, nightly)
        XCTAssertEqual(second["mode"] as? String, "incremental")
        XCTAssertGreaterThan(second["skipped_by_anchor"] as? Int ?? 0, (first["samples"] as? Int ?? 0) * 9 / 10,
                             "records already imported are skipped by their anchors")
        XCTAssertGreaterThan(second["new_samples"] as? Int ?? 0, 0)
        XCTAssertLessThan(second["touched_days"] as? Int ?? 99, 12, "only days near the new ones and the backfill are recomputed")

        let fresh = dir.appendingPathComponent("fresh").path
        _ = try importJSON(newer, fresh, ["--full"])
        let incremental = try analyticsSnapshot(nightly + "/health.sqlite"), rebuilt = try analyticsSnapshot(fresh + "/health.sqlite")
        XCTAssertEqual(incremental.count, rebuilt.count)
        XCTAssertGreaterThan(incremental.count, 200)
        for (a, b) in zip(incremental, rebuilt) where a != b { XCTFail("incremental \(a)\n      full \(b)") }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: nightly + "/csv/daily.csv")),
                       try Data(contentsOf: URL(fileURLWithPath: fresh + "/csv/daily.csv")))

        // The workouts and correlations the store held were not written to the run's delta
        // (`StoredIdentities`): only the new ones were, and the store ends as a full import's.
        XCTAssertEqual(second["workouts"] as? Int, second["new_workouts"] as? Int)
        XCTAssertGreaterThan(first["workouts"] as? Int ?? 0, 0, "the older export holds workouts the newer repeats")
        for table in [
            "SELECT id, activity_type, start_utc, end_utc, duration_min, distance_m, energy_kcal, avg_heart_rate, metadata FROM workouts",
            "SELECT workout_id, activity_ordinal, type, date_utc, duration_min, metadata FROM workout_events",
            "SELECT workout_id, activity_ordinal, type, start_utc, sum, average, minimum, maximum, unit FROM workout_statistics",
            "SELECT r.workout_id, r.start_utc, count(p.route_id) FROM workout_routes r LEFT JOIN workout_route_points p ON p.route_id = r.id GROUP BY r.id",
            "SELECT identity, type, start_utc, end_utc, metadata FROM correlations",
        ] {
            let ordered = "SELECT * FROM (\(table)) ORDER BY 1, 2, 3"
            let rows = try queryRows(fresh + "/health.sqlite", ordered)
            XCTAssertFalse(rows.isEmpty && !table.contains("correlations"), table)
            XCTAssertEqual(try queryRows(nightly + "/health.sqlite", ordered), rows, table)
        }

        // The anchors (kept by the load as rows arrive, raised by each merge) are the newest
        // creation instant per type and source name among the stored samples.
        let anchors = "SELECT type || '|' || source_name || '|' || newest_creation_us FROM anchors ORDER BY 1"
        let newest = """
            SELECT t.identifier || '|' || src.name || '|' || max(s.created_us) FROM sample_data s
            JOIN types t ON t.id = s.type_id JOIN sources src ON src.id = s.source_id
            WHERE s.created_us IS NOT NULL GROUP BY t.identifier, src.name ORDER BY 1
            """
        let freshAnchors = try query(fresh + "/health.sqlite", anchors)
        XCTAssertGreaterThan(freshAnchors.count, 5)
        XCTAssertEqual(freshAnchors, try query(fresh + "/health.sqlite", newest))
        XCTAssertEqual(try query(nightly + "/health.sqlite", anchors), freshAnchors)

        // The same records in another file (a copy: another modification time) are read again,
        // skipped by their anchors, and change nothing and rewrite nothing: not even the store,
        // whose history keeps the runs that published (`NothingNew`).
        let copy = dir.appendingPathComponent("n1-copy.xml").path
        try FileManager.default.copyItem(atPath: newer, toPath: copy)
        let before = try FileManager.default.attributesOfItem(atPath: nightly + "/parquet/samples.parquet")[.modificationDate] as? Date
        let third = try importJSON(copy, nightly)
        XCTAssertEqual(third["mode"] as? String, "nothing-new")
        XCTAssertEqual(third["new_samples"] as? Int, 0)
        XCTAssertEqual(third["touched_days"] as? Int, 0)
        XCTAssertGreaterThan(third["skipped_by_anchor"] as? Int ?? 0, 0)
        XCTAssertEqual(third["workouts"] as? Int, 0, "every workout of the copy is in the store: none written")
        XCTAssertEqual(third["correlations"] as? Int, 0)
        let after = try FileManager.default.attributesOfItem(atPath: nightly + "/parquet/samples.parquet")[.modificationDate] as? Date
        XCTAssertEqual(before, after)
        XCTAssertEqual(try analyticsSnapshot(nightly + "/health.sqlite"), rebuilt)
        XCTAssertEqual(try query(nightly + "/health.sqlite", "SELECT count(*) FROM runs"), ["2"])
    }
}
