import SQLite

/// Version 12 (issue 60, docs/cycles.md): menstrual cycles, one row a cycle (`cycles`) and one
/// a day with something recorded or inside a period (`cycle_days`). Derived data: every run
/// rewrites both from the stored cycle records.
extension StoreSchema {
    package static let cycleTables = """
    CREATE TABLE IF NOT EXISTS cycles (
        start_date TEXT PRIMARY KEY, next_start_date TEXT, complete INTEGER NOT NULL, period_days INTEGER,
        cycle_length_days INTEGER, start_from TEXT NOT NULL, flow_light_days INTEGER NOT NULL,
        flow_medium_days INTEGER NOT NULL, flow_heavy_days INTEGER NOT NULL, flow_unspecified_days INTEGER NOT NULL,
        spotting_days INTEGER NOT NULL, ovulation_positive_date TEXT, ovulation_tests INTEGER NOT NULL,
        flow_records INTEGER NOT NULL, sources TEXT, notices TEXT) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS cycle_days (
        date TEXT PRIMARY KEY, cycle_start TEXT, cycle_day INTEGER, in_period INTEGER NOT NULL, flow TEXT,
        spotting INTEGER NOT NULL, ovulation_test TEXT, cervical_mucus TEXT, basal_temperature_degc REAL,
        sexual_activity INTEGER NOT NULL, notices TEXT) WITHOUT ROWID;
    """
}
