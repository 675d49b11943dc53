import HealthCore
import SQLite

/// The tables of `health.sqlite` (docs/TABLES.md). Samples are stored compactly (integer
/// instants, type and source as ids) in `sample_data`; the `samples` view shows them with
/// the documented column names, ISO 8601 instants and names instead of ids.
package enum StoreSchema {
    /// The version of a store this program makes (`tables`, `PRAGMA user_version`). What each
    /// version added, and for which issue, is the list of steps that upgrade a store to it
    /// (`migrations`, StoreMigrations.swift).
    package static let version = 12
    /// The last version that changed what the analytics are: a store's analytics (and so an
    /// incremental run on it) stay valid across later versions that only add tables.
    /// 5: sleep nights by wake-up day, so a store of an earlier version is re-analysed (which
    /// also sets its `partial_day`). 6: days local to where the person was (issue 48), each
    /// with its zone.
    package static let analyticsVersion = 6
    /// The oldest version `upgrade` brings to `version` (the first step of `migrations` starts
    /// from it); an older store is rebuilt.
    package static let oldestUpgradable = 3

    /// One row per night (docs/sleep-nights.md). `asleep_minutes` is NULL on a night in bed
    /// only (no asleep/awake record): how long was slept is unknown, not 0.
    package static let sleepSessions = """
    CREATE TABLE sleep_sessions (
        id INTEGER PRIMARY KEY, night_date TEXT NOT NULL UNIQUE, start_utc TEXT NOT NULL, end_utc TEXT NOT NULL,
        in_bed_minutes REAL NOT NULL, asleep_minutes REAL, core_minutes REAL NOT NULL,
        deep_minutes REAL NOT NULL, rem_minutes REAL NOT NULL, unspecified_minutes REAL NOT NULL,
        awake_minutes REAL NOT NULL, sources TEXT, nap_minutes REAL NOT NULL, naps INTEGER NOT NULL,
        recorded TEXT NOT NULL);
    """

    /// The version that added `daily_analytics.partial_day`: a store upgraded from an earlier one
    /// has the column at its default until the first run sets it.
    package static let partialDayVersion = 5

    /// Version 5 (docs/days-and-averages.md): 1 for a day known to be incomplete (the first day
    /// of data, the export's own day and any after it), 0 for a complete day.
    package static let partialDayColumn = "partial_day INTEGER NOT NULL DEFAULT 0"
    /// The day's zone (the one in force longest) and whether it touches a window where the
    /// switch between two zones is a guess (`LocalCalendar.zoneName(on:)`, `isTravelDay`).
    package static let zoneDayColumns = ["zone TEXT", "travel_day INTEGER NOT NULL DEFAULT 0"]

    /// Version 11 (issue 49): each file of `clinical-records/` as the provider sent it (its JSON
    /// on one line, `ClinicalJSON`), by its path in the export (`clinical-records/X.json`, which
    /// `clinical_records.resource_file_path` names with a leading slash). A later export's copy
    /// of a file replaces the stored one.
    package static let clinicalResources = """
    CREATE TABLE IF NOT EXISTS clinical_resources (
        path TEXT PRIMARY KEY, resource_type TEXT NOT NULL, resource TEXT NOT NULL);
    """

    /// Electrocardiograms (version 4). A recording is known by its instant and watch, so a
    /// cumulative export's recordings are stored once however often they are imported.
    package static let ecgTables = """
    CREATE TABLE IF NOT EXISTS ecg_recordings (
        id INTEGER PRIMARY KEY, recorded_utc TEXT NOT NULL, local_date TEXT, classification TEXT, symptoms TEXT,
        software_version TEXT, device TEXT, sample_rate_hz REAL, lead TEXT, unit TEXT, average_heart_rate REAL,
        sample_count INTEGER NOT NULL, source_file TEXT);
    CREATE UNIQUE INDEX IF NOT EXISTS ecg_recording_identity ON ecg_recordings (recorded_utc, ifnull(device, ''));
    CREATE TABLE IF NOT EXISTS ecg_samples (
        recording_id INTEGER NOT NULL, sample_index INTEGER NOT NULL, microvolts REAL NOT NULL,
        PRIMARY KEY (recording_id, sample_index)) WITHOUT ROWID;
    """

    /// Version 12 (issue 60): the platform of each source (`apple-health`, `health-connect`;
    /// NULL in a store made before: the store's one platform, `StoreSettings.platform`), and
    /// each platform's share of a day's merged total in a store of a person's two phones.
    package static let platformShares = """
    CREATE TABLE IF NOT EXISTS reconciliation_platforms (
        date TEXT NOT NULL, metric TEXT NOT NULL, platform TEXT NOT NULL, counted REAL NOT NULL,
        all_sources_sum REAL NOT NULL, samples INTEGER NOT NULL,
        PRIMARY KEY (date, metric, platform)) WITHOUT ROWID;
    """

    /// A source is its name, version and device on one platform: an app of the same name on
    /// both phones (a scale's) is two sources.
    package static let sourcesTable = """
    CREATE TABLE sources (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, version TEXT, device TEXT,
        device_model TEXT, device_hardware TEXT, platform TEXT,
        UNIQUE (name, version, device, platform));
    """

    package static let tables = """
    PRAGMA user_version = \(version);
    CREATE TABLE types (id INTEGER PRIMARY KEY, identifier TEXT NOT NULL UNIQUE);
    \(sourcesTable)
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
    \(ecgTables)
    \(analyticsTables)
    \(vitalsTables)
    \(qualityTables)
    \(duplicateTables)
    \(zoneTables)
    \(clinicalResources)
    \(platformShares)
    \(cycleTables)
    """

    /// The metric column names, in the documented order (docs/TABLES.md), for SELECT and INSERT lists.
    package static let metricNames = DailyMetric.allCases.map(\.column).joined(separator: ", ")

    /// The table of a period kind and its first- and last-day columns.
    static func periodTable(_ kind: PeriodKind) -> (table: String, start: String, end: String) {
        switch kind {
        case .week: ("weekly_analytics", "week_start", "week_end")
        case .month: ("monthly_analytics", "start_date", "end_date")
        case .year: ("yearly_analytics", "start_date", "end_date")
        }
    }

    /// The metric columns, in the documented order: whole numbers as INTEGER, the rest REAL.
    package static let metricColumns = DailyMetric.allCases
        .map { "\($0.column) \($0.isInteger ? "INTEGER" : "REAL")" }.joined(separator: ", ")

    /// The analytics (docs/TABLES.md, "Analytics"), sleep nights, the long-form per-type days and
    /// the merged hours of cumulative types (what HealthQL sums by hour).
    package static let analyticsTables = """
    CREATE TABLE daily_analytics (
        id INTEGER PRIMARY KEY, date TEXT NOT NULL UNIQUE, \(metricColumns), \(partialDayColumn),
        recorded_at TEXT NOT NULL, \(zoneDayColumns.joined(separator: ", ")));
    CREATE TABLE weekly_analytics (
        id INTEGER PRIMARY KEY, week_start TEXT NOT NULL UNIQUE, week_end TEXT NOT NULL, \(metricColumns),
        days_with_data INTEGER NOT NULL, recorded_at TEXT NOT NULL);
    CREATE TABLE monthly_analytics (
        id INTEGER PRIMARY KEY, year INTEGER NOT NULL, month INTEGER NOT NULL, start_date TEXT NOT NULL,
        end_date TEXT NOT NULL, \(metricColumns), days_with_data INTEGER NOT NULL, recorded_at TEXT NOT NULL,
        UNIQUE (year, month));
    CREATE TABLE yearly_analytics (
        id INTEGER PRIMARY KEY, year INTEGER NOT NULL UNIQUE, start_date TEXT NOT NULL, end_date TEXT NOT NULL,
        \(metricColumns), days_with_data INTEGER NOT NULL, recorded_at TEXT NOT NULL);
    \(sleepSessions)
    CREATE TABLE daily_metrics (
        date TEXT NOT NULL, type TEXT NOT NULL, unit TEXT, sum REAL, average REAL, minimum REAL, maximum REAL,
        count INTEGER NOT NULL, PRIMARY KEY (date, type)) WITHOUT ROWID;
    CREATE TABLE hourly_metrics (
        date TEXT NOT NULL, hour INTEGER NOT NULL, type TEXT NOT NULL, sum REAL NOT NULL,
        PRIMARY KEY (date, hour, type)) WITHOUT ROWID;
    """

    /// Built after the bulk load: creating indexes on a full table is several times faster
    /// than maintaining them row by row.
    package static let indexes = """
    CREATE INDEX sample_type_start ON sample_data (type_id, start_us);
    CREATE INDEX heartbeat_sample ON heartbeat_data (sample_id);
    CREATE INDEX workout_start ON workouts (start_us);
    CREATE INDEX workout_event_workout ON workout_events (workout_id);
    CREATE INDEX workout_statistic_workout ON workout_statistics (workout_id);
    CREATE INDEX route_point_route ON workout_route_points (route_id);
    CREATE INDEX correlation_member_correlation ON correlation_members (correlation_id);
    """

    package static let views = """
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
    """
}
