import HealthCore

/// One table of the store's file outputs (CSV, Parquet, and whatever else turns the store into
/// files): its columns and the query that yields them, so every format comes from the same rows.
package struct OutputTable: Sendable {
    package enum Kind: Sendable, Hashable {
        /// `dictionary`: few distinct values (types, sources): Parquet dictionary-encodes them.
        case text(dictionary: Bool)
        case integer
        /// CSV prints `places` decimals.
        case real(places: Int)
        /// From SQL as days since 1970 (integer) or `YYYY-MM-DD`.
        case date
        /// From SQL as µs since 1970 (integer) or ISO 8601 `…Z`.
        case timestamp
    }

    package struct Column: Sendable {
        package var name: String
        package var kind: Kind
        package var optional: Bool
        package init(_ name: String, _ kind: Kind, optional: Bool = true) {
            self.name = name; self.kind = kind; self.optional = optional
        }
    }

    /// File name without extension: `csv/<name>.csv`, `parquet/<name>.parquet`.
    package var name: String
    package var columns: [Column]
    package var sql: String
    /// Millions of rows (every sample, every voltage): a format meant for spreadsheets leaves the
    /// table out, one meant for data tools writes it. What the table is, not which formats take it.
    package var isBulk: Bool

    package init(name: String, columns: [Column], sql: String, isBulk: Bool = false) {
        self.name = name; self.columns = columns; self.sql = sql; self.isBulk = isBulk
    }
}

extension OutputTable {
    /// Every output table (docs/TABLES.md), in the order they are written.
    package static let all: [OutputTable] = [samples, daily, weekly, monthly, yearly, workouts, sleep, activitySummaries,
                                            ecgRecordings, ecgSamples] + vitalsTables + quality
                                            + cycleTables

    static func metricColumns() -> [Column] {
        DailyMetric.allCases.map { m in
            Column(m.column, m.isInteger ? .integer : .real(places: m.column.hasSuffix("_minutes") ? 1 : 2))
        }
    }
    static let metricList = StoreSchema.metricNames

    /// Every stored sample; Parquet only (a spreadsheet cannot hold millions of rows).
    package static let samples = OutputTable(
        name: "samples",
        columns: [Column("type", .text(dictionary: true), optional: false), Column("source_name", .text(dictionary: true), optional: false),
                  Column("source_version", .text(dictionary: true)), Column("device_model", .text(dictionary: true)),
                  Column("start_utc", .timestamp, optional: false), Column("end_utc", .timestamp, optional: false),
                  Column("creation_utc", .timestamp), Column("local_date", .date, optional: false),
                  Column("value", .real(places: 6)), Column("unit", .text(dictionary: true)),
                  Column("raw_value", .text(dictionary: false)), Column("raw_unit", .text(dictionary: true)),
                  Column("category_value", .text(dictionary: true))],
        sql: """
            SELECT t.identifier, src.name, src.version, src.device_model, s.start_us, s.end_us, s.created_us, s.local_day,
                   s.value, s.unit, s.raw_value, s.raw_unit, s.category_value
            FROM sample_data s JOIN types t ON t.id = s.type_id JOIN sources src ON src.id = s.source_id
            ORDER BY s.type_id, s.start_us, s.id
            """,
        isBulk: true)

    /// `partial_day` last, so that readers of the earlier columns by position are unchanged.
    package static let daily = OutputTable(
        name: "daily", columns: [Column("date", .date, optional: false)] + metricColumns()
            + [Column("partial_day", .integer, optional: false), Column("zone", .text(dictionary: true)),
               Column("travel_day", .integer, optional: false)],
        sql: "SELECT date, \(metricList), partial_day, zone, travel_day FROM daily_analytics ORDER BY date")

    static let periodTail = [Column("days_with_data", .integer, optional: false)]

    package static let weekly = OutputTable(
        name: "weekly",
        columns: [Column("week_start", .date, optional: false), Column("week_end", .date, optional: false)] + metricColumns() + periodTail,
        sql: "SELECT week_start, week_end, \(metricList), days_with_data FROM weekly_analytics ORDER BY week_start")

    package static let monthly = OutputTable(
        name: "monthly",
        columns: [Column("year", .integer, optional: false), Column("month", .integer, optional: false),
                  Column("start_date", .date, optional: false), Column("end_date", .date, optional: false)]
            + metricColumns() + periodTail,
        sql: "SELECT year, month, start_date, end_date, \(metricList), days_with_data FROM monthly_analytics ORDER BY start_date")

    package static let yearly = OutputTable(
        name: "yearly",
        columns: [Column("year", .integer, optional: false), Column("start_date", .date, optional: false),
                  Column("end_date", .date, optional: false)] + metricColumns() + periodTail,
        sql: "SELECT year, start_date, end_date, \(metricList), days_with_data FROM yearly_analytics ORDER BY year")

    package static let workouts = OutputTable(
        name: "workouts",
        columns: [Column("id", .integer, optional: false), Column("activity_type", .text(dictionary: true), optional: false),
                  Column("source_name", .text(dictionary: true)), Column("device_model", .text(dictionary: true)),
                  Column("start_utc", .timestamp), Column("end_utc", .timestamp), Column("local_date", .date),
                  Column("duration_min", .real(places: 2)), Column("distance_m", .real(places: 1)),
                  Column("energy_kcal", .real(places: 1)), Column("avg_heart_rate", .real(places: 1)),
                  Column("min_heart_rate", .real(places: 1)), Column("max_heart_rate", .real(places: 1)),
                  Column("swimming_strokes", .real(places: 0)), Column("flights_climbed", .real(places: 0)),
                  // The workout this row copies (the same activity recorded by a source of lower
                  // priority): listed as the Health app lists it, counted once, there.
                  Column("duplicate_of", .integer)],
        sql: """
            SELECT w.id, w.activity_type, w.source_name, w.device_model, w.start_us, w.end_us, w.local_date, w.duration_min,
                   w.distance_m, w.energy_kcal, w.avg_heart_rate, w.min_heart_rate, w.max_heart_rate, w.swimming_strokes,
                   w.flights_climbed, d.duplicate_of
            FROM workouts w LEFT JOIN workout_details d ON d.workout_id = w.id ORDER BY w.start_us, w.id
            """)

    package static let sleep = OutputTable(
        name: "sleep",
        columns: [Column("night_date", .date, optional: false), Column("start_utc", .timestamp, optional: false),
                  Column("end_utc", .timestamp, optional: false)]
            + [Column("in_bed_minutes", .real(places: 1), optional: false),
               Column("asleep_minutes", .real(places: 1))]   // empty on a night in bed only
            + ["core_minutes", "deep_minutes", "rem_minutes", "unspecified_minutes",
               "awake_minutes"].map { Column($0, .real(places: 1), optional: false) }
            + [Column("sources", .text(dictionary: true)), Column("nap_minutes", .real(places: 1), optional: false),
               Column("naps", .integer, optional: false), Column("recorded", .text(dictionary: true), optional: false)],
        sql: """
            SELECT night_date, start_utc, end_utc, in_bed_minutes, asleep_minutes, core_minutes, deep_minutes, rem_minutes,
                   unspecified_minutes, awake_minutes, sources, nap_minutes, naps, recorded FROM sleep_sessions
            ORDER BY night_date
            """)

    package static let activitySummaries = OutputTable(
        name: "activity_summaries",
        columns: [Column("date", .date, optional: false)]
            + ["active_energy_kcal", "active_energy_goal_kcal", "move_time_min", "move_time_goal_min", "exercise_min",
               "exercise_goal_min", "stand_hours", "stand_hours_goal"].map { Column($0, .real(places: 1)) },
        sql: """
            SELECT date, active_energy_kcal, active_energy_goal_kcal, move_time_min, move_time_goal_min, exercise_min,
                   exercise_goal_min, stand_hours, stand_hours_goal FROM activity_summaries ORDER BY date
            """)

    /// One row per electrocardiogram, in recording order.
    package static let ecgRecordings = OutputTable(
        name: "ecg_recordings",
        columns: [Column("id", .integer, optional: false), Column("recorded_utc", .timestamp, optional: false),
                  Column("local_date", .date), Column("classification", .text(dictionary: true)),
                  Column("symptoms", .text(dictionary: true)), Column("software_version", .text(dictionary: true)),
                  Column("device", .text(dictionary: true)), Column("sample_rate_hz", .real(places: 1)),
                  Column("lead", .text(dictionary: true)), Column("unit", .text(dictionary: true)),
                  Column("average_heart_rate", .real(places: 1)), Column("sample_count", .integer, optional: false),
                  Column("source_file", .text(dictionary: false))],
        sql: """
            SELECT id, recorded_utc, local_date, classification, symptoms, software_version, device, sample_rate_hz, lead, unit,
                   average_heart_rate, sample_count, source_file FROM ecg_recordings ORDER BY recorded_utc, id
            """)

    /// Every voltage of every recording (µV, in order); Parquet only: 15,360 rows a recording.
    package static let ecgSamples = OutputTable(
        name: "ecg_samples",
        columns: [Column("recording_id", .integer, optional: false), Column("sample_index", .integer, optional: false),
                  Column("microvolts", .real(places: 3), optional: false)],
        sql: "SELECT recording_id, sample_index, microvolts FROM ecg_samples ORDER BY recording_id, sample_index",
        isBulk: true)
}
