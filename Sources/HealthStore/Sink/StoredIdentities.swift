import SQLite

/// The workouts and correlations a published store already holds, by the keys the store
/// merges them by (a workout's id, a correlation's identity). An incremental run's sink does
/// not write them again: the merge would keep the published ones and drop these anyway, and
/// every nightly run over a new export file would otherwise parse, write and compare each
/// workout of the file, with its events, statistics and route points.
package struct StoredIdentities: Sendable {
    package var workouts: Set<Int64> = []
    package var correlations: Set<UInt64> = []

    package init() {}

    /// Read from a store (a few thousand rows at most).
    package static func read(from database: Database) throws -> StoredIdentities {
        var stored = StoredIdentities()
        for row in try database.rows("SELECT id FROM workouts") {
            if let id = row[0].int { stored.workouts.insert(id) }
        }
        for row in try database.rows("SELECT identity FROM correlations") {
            if let identity = row[0].int { stored.correlations.insert(UInt64(bitPattern: identity)) }
        }
        return stored
    }
}
