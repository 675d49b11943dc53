import HealthStore

/// The workbook's sheets from the vitals tables (docs/vitals-hrv-workouts.md): Vitals (one row a
/// day), Blood pressure (one row a reading) and the readable Workouts sheet (display names,
/// local times, heart rate and the minutes in each zone, route figures).
extension HealthWorkbook {
    static let vitalsSheet: (title: String, table: OutputTable) = ("Vitals", .dailyVitals)
    static let bloodPressureSheet: (title: String, table: OutputTable) = ("Blood pressure", .bloodPressure)

    /// `workout_details` with what a reader asks of a workout first; zones in minutes. The start
    /// and end are the stored instants, shown in local time by `WorkbookSheet` (date cells).
    static let workoutsSheet: (title: String, table: OutputTable) = ("Workouts", OutputTable(
        name: "workouts_sheet",
        columns: [OutputTable.Column("activity", .text(dictionary: true), optional: false),
                  OutputTable.Column("start_utc", .timestamp), OutputTable.Column("end_utc", .timestamp),
                  OutputTable.Column("local_date", .date),
                  OutputTable.Column("duration_min", .real(places: 1)), OutputTable.Column("distance_m", .real(places: 2)),
                  OutputTable.Column("energy_kcal", .real(places: 0)), OutputTable.Column("avg_heart_rate", .real(places: 0)),
                  OutputTable.Column("max_heart_rate", .real(places: 0))]
            + (1...5).map { OutputTable.Column("zone\($0)_min", .real(places: 1)) }
            + [OutputTable.Column("route_distance_m", .real(places: 2)), OutputTable.Column("elevation_gain_m", .real(places: 0)),
               OutputTable.Column("pace_min_per_km", .real(places: 2)), OutputTable.Column("source_name", .text(dictionary: true)),
               OutputTable.Column("note", .text(dictionary: true))],
        sql: """
            SELECT d.activity, w.start_us, w.end_us, d.local_date, d.duration_min,
                   d.distance_m, d.energy_kcal, d.avg_heart_rate, d.max_heart_rate, d.zone1_seconds / 60.0,
                   d.zone2_seconds / 60.0, d.zone3_seconds / 60.0, d.zone4_seconds / 60.0, d.zone5_seconds / 60.0,
                   d.route_distance_m, d.elevation_gain_m, d.pace_min_per_km, w.source_name, d.note
            FROM workout_details d JOIN workouts w ON w.id = d.workout_id ORDER BY w.start_us, d.workout_id
            """))
}
