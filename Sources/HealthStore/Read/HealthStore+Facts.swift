import HealthCore
import SQLite

/// What the pipeline, the dataset and the analytics ask of a store, as questions rather than
/// SQL: the store owns its tables, and no other target writes a statement against them
/// (issue 47; `scripts/check-module-graph.py` rejects SQL outside SQLite, HealthStore and
/// HealthQL).
extension HealthStore {
    /// The store's schema version (`PRAGMA user_version`).
    package func schemaVersion() throws -> Int { Int(try database.scalar("PRAGMA user_version").int ?? 0) }

    /// Days with analytics.
    package func dayCount() throws -> Int { Int(try database.scalar("SELECT count(*) FROM daily_analytics").int ?? 0) }

    /// The first day with analytics.
    package func firstAnalyticsDay() throws -> CivilDate? {
        try database.scalar("SELECT min(date) FROM daily_analytics").string.flatMap { CivilDate(iso: $0) }
    }

    package func sleepNightCount() throws -> Int { Int(try database.scalar("SELECT count(*) FROM sleep_sessions").int ?? 0) }

    package func sampleCount() throws -> Int { Int(try database.scalar("SELECT count(*) FROM sample_data").int ?? 0) }

    /// The export's own date as stored in the profile (ISO 8601, UTC), if the export had one.
    package func exportDateText() throws -> String? {
        try database.scalar("SELECT export_date_utc FROM profile WHERE id = 1").string
    }

    /// The zone the analytics were computed in, by name.
    package func storedZoneName() throws -> String? {
        try StoreSettings.value(of: "zone_name", in: database)
    }

    /// The settings the outputs were last written with (`OutputSettings`' line), or nil.
    package func outputsFingerprint() throws -> String? {
        try StoreSettings.value(of: "outputs", in: database)
    }

    package func recordOutputsFingerprint(_ line: String) throws {
        try database.rows("INSERT OR REPLACE INTO settings (key, value) VALUES ('outputs', ?)", [.text(line)])
    }

    /// Anchors newer than `ceiling` (a creation date past the export's: the anchors need repair).
    package func anchorCount(newerThan ceiling: Int64) throws -> Int {
        Int(try database.scalar("SELECT count(*) FROM anchors WHERE newest_creation_us > ?", [.integer(ceiling)]).int ?? 0)
    }

    /// Every anchor: the newest creation date (µs) seen for a type from a source.
    package func anchors() throws -> [(type: String, source: String, newestCreation: Int64)] {
        try database.rows("SELECT type, source_name, newest_creation_us FROM anchors").compactMap { row in
            guard let type = row[0].string, let source = row[1].string, let us = row[2].int else { return nil }
            return (type, source, us)
        }
    }

    /// The start and end (µs) of every sample from `firstID` on, one by one.
    package func sampleSpans(fromID firstID: Int64, _ visit: (_ start: Int64, _ end: Int64) -> Void) throws {
        let samples = try database.prepare("SELECT start_us, end_us FROM sample_data WHERE id >= ?")
        samples.bind(1, firstID)
        while try samples.step() { visit(samples.int64(0), samples.int64(1)) }
    }

    /// The first and last local day (days since 1970) with samples.
    package func sampleLocalDays() throws -> ClosedRange<Int>? {
        guard let row = try database.rows("SELECT min(local_day), max(local_day) FROM sample_data").first,
              let first = row[0].int, let last = row[1].int else { return nil }
        return Int(first)...Int(max(first, last))
    }

    /// Samples whose local day is in `days` (days since 1970).
    package func sampleCount(localDays days: Range<Int>) throws -> Int {
        Int(try database.scalar("SELECT count(*) FROM sample_data WHERE local_day >= ? AND local_day < ?",
                                [.integer(Int64(days.lowerBound)), .integer(Int64(days.upperBound))]).int ?? 0)
    }
}

/// The store's upkeep between runs, for the pipeline that stages and publishes it.
extension HealthStore {
    /// A rollback journal, not a write-ahead log (a store of an earlier version may carry one):
    /// a private working copy, committed once.
    package func useRollbackJournal() throws { try database.execute("PRAGMA journal_mode = DELETE") }

    /// Raises each (type, source)'s anchor to the newest creation date among the samples from
    /// `fromSampleID` on, up to `ceiling`.
    package func recordAnchors(fromSampleID: Int64, ceiling: Int64) throws {
        try database.rows("""
            INSERT INTO anchors (type, source_name, newest_creation_us)
              SELECT t.identifier, src.name, max(s.created_us) FROM sample_data s
              JOIN types t ON t.id = s.type_id JOIN sources src ON src.id = s.source_id
              WHERE s.id >= ? AND s.created_us IS NOT NULL AND s.created_us <= ? GROUP BY t.identifier, src.name
            ON CONFLICT (type, source_name) DO UPDATE
              SET newest_creation_us = max(newest_creation_us, excluded.newest_creation_us)
            """, [.integer(fromSampleID), .integer(ceiling)])
    }

    /// Each route's count of points, where it is not set yet (routes added by this run).
    package func countRoutePoints() throws {
        try database.execute("""
            UPDATE workout_routes SET point_count =
              (SELECT count(*) FROM workout_route_points p WHERE p.route_id = workout_routes.id) WHERE point_count = 0;
            """)
    }

    /// Forgets the load's resume point (the load is complete).
    package func clearLoadCheckpoint() throws { try database.execute("DELETE FROM load_checkpoint") }

    /// `reset --keep-profile`: the analytics and anchors go, in one transaction; the samples
    /// and profile stay, so the next import checks every record and recomputes every day.
    package func clearAnalyticsAndAnchors() throws {
        try database.transaction {
            try AnalyticsWriter(database: database).clear()
            try CycleStore(database: database).clear()
            try database.execute("DELETE FROM anchors")
        }
    }
}
