extension StoreSchema {
    /// Version 6's tables as that version created them: the vitals (issue 31, as merged at
    /// dcf22bb) and the data quality (issue 32, cd0f3d2). Kept apart from the fresh schema's
    /// `vitalsTables` and `qualityTables`, which have moved on (`reconciliation.duplicates_dropped`
    /// in version 7, `workout_details.duplicate_of` and `counted_workouts` in 8): the step to 6
    /// leaves what version 6 left, for the steps after it to find. Never edited.
    static let version6Tables = """
    CREATE TABLE IF NOT EXISTS daily_vitals (
        date TEXT PRIMARY KEY, resting_heart_rate REAL, walking_heart_rate REAL, hrv_sdnn_ms REAL, hrv_rmssd_ms REAL,
        vo2_max REAL, weight_kg REAL, bmi REAL, body_fat_percent REAL, systolic_mmhg REAL, diastolic_mmhg REAL,
        spo2_percent REAL, respiratory_rate REAL, wrist_temperature_degc REAL, blood_glucose_mg_dl REAL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS blood_pressure (
        correlation_id INTEGER PRIMARY KEY, local_date TEXT NOT NULL, time_utc TEXT NOT NULL,
        systolic_mmhg REAL, diastolic_mmhg REAL, source_name TEXT);
    CREATE TABLE IF NOT EXISTS hrv_measurements (
        sample_id INTEGER PRIMARY KEY, local_date TEXT NOT NULL, start_utc TEXT NOT NULL, source_name TEXT,
        beats INTEGER NOT NULL, intervals INTEGER NOT NULL, mean_nn_ms REAL, sdnn_ms REAL, rmssd_ms REAL,
        pnn50_percent REAL, apple_sdnn_ms REAL, note TEXT);
    CREATE INDEX IF NOT EXISTS hrv_measurement_date ON hrv_measurements (local_date);
    CREATE TABLE IF NOT EXISTS workout_details (
        workout_id INTEGER PRIMARY KEY, local_date TEXT, activity TEXT NOT NULL, local_start TEXT, local_end TEXT,
        duration_min REAL, distance_m REAL, energy_kcal REAL, avg_heart_rate REAL, max_heart_rate REAL,
        heart_rate_samples INTEGER NOT NULL, zone1_seconds REAL, zone2_seconds REAL, zone3_seconds REAL,
        zone4_seconds REAL, zone5_seconds REAL, zone_max_heart_rate REAL, route_distance_m REAL,
        elevation_gain_m REAL, pace_min_per_km REAL, note TEXT);
    CREATE INDEX IF NOT EXISTS workout_detail_date ON workout_details (local_date);
    CREATE TABLE IF NOT EXISTS reconciliation (
        date TEXT NOT NULL, metric TEXT NOT NULL, merged REAL, all_sources_sum REAL NOT NULL,
        overlap_removed REAL, source_count INTEGER NOT NULL, rings REAL, rings_difference REAL,
        rings_disagree INTEGER, PRIMARY KEY (date, metric)) WITHOUT ROWID;
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
