/// Every shape the store's schema has had on main since version 3, from git history: each is
/// the fresh schema (`StoreSchema.tables`, `indexes`, `views`) of the commits named, evaluated
/// from `git show COMMIT:Sources/HealthStore/Schema/` and that commit's `DailyMetric`, as SQLite
/// keeps it in `sqlite_master`. A shape lists only the statements that differ from the shape
/// before it (a table whose columns changed is there whole, in its new shape).
///
/// Versions 5 and 6 each have two: main reached them in two merges, and a store made between
/// the two has the first half. Stores of version 3 from before af57df9 differ from its shape
/// here in ways no upgrade has ever touched (two indexes dropped since; before a630313, no
/// `load_checkpoint`). A new version adds its shape at the end: the statements of its fresh store
/// that differ (StoreUpgradeTests fails until the last shape is the fresh schema).
enum StoreSchemaHistory {
    struct Shape {
        let version: Int
        /// The commits on main that made stores of this shape.
        let commits: String
        /// `CREATE` statements, each ending in `;` at the end of a line.
        let statements: String
    }

    static let shapes: [Shape] = [
        Shape(version: 3, commits: "af57df9 … f754f36 (version 3 came with a8f8dbc)", statements: """
        CREATE TABLE types (id INTEGER PRIMARY KEY, identifier TEXT NOT NULL UNIQUE);
        CREATE TABLE sources (
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, version TEXT, device TEXT,
            device_model TEXT, device_hardware TEXT,
            UNIQUE (name, version, device));
        CREATE TABLE sample_data (
            id INTEGER PRIMARY KEY, type_id INTEGER NOT NULL, source_id INTEGER NOT NULL,
            start_us INTEGER NOT NULL, end_us INTEGER NOT NULL, created_us INTEGER,
            local_day INTEGER NOT NULL, value REAL, unit TEXT, raw_value TEXT, raw_unit TEXT,
            category_value TEXT, metadata TEXT, identity INTEGER NOT NULL, line INTEGER,
            user_entered INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE heartbeat_data (sample_id INTEGER NOT NULL, time_us INTEGER, bpm REAL);
        CREATE TABLE correlations (
            id INTEGER PRIMARY KEY, type TEXT NOT NULL, source_id INTEGER, start_utc TEXT, end_utc TEXT,
            creation_utc TEXT, metadata TEXT, identity INTEGER NOT NULL);
        CREATE TABLE correlation_members (
            correlation_id INTEGER NOT NULL, type TEXT NOT NULL, value REAL, unit TEXT,
            raw_value TEXT, raw_unit TEXT, start_utc TEXT, end_utc TEXT);
        CREATE TABLE workouts (
            id INTEGER PRIMARY KEY, activity_type TEXT NOT NULL, source_name TEXT, source_version TEXT,
            device_model TEXT, start_utc TEXT, end_utc TEXT, creation_utc TEXT, local_date TEXT,
            duration_min REAL, distance_m REAL, energy_kcal REAL,
            avg_heart_rate REAL, min_heart_rate REAL, max_heart_rate REAL,
            swimming_strokes REAL, flights_climbed REAL, metadata TEXT, start_us INTEGER, end_us INTEGER);
        CREATE TABLE workout_activities (
            workout_id INTEGER NOT NULL, ordinal INTEGER NOT NULL, uuid TEXT, activity_type TEXT,
            start_utc TEXT, end_utc TEXT, duration_min REAL, metadata TEXT);
        CREATE TABLE workout_events (
            workout_id INTEGER NOT NULL, activity_ordinal INTEGER, type TEXT NOT NULL,
            date_utc TEXT, duration_min REAL, metadata TEXT);
        CREATE TABLE workout_statistics (
            workout_id INTEGER NOT NULL, activity_ordinal INTEGER, type TEXT NOT NULL,
            start_utc TEXT, end_utc TEXT, sum REAL, average REAL, minimum REAL, maximum REAL,
            unit TEXT, raw_unit TEXT);
        CREATE TABLE workout_routes (
            id INTEGER PRIMARY KEY, workout_id INTEGER NOT NULL, source_name TEXT,
            start_utc TEXT, end_utc TEXT, file_path TEXT, point_count INTEGER NOT NULL DEFAULT 0, metadata TEXT);
        CREATE TABLE workout_route_points (
            route_id INTEGER NOT NULL, time_utc TEXT, latitude REAL NOT NULL, longitude REAL NOT NULL,
            altitude REAL, horizontal_accuracy REAL, vertical_accuracy REAL, course REAL, speed REAL);
        CREATE TABLE activity_summaries (
            date TEXT PRIMARY KEY, active_energy_kcal REAL, active_energy_goal_kcal REAL,
            move_time_min REAL, move_time_goal_min REAL, exercise_min REAL, exercise_goal_min REAL,
            stand_hours REAL, stand_hours_goal REAL);
        CREATE TABLE profile (
            id INTEGER PRIMARY KEY CHECK (id = 1), date_of_birth TEXT, biological_sex TEXT, blood_type TEXT,
            fitzpatrick_skin_type TEXT, cardio_fitness_medications_use TEXT, locale TEXT, export_date_utc TEXT,
            characteristics TEXT, updated_at TEXT);
        CREATE TABLE clinical_records (
            id INTEGER PRIMARY KEY, type TEXT, identifier TEXT, source_name TEXT, source_url TEXT,
            fhir_version TEXT, received_utc TEXT, resource_file_path TEXT,
            UNIQUE (type, identifier, resource_file_path));
        CREATE TABLE audiograms (id INTEGER PRIMARY KEY, source_name TEXT, start_utc TEXT, end_utc TEXT, metadata TEXT);
        CREATE TABLE audiogram_points (
            audiogram_id INTEGER NOT NULL, frequency_hz REAL, left_ear_dbhl REAL, right_ear_dbhl REAL, attributes TEXT);
        CREATE TABLE vision_prescriptions (
            id INTEGER PRIMARY KEY, type TEXT, date_issued_utc TEXT, expiration_utc TEXT, brand TEXT,
            right_eye TEXT, left_eye TEXT, attachments TEXT);
        CREATE TABLE anchors (
            type TEXT NOT NULL, source_name TEXT NOT NULL, newest_creation_us INTEGER NOT NULL,
            PRIMARY KEY (type, source_name)) WITHOUT ROWID;
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
        CREATE TABLE load_checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL);
        CREATE TABLE quarantine (
            id INTEGER PRIMARY KEY, run_id INTEGER, line INTEGER, element TEXT, type TEXT, reason TEXT NOT NULL);
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY, started_utc TEXT, finished_utc TEXT, input TEXT, input_kind TEXT,
            input_bytes INTEGER, status TEXT, elements INTEGER, records_read INTEGER, samples INTEGER,
            duplicates INTEGER, quarantined INTEGER, workouts INTEGER, route_points INTEGER,
            unknown_elements TEXT, repaired TEXT, seconds REAL, timezone TEXT, mode TEXT, new_samples INTEGER,
            skipped_by_anchor INTEGER);
        CREATE TABLE daily_analytics (
            id INTEGER PRIMARY KEY, date TEXT NOT NULL UNIQUE, steps INTEGER, walking_distance_m REAL, running_distance_m REAL, cycling_distance_m REAL, swimming_distance_m REAL, cross_country_skiing_distance_m REAL, downhill_snow_sports_distance_m REAL, swimming_strokes INTEGER, active_energy_kcal REAL, resting_energy_kcal REAL, heartbeats INTEGER, stairs_climbed INTEGER, exercise_minutes INTEGER, stand_minutes INTEGER, sleep_total_minutes REAL, sleep_deep_minutes REAL, sleep_rem_minutes REAL, recorded_at TEXT NOT NULL);
        CREATE TABLE weekly_analytics (
            id INTEGER PRIMARY KEY, week_start TEXT NOT NULL UNIQUE, week_end TEXT NOT NULL, steps INTEGER, walking_distance_m REAL, running_distance_m REAL, cycling_distance_m REAL, swimming_distance_m REAL, cross_country_skiing_distance_m REAL, downhill_snow_sports_distance_m REAL, swimming_strokes INTEGER, active_energy_kcal REAL, resting_energy_kcal REAL, heartbeats INTEGER, stairs_climbed INTEGER, exercise_minutes INTEGER, stand_minutes INTEGER, sleep_total_minutes REAL, sleep_deep_minutes REAL, sleep_rem_minutes REAL,
            days_with_data INTEGER NOT NULL, recorded_at TEXT NOT NULL);
        CREATE TABLE monthly_analytics (
            id INTEGER PRIMARY KEY, year INTEGER NOT NULL, month INTEGER NOT NULL, start_date TEXT NOT NULL,
            end_date TEXT NOT NULL, steps INTEGER, walking_distance_m REAL, running_distance_m REAL, cycling_distance_m REAL, swimming_distance_m REAL, cross_country_skiing_distance_m REAL, downhill_snow_sports_distance_m REAL, swimming_strokes INTEGER, active_energy_kcal REAL, resting_energy_kcal REAL, heartbeats INTEGER, stairs_climbed INTEGER, exercise_minutes INTEGER, stand_minutes INTEGER, sleep_total_minutes REAL, sleep_deep_minutes REAL, sleep_rem_minutes REAL, days_with_data INTEGER NOT NULL, recorded_at TEXT NOT NULL,
            UNIQUE (year, month));
        CREATE TABLE yearly_analytics (
            id INTEGER PRIMARY KEY, year INTEGER NOT NULL UNIQUE, start_date TEXT NOT NULL, end_date TEXT NOT NULL,
            steps INTEGER, walking_distance_m REAL, running_distance_m REAL, cycling_distance_m REAL, swimming_distance_m REAL, cross_country_skiing_distance_m REAL, downhill_snow_sports_distance_m REAL, swimming_strokes INTEGER, active_energy_kcal REAL, resting_energy_kcal REAL, heartbeats INTEGER, stairs_climbed INTEGER, exercise_minutes INTEGER, stand_minutes INTEGER, sleep_total_minutes REAL, sleep_deep_minutes REAL, sleep_rem_minutes REAL, days_with_data INTEGER NOT NULL, recorded_at TEXT NOT NULL);
        CREATE TABLE sleep_sessions (
            id INTEGER PRIMARY KEY, night_date TEXT NOT NULL UNIQUE, start_utc TEXT NOT NULL, end_utc TEXT NOT NULL,
            in_bed_minutes REAL NOT NULL, asleep_minutes REAL NOT NULL, core_minutes REAL NOT NULL,
            deep_minutes REAL NOT NULL, rem_minutes REAL NOT NULL, unspecified_minutes REAL NOT NULL,
            awake_minutes REAL NOT NULL, sources TEXT);
        CREATE TABLE daily_metrics (
            date TEXT NOT NULL, type TEXT NOT NULL, unit TEXT, sum REAL, average REAL, minimum REAL, maximum REAL,
            count INTEGER NOT NULL, PRIMARY KEY (date, type)) WITHOUT ROWID;
        CREATE TABLE hourly_metrics (
            date TEXT NOT NULL, hour INTEGER NOT NULL, type TEXT NOT NULL, sum REAL NOT NULL,
            PRIMARY KEY (date, hour, type)) WITHOUT ROWID;
        CREATE INDEX sample_type_start ON sample_data (type_id, start_us);
        CREATE INDEX heartbeat_sample ON heartbeat_data (sample_id);
        CREATE INDEX workout_start ON workouts (start_us);
        CREATE INDEX workout_event_workout ON workout_events (workout_id);
        CREATE INDEX workout_statistic_workout ON workout_statistics (workout_id);
        CREATE INDEX route_point_route ON workout_route_points (route_id);
        CREATE INDEX correlation_member_correlation ON correlation_members (correlation_id);
        CREATE VIEW samples AS
        SELECT s.id, t.identifier AS type, src.name AS source_name, src.version AS source_version,
               src.device_model AS device_model,
               strftime('%Y-%m-%dT%H:%M:%SZ', s.start_us / 1000000, 'unixepoch') AS start_utc,
               strftime('%Y-%m-%dT%H:%M:%SZ', s.end_us / 1000000, 'unixepoch') AS end_utc,
               strftime('%Y-%m-%dT%H:%M:%SZ', s.created_us / 1000000, 'unixepoch') AS creation_utc,
               date(s.local_day * 86400, 'unixepoch') AS local_date,
               s.value, s.unit, s.raw_value, s.raw_unit, s.category_value, s.metadata
        FROM sample_data s JOIN types t ON t.id = s.type_id JOIN sources src ON src.id = s.source_id;
        CREATE VIEW heartbeats AS
        SELECT h.sample_id, strftime('%Y-%m-%dT%H:%M:%fZ', h.time_us / 1000000.0, 'unixepoch') AS time_utc, h.bpm
        FROM heartbeat_data h;
        """),
        Shape(version: 4, commits: "b213edc (merge of 'ecg', issue 26) … f6d62c8", statements: """
        CREATE TABLE ecg_recordings (
            id INTEGER PRIMARY KEY, recorded_utc TEXT NOT NULL, local_date TEXT, classification TEXT, symptoms TEXT,
            software_version TEXT, device TEXT, sample_rate_hz REAL, lead TEXT, unit TEXT, average_heart_rate REAL,
            sample_count INTEGER NOT NULL, source_file TEXT);
        CREATE UNIQUE INDEX ecg_recording_identity ON ecg_recordings (recorded_utc, ifnull(device, ''));
        CREATE TABLE ecg_samples (
            recording_id INTEGER NOT NULL, sample_index INTEGER NOT NULL, microvolts REAL NOT NULL,
            PRIMARY KEY (recording_id, sample_index)) WITHOUT ROWID;
        """),
        Shape(version: 5, commits: "f4aa40f (merge of 'sleep', issue 29): the first half of version 5, without `partial_day`, until the next merge", statements: """
        CREATE TABLE daily_analytics (
            id INTEGER PRIMARY KEY, date TEXT NOT NULL UNIQUE, steps INTEGER, walking_distance_m REAL, running_distance_m REAL, cycling_distance_m REAL, swimming_distance_m REAL, cross_country_skiing_distance_m REAL, downhill_snow_sports_distance_m REAL, swimming_strokes INTEGER, active_energy_kcal REAL, resting_energy_kcal REAL, heartbeats INTEGER, stairs_climbed INTEGER, exercise_minutes INTEGER, stand_minutes INTEGER, sleep_total_minutes REAL, sleep_deep_minutes REAL, sleep_rem_minutes REAL, sleep_in_bed_minutes REAL, sleep_nap_minutes REAL, recorded_at TEXT NOT NULL);
        CREATE TABLE weekly_analytics (
            id INTEGER PRIMARY KEY, week_start TEXT NOT NULL UNIQUE, week_end TEXT NOT NULL, steps INTEGER, walking_distance_m REAL, running_distance_m REAL, cycling_distance_m REAL, swimming_distance_m REAL, cross_country_skiing_distance_m REAL, downhill_snow_sports_distance_m REAL, swimming_strokes INTEGER, active_energy_kcal REAL, resting_energy_kcal REAL, heartbeats INTEGER, stairs_climbed INTEGER, exercise_minutes INTEGER, stand_minutes INTEGER, sleep_total_minutes REAL, sleep_deep_minutes REAL, sleep_rem_minutes REAL, sleep_in_bed_minutes REAL, sleep_nap_minutes REAL,
            days_with_data INTEGER NOT NULL, recorded_at TEXT NOT NULL);
        CREATE TABLE monthly_analytics (
            id INTEGER PRIMARY KEY, year INTEGER NOT NULL, month INTEGER NOT NULL, start_date TEXT NOT NULL,
            end_date TEXT NOT NULL, steps INTEGER, walking_distance_m REAL, running_distance_m REAL, cycling_distance_m REAL, swimming_distance_m REAL, cross_country_skiing_distance_m REAL, downhill_snow_sports_distance_m REAL, swimming_strokes INTEGER, active_energy_kcal REAL, resting_energy_kcal REAL, heartbeats INTEGER, stairs_climbed INTEGER, exercise_minutes INTEGER, stand_minutes INTEGER, sleep_total_minutes REAL, sleep_deep_minutes REAL, sleep_rem_minutes REAL, sleep_in_bed_minutes REAL, sleep_nap_minutes REAL, days_with_data INTEGER NOT NULL, recorded_at TEXT NOT NULL,
            UNIQUE (year, month));
        CREATE TABLE yearly_analytics (
            id INTEGER PRIMARY KEY, year INTEGER NOT NULL UNIQUE, start_date TEXT NOT NULL, end_date TEXT NOT NULL,
            steps INTEGER, walking_distance_m REAL, running_distance_m REAL, cycling_distance_m REAL, swimming_distance_m REAL, cross_country_skiing_distance_m REAL, downhill_snow_sports_distance_m REAL, swimming_strokes INTEGER, active_energy_kcal REAL, resting_energy_kcal REAL, heartbeats INTEGER, stairs_climbed INTEGER, exercise_minutes INTEGER, stand_minutes INTEGER, sleep_total_minutes REAL, sleep_deep_minutes REAL, sleep_rem_minutes REAL, sleep_in_bed_minutes REAL, sleep_nap_minutes REAL, days_with_data INTEGER NOT NULL, recorded_at TEXT NOT NULL);
        CREATE TABLE sleep_sessions (
            id INTEGER PRIMARY KEY, night_date TEXT NOT NULL UNIQUE, start_utc TEXT NOT NULL, end_utc TEXT NOT NULL,
            in_bed_minutes REAL NOT NULL, asleep_minutes REAL, core_minutes REAL NOT NULL,
            deep_minutes REAL NOT NULL, rem_minutes REAL NOT NULL, unspecified_minutes REAL NOT NULL,
            awake_minutes REAL NOT NULL, sources TEXT, nap_minutes REAL NOT NULL, naps INTEGER NOT NULL,
            recorded TEXT NOT NULL);
        """),
        Shape(version: 5, commits: "5b484ea (merge of 'partialdays', issue 29) … f3f4082", statements: """
        CREATE TABLE daily_analytics (
            id INTEGER PRIMARY KEY, date TEXT NOT NULL UNIQUE, steps INTEGER, walking_distance_m REAL, running_distance_m REAL, cycling_distance_m REAL, swimming_distance_m REAL, cross_country_skiing_distance_m REAL, downhill_snow_sports_distance_m REAL, swimming_strokes INTEGER, active_energy_kcal REAL, resting_energy_kcal REAL, heartbeats INTEGER, stairs_climbed INTEGER, exercise_minutes INTEGER, stand_minutes INTEGER, sleep_total_minutes REAL, sleep_deep_minutes REAL, sleep_rem_minutes REAL, sleep_in_bed_minutes REAL, sleep_nap_minutes REAL, partial_day INTEGER NOT NULL DEFAULT 0,
            recorded_at TEXT NOT NULL);
        """),
        Shape(version: 6, commits: "dcf22bb (merge of 'vitals', issue 31): the first half of version 6, without the quality tables, until the next merge", statements: """
        CREATE TABLE daily_vitals (
            date TEXT PRIMARY KEY, resting_heart_rate REAL, walking_heart_rate REAL, hrv_sdnn_ms REAL, hrv_rmssd_ms REAL,
            vo2_max REAL, weight_kg REAL, bmi REAL, body_fat_percent REAL, systolic_mmhg REAL, diastolic_mmhg REAL,
            spo2_percent REAL, respiratory_rate REAL, wrist_temperature_degc REAL, blood_glucose_mg_dl REAL) WITHOUT ROWID;
        CREATE TABLE blood_pressure (
            correlation_id INTEGER PRIMARY KEY, local_date TEXT NOT NULL, time_utc TEXT NOT NULL,
            systolic_mmhg REAL, diastolic_mmhg REAL, source_name TEXT);
        CREATE TABLE hrv_measurements (
            sample_id INTEGER PRIMARY KEY, local_date TEXT NOT NULL, start_utc TEXT NOT NULL, source_name TEXT,
            beats INTEGER NOT NULL, intervals INTEGER NOT NULL, mean_nn_ms REAL, sdnn_ms REAL, rmssd_ms REAL,
            pnn50_percent REAL, apple_sdnn_ms REAL, note TEXT);
        CREATE INDEX hrv_measurement_date ON hrv_measurements (local_date);
        CREATE TABLE workout_details (
            workout_id INTEGER PRIMARY KEY, local_date TEXT, activity TEXT NOT NULL, local_start TEXT, local_end TEXT,
            duration_min REAL, distance_m REAL, energy_kcal REAL, avg_heart_rate REAL, max_heart_rate REAL,
            heart_rate_samples INTEGER NOT NULL, zone1_seconds REAL, zone2_seconds REAL, zone3_seconds REAL,
            zone4_seconds REAL, zone5_seconds REAL, zone_max_heart_rate REAL, route_distance_m REAL,
            elevation_gain_m REAL, pace_min_per_km REAL, note TEXT);
        CREATE INDEX workout_detail_date ON workout_details (local_date);
        """),
        Shape(version: 6, commits: "cd0f3d2 (merge of 'quality', issue 32) … 3218700^", statements: """
        CREATE TABLE reconciliation (
            date TEXT NOT NULL, metric TEXT NOT NULL, merged REAL, all_sources_sum REAL NOT NULL,
            overlap_removed REAL, source_count INTEGER NOT NULL, rings REAL, rings_difference REAL,
            rings_disagree INTEGER, PRIMARY KEY (date, metric)) WITHOUT ROWID;
        CREATE TABLE reconciliation_sources (
            date TEXT NOT NULL, metric TEXT NOT NULL, source_name TEXT NOT NULL, device_model TEXT,
            total REAL NOT NULL, samples INTEGER NOT NULL, priority INTEGER);
        CREATE UNIQUE INDEX reconciliation_source_key
            ON reconciliation_sources (date, metric, source_name, ifnull(device_model, ''));
        CREATE TABLE data_quality (
            date TEXT PRIMARY KEY, watch_hours INTEGER NOT NULL, phone_hours INTEGER NOT NULL,
            source_count INTEGER NOT NULL, valid_day INTEGER NOT NULL, partial_day INTEGER NOT NULL,
            time_zone TEXT, utc_offset TEXT) WITHOUT ROWID;
        CREATE TABLE source_inventory (
            source_name TEXT NOT NULL, device_model TEXT, type TEXT NOT NULL, records INTEGER NOT NULL,
            first_seen TEXT NOT NULL, last_seen TEXT NOT NULL, priority INTEGER);
        CREATE UNIQUE INDEX source_inventory_key ON source_inventory (source_name, ifnull(device_model, ''), type);
        """),
        Shape(version: 7, commits: "3218700 (merge of 'dupdrop', issue 32) … cb85c30", statements: """
        CREATE TABLE reconciliation (
            date TEXT NOT NULL, metric TEXT NOT NULL, merged REAL, all_sources_sum REAL NOT NULL,
            overlap_removed REAL, source_count INTEGER NOT NULL, rings REAL, rings_difference REAL,
            rings_disagree INTEGER, duplicates_dropped INTEGER, PRIMARY KEY (date, metric)) WITHOUT ROWID;
        CREATE TABLE duplicate_copies (
            identity INTEGER PRIMARY KEY, type_id INTEGER NOT NULL, local_day INTEGER NOT NULL, copies INTEGER NOT NULL);
        """),
        Shape(version: 8, commits: "5f37189 (issue 44) … 104d2c8", statements: """
        CREATE TABLE workout_details (
            workout_id INTEGER PRIMARY KEY, local_date TEXT, activity TEXT NOT NULL, local_start TEXT, local_end TEXT,
            duration_min REAL, distance_m REAL, energy_kcal REAL, avg_heart_rate REAL, max_heart_rate REAL,
            heart_rate_samples INTEGER NOT NULL, zone1_seconds REAL, zone2_seconds REAL, zone3_seconds REAL,
            zone4_seconds REAL, zone5_seconds REAL, zone_max_heart_rate REAL, route_distance_m REAL,
            elevation_gain_m REAL, pace_min_per_km REAL, note TEXT, duplicate_of INTEGER);
        CREATE VIEW counted_workouts AS
            SELECT w.* FROM workouts w WHERE NOT EXISTS
              (SELECT 1 FROM workout_details d WHERE d.workout_id = w.id AND d.duplicate_of IS NOT NULL);
        """),
        Shape(version: 9, commits: "f376064 (issue 48, item 1)", statements: """
        CREATE TABLE zone_timeline (start_us INTEGER UNIQUE, zone TEXT NOT NULL);
        CREATE TABLE zone_windows (from_us INTEGER NOT NULL, to_us INTEGER NOT NULL);
        """),
        Shape(version: 10, commits: "b05de63 (issue 48, items 2 and 4) … 411778b", statements: """
        CREATE TABLE daily_analytics (
            id INTEGER PRIMARY KEY, date TEXT NOT NULL UNIQUE, steps INTEGER, walking_distance_m REAL, running_distance_m REAL, cycling_distance_m REAL, swimming_distance_m REAL, cross_country_skiing_distance_m REAL, downhill_snow_sports_distance_m REAL, swimming_strokes INTEGER, active_energy_kcal REAL, resting_energy_kcal REAL, heartbeats INTEGER, stairs_climbed INTEGER, exercise_minutes INTEGER, stand_minutes INTEGER, sleep_total_minutes REAL, sleep_deep_minutes REAL, sleep_rem_minutes REAL, sleep_in_bed_minutes REAL, sleep_nap_minutes REAL, partial_day INTEGER NOT NULL DEFAULT 0,
            recorded_at TEXT NOT NULL, zone TEXT, travel_day INTEGER NOT NULL DEFAULT 0);
        """),
        Shape(version: 11, commits: "3b1cbfd (issue 49) … edba527", statements: """
        CREATE TABLE clinical_resources (
            path TEXT PRIMARY KEY, resource_type TEXT NOT NULL, resource TEXT NOT NULL);
        """),
        Shape(version: 12, commits: "(issue 60)", statements: """
        CREATE TABLE sources (
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, version TEXT, device TEXT,
            device_model TEXT, device_hardware TEXT, platform TEXT,
            UNIQUE (name, version, device, platform));
        CREATE TABLE reconciliation_platforms (
            date TEXT NOT NULL, metric TEXT NOT NULL, platform TEXT NOT NULL, counted REAL NOT NULL,
            all_sources_sum REAL NOT NULL, samples INTEGER NOT NULL,
            PRIMARY KEY (date, metric, platform)) WITHOUT ROWID;
        CREATE TABLE cycles (
            start_date TEXT PRIMARY KEY, next_start_date TEXT, complete INTEGER NOT NULL, period_days INTEGER,
            cycle_length_days INTEGER, start_from TEXT NOT NULL, flow_light_days INTEGER NOT NULL,
            flow_medium_days INTEGER NOT NULL, flow_heavy_days INTEGER NOT NULL, flow_unspecified_days INTEGER NOT NULL,
            spotting_days INTEGER NOT NULL, ovulation_positive_date TEXT, ovulation_tests INTEGER NOT NULL,
            flow_records INTEGER NOT NULL, sources TEXT, notices TEXT) WITHOUT ROWID;
        CREATE TABLE cycle_days (
            date TEXT PRIMARY KEY, cycle_start TEXT, cycle_day INTEGER, in_period INTEGER NOT NULL, flow TEXT,
            spotting INTEGER NOT NULL, ovulation_test TEXT, cervical_mucus TEXT, basal_temperature_degc REAL,
            sexual_activity INTEGER NOT NULL, notices TEXT) WITHOUT ROWID;
        """),
    ]
}
