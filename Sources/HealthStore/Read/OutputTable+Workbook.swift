import HealthCore

/// Tables the workbook shows that join the store's tables for a reader (the store owns their
/// SQL, issue 47): a readable workouts table and the data quality by day with its
/// reconciliation.
extension OutputTable {
    /// `workout_details` with what a reader asks of a workout first; zones in minutes. The start
    /// and end are the stored instants (the workbook shows them in local time).
    package static let workoutsReadable = OutputTable(
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
            """)

    /// `data_quality` by day with the steps' and active energy's reconciliation beside it.
    package static let qualityWithReconciliation = OutputTable(
        name: "data_quality_sheet",
        columns: OutputTable.dataQuality.columns + [
            OutputTable.Column("steps", .integer), OutputTable.Column("steps_all_sources", .integer),
            OutputTable.Column("steps_overlap_removed", .integer), OutputTable.Column("steps_duplicates_dropped", .integer),
            OutputTable.Column("active_energy_kcal", .real(places: 1)), OutputTable.Column("active_energy_all_sources_kcal", .real(places: 1)),
            OutputTable.Column("active_energy_rings_kcal", .real(places: 1)),
            OutputTable.Column("active_energy_rings_difference_kcal", .real(places: 1)),
            OutputTable.Column("rings_disagree", .integer), OutputTable.Column("active_energy_duplicates_dropped", .integer)],
        sql: """
            SELECT q.date, q.watch_hours, q.phone_hours, q.source_count, q.valid_day, q.partial_day, q.time_zone, q.utc_offset,
                   s.merged, s.all_sources_sum, s.overlap_removed, s.duplicates_dropped, e.merged, e.all_sources_sum, e.rings,
                   e.rings_difference, e.rings_disagree, e.duplicates_dropped
            FROM data_quality q
            LEFT JOIN reconciliation s ON s.date = q.date AND s.metric = 'steps'
            LEFT JOIN reconciliation e ON e.date = q.date AND e.metric = 'active_energy_kcal'
            ORDER BY q.date
            """)
}
