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
}
