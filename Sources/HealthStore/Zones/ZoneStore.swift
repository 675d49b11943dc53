import HealthCore
import SQLite

/// The time-zone evidence a store holds and the zone timeline kept from it (issue 48). The
/// evidence is what the Watch and the phone wrote: `HKTimeZone` metadata (an IANA name) on
/// sleep samples and on workouts, read at the record's start. The timeline itself is built in
/// HealthCore (`ZoneTimeline`); the store only keeps it, so that `people show`, the run summary
/// and the next run can read it without rebuilding it.
package struct ZoneStore {
    let database: Database

    package init(database: Database) { self.database = database }

    /// The metadata key of the evidence.
    package static let metadataKey = "HKTimeZone"

    /// Every `HKTimeZone` of the stored sleep samples and workouts with its record's start, in
    /// time order. Reads the sleep samples through the (type, start) index and the workouts
    /// whole: a year holds a few thousand of each.
    package func evidence() throws -> [ZoneEvidence] {
        try database.rows("""
            SELECT s.start_us, json_extract(s.metadata, '$.HKTimeZone')
            FROM sample_data s JOIN types t ON t.id = s.type_id
            WHERE t.identifier = ? AND s.metadata LIKE '%HKTimeZone%' AND json_valid(s.metadata)
            UNION ALL \(Self.workoutEvidenceQuery)
            ORDER BY 1
            """, [.text(QualityStore.sleep)]).compactMap(Self.evidence)
    }

    /// The workouts' part of `evidence()`, in no order: what a full load's sink did not gather
    /// (`SQLiteSink.sleepZoneEvidence`). Needs no index (a few thousand workouts).
    package func workoutEvidence() throws -> [ZoneEvidence] {
        try database.rows(Self.workoutEvidenceQuery).compactMap(Self.evidence)
    }

    private static let workoutEvidenceQuery = """
        SELECT start_us, json_extract(metadata, '$.HKTimeZone') FROM workouts
        WHERE metadata LIKE '%HKTimeZone%' AND json_valid(metadata) AND start_us IS NOT NULL
        """

    private static func evidence(_ row: [SQLValue]) -> ZoneEvidence? {
        guard let start = row[0].int, let zone = row[1].string else { return nil }
        return ZoneEvidence(instant: Timestamp(microseconds: start), zone: zone)
    }

    /// The timeline the last run kept, nil when the store has none yet (a store of version 8).
    package func storedTimeline(home: String) throws -> ZoneTimeline? {
        guard try database.rows("SELECT 1 FROM sqlite_master WHERE name = 'zone_timeline'").isEmpty == false else { return nil }
        let stretches = try database.rows("SELECT start_us, zone FROM zone_timeline ORDER BY start_us IS NOT NULL, start_us")
            .compactMap { row -> ZoneTimeline.Stretch? in
                guard let zone = row[1].string else { return nil }
                return ZoneTimeline.Stretch(start: row[0].int.map { Timestamp(microseconds: $0) }, zone: zone)
            }
        guard !stretches.isEmpty else { return nil }
        let windows = try database.rows("SELECT from_us, to_us FROM zone_windows ORDER BY from_us").compactMap { row -> ZoneTimeline.Window? in
            guard let from = row[0].int, let to = row[1].int else { return nil }
            return ZoneTimeline.Window(from: Timestamp(microseconds: from), to: Timestamp(microseconds: to))
        }
        return ZoneTimeline(stretches: stretches, windows: windows, home: home)
    }

    /// Replaces the kept timeline, inside the caller's transaction.
    package func replace(with timeline: ZoneTimeline) throws {
        try database.execute(StoreSchema.zoneTables)
        try database.execute("DELETE FROM zone_timeline; DELETE FROM zone_windows;")
        let stretch = try database.prepare("INSERT INTO zone_timeline (start_us, zone) VALUES (?, ?)")
        for s in timeline.stretches {
            try stretch.bind([s.start.map { .integer($0.microseconds) } ?? .null, .text(s.zone)])
            try stretch.run()
        }
        let window = try database.prepare("INSERT INTO zone_windows (from_us, to_us) VALUES (?, ?)")
        for w in timeline.windows {
            try window.bind([.integer(w.from.microseconds), .integer(w.to.microseconds)])
            try window.run()
        }
    }
}
