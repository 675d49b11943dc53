import SQLite

extension StoreSchema {
    /// Version 9 (issue 48): the person's zone timeline, built from the store's own
    /// `HKTimeZone` evidence after every run. `zone_timeline`: the stretches, each from
    /// `start_us` (NULL: from the beginning) to the next one's start, in one IANA zone;
    /// `zone_windows`: the spans where a switch between two zones is a guess (no evidence in
    /// them), whose local days are travel days. Derived data: a run rewrites both.
    package static let zoneTables = """
    CREATE TABLE IF NOT EXISTS zone_timeline (start_us INTEGER UNIQUE, zone TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS zone_windows (from_us INTEGER NOT NULL, to_us INTEGER NOT NULL);
    """
}
