import Foundation
import HealthCore
import SQLite

/// How far an anchor may move: never past the export's `ExportDate`, nor past now. A record
/// created after that (a phone with a wrong clock, an app that writes future plans: a real
/// export holds steps dated 2030) is kept, but if it moved its anchor, every later export's
/// records created before 2030 would count as already imported and be dropped.
package enum AnchorCeiling {
    /// Now, in µs since 1970.
    package static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }

    /// The ceiling for an export made at `exportDate`.
    package static func of(exportDate: Timestamp?) -> Int64 {
        min(exportDate?.microseconds ?? .max, now)
    }

    /// The ceiling of the export whose profile a store holds (its newest export).
    package static func of(store database: Database) throws -> Int64 {
        of(exportDate: try database.scalar("SELECT export_date_utc FROM profile WHERE id = 1").string
            .flatMap(Timestamp.init(iso8601:)))
    }

    /// Moves back every anchor past `ceiling` to the newest creation at or before it among the
    /// stored samples of its pair: stores written before anchors had a ceiling may hold one in
    /// 2030. Cheap when there is none (one indexed-free scan of the small anchors table).
    package static func repairAnchors(in database: Database, ceiling: Int64) throws {
        guard try database.scalar("SELECT count(*) FROM anchors WHERE newest_creation_us > ?", [.integer(ceiling)]).int ?? 0 > 0
        else { return }
        try database.rows("""
            UPDATE anchors SET newest_creation_us = coalesce((
                SELECT max(s.created_us) FROM sample_data s JOIN types t ON t.id = s.type_id
                  JOIN sources src ON src.id = s.source_id
                WHERE t.identifier = anchors.type AND src.name = anchors.source_name AND s.created_us <= ?1), 0)
            WHERE newest_creation_us > ?1
            """, [.integer(ceiling)])
    }
}
