import SQLite

/// Version 7 (docs/data-quality.md, "Exact duplicates"): the exact copies dropped at load,
/// kept per record, so that `reconciliation.duplicates_dropped` can say per day and metric
/// how many there were.
///
/// A row per record that had copies: its identity, type, local day and how many copies of it
/// were dropped. Per record, not per day, because a nightly run's delta must tell the copies of
/// a record new to the store (counted) from the copies of one the store already holds
/// (counted when that record was first imported): only the merge knows which records are new.
extension StoreSchema {
    package static let duplicatesVersion = 7

    package static let duplicateTables = """
    CREATE TABLE IF NOT EXISTS duplicate_copies (
        identity INTEGER PRIMARY KEY, type_id INTEGER NOT NULL, local_day INTEGER NOT NULL, copies INTEGER NOT NULL);
    """

    /// `settings` key of a store upgraded from before `duplicatesVersion` that held samples: the
    /// last local day (ISO) it had data for. The copies of what it loaded then were never counted,
    /// so `duplicates_dropped` is NULL (unknown) on that day and every day before it.
    package static let duplicatesUnknownThroughKey = "duplicates_unknown_through"

    /// Version 7 in an older store: the table, the marker of the days whose copies are unknown
    /// (in one transaction, so that a second run finds both or neither) and the reconciliation's
    /// column (NULL on the rows already there). Twice is harmless.
    static func addDuplicateCopies(_ database: Database) throws {
        if !(try database.hasTable("duplicate_copies")) {
            try database.transaction {
                try database.execute("""
                    \(duplicateTables)
                    INSERT OR REPLACE INTO settings (key, value)
                      SELECT '\(duplicatesUnknownThroughKey)', date(max(local_day) * 86400, 'unixepoch') FROM sample_data
                      HAVING count(*) > 0;
                    """)
            }
        }
        let columns = try database.rows("SELECT name FROM pragma_table_info('reconciliation')").compactMap { $0.first?.string }
        if !columns.contains("duplicates_dropped") {
            try database.execute("ALTER TABLE reconciliation ADD COLUMN duplicates_dropped INTEGER")
        }
    }
}
