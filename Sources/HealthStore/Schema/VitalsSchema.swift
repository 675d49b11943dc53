import SQLite

/// Version 6, issue 31 (docs/vitals-hrv-workouts.md): daily vitals, blood-pressure readings, HRV
/// measurements from beat lists and readable workouts, as a new store has them (the step that
/// upgrades an older store keeps version 6's own: `version6Tables`).
extension StoreSchema {
    /// The version whose tables these are.
    /// 7 (issue 44): `workout_details.duplicate_of`, the `counted_workouts` view.
    package static let vitalsVersion = 7

    package static let vitalsTables = """
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
        elevation_gain_m REAL, pace_min_per_km REAL, note TEXT, duplicate_of INTEGER);
    CREATE INDEX IF NOT EXISTS workout_detail_date ON workout_details (local_date);
    \(countedWorkoutsView)
    """

    /// Version 8 (issue 44): the workouts a query counts, a copy recorded by another app left out.
    package static let countedWorkoutsView = """
    CREATE VIEW IF NOT EXISTS counted_workouts AS
        SELECT w.* FROM workouts w WHERE NOT EXISTS
          (SELECT 1 FROM workout_details d WHERE d.workout_id = w.id AND d.duplicate_of IS NOT NULL);
    """
}
