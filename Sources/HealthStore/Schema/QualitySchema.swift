import SQLite

/// Version 6, issue 32 (docs/data-quality.md): reconciliation, data quality and the source
/// inventory. Kept in a block of its own so another version-6 addition merges beside it.
/// The store's `sources` table holds source ids; the inventory is `source_inventory` in the
/// store and `sources` in the files and HealthQL.
extension StoreSchema {
    /// The version that added these tables: a store upgraded from an earlier one has them empty
    /// until the next run fills every day.
    package static let qualityVersion = 6

    package static let qualityTables = """
    CREATE TABLE IF NOT EXISTS reconciliation (
        date TEXT NOT NULL, metric TEXT NOT NULL, merged REAL, all_sources_sum REAL NOT NULL,
        overlap_removed REAL, source_count INTEGER NOT NULL, rings REAL, rings_difference REAL,
        rings_disagree INTEGER, duplicates_dropped INTEGER, PRIMARY KEY (date, metric)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS reconciliation_sources (
        date TEXT NOT NULL, metric TEXT NOT NULL, source_name TEXT NOT NULL, device_model TEXT,
        total REAL NOT NULL, samples INTEGER NOT NULL, priority INTEGER);
    CREATE UNIQUE INDEX IF NOT EXISTS reconciliation_source_key
        ON reconciliation_sources (date, metric, source_name, ifnull(device_model, ''));
    CREATE TABLE IF NOT EXISTS data_quality (
        date TEXT PRIMARY KEY, watch_hours INTEGER NOT NULL, phone_hours INTEGER NOT NULL,
        source_count INTEGER NOT NULL, valid_day INTEGER NOT NULL, partial_day INTEGER NOT NULL,
        time_zone TEXT, utc_offset TEXT) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS source_inventory (
        source_name TEXT NOT NULL, device_model TEXT, type TEXT NOT NULL, records INTEGER NOT NULL,
        first_seen TEXT NOT NULL, last_seen TEXT NOT NULL, priority INTEGER);
    CREATE UNIQUE INDEX IF NOT EXISTS source_inventory_key ON source_inventory (source_name, ifnull(device_model, ''), type);
    """
}
