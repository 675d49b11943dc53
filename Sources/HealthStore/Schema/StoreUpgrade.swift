import HealthCore
import SQLite

extension StoreSchema {
    /// Brings a store of `oldestUpgradable` or later to `version`: every step of `migrations`
    /// whose version is above the store's `PRAGMA user_version` runs, oldest first, and sets
    /// `user_version` to its version in the same transaction. Inside the caller's transaction
    /// each step is a savepoint of it, so the caller's rollback undoes them all; outside any,
    /// each step commits on its own, and a kill between two steps leaves a store of the
    /// version the first one reached, which the next upgrade carries on from.
    ///
    /// A store of a later version than this program's is left as it is (no step is above it).
    /// An older store than `oldestUpgradable` is rebuilt by the callers, never upgraded.
    ///
    /// `steps`: the list to follow (tests hand in a faulty one).
    package static func upgrade(_ database: Database, steps: [SchemaMigration] = migrations) throws {
        if let problem = SchemaMigration.problem(in: steps, from: oldestUpgradable, to: version) {
            throw HealthETLError.internal("the store's upgrade steps are out of order: \(problem)")
        }
        let stored = Int(try database.scalar("PRAGMA user_version").int ?? 0)
        guard stored >= oldestUpgradable else {
            throw HealthETLError.internal(
                "\(database.path) is of version \(stored), older than \(oldestUpgradable): it is rebuilt, not upgraded")
        }
        for migration in steps where migration.version > stored {
            try database.transaction {
                try migration.step(database)
                try database.execute("PRAGMA user_version = \(migration.version)")
            }
        }
    }

    /// The column names of `table` (none when the store has no such table).
    static func columns(of table: String, in database: Database) throws -> [String] {
        try database.rows("SELECT name FROM pragma_table_info('\(table)')").compactMap { $0.first?.string }
    }

    /// `ALTER TABLE table ADD COLUMN definition`, unless the table has that column already.
    static func addColumn(_ definition: String, to table: String, in database: Database) throws {
        let name = String(definition.prefix { $0 != " " })
        guard !(try columns(of: table, in: database).contains(name)) else { return }
        try database.execute("ALTER TABLE \(table) ADD COLUMN \(definition)")
    }
}
