import HealthCore

/// The vitals tables as files (docs/vitals-hrv-workouts.md): in CSV (the person's units, by
/// the column names' unit suffixes) and Parquet (canonical units).
extension OutputTable {
    package static let vitalsTables: [OutputTable] = [dailyVitals, bloodPressure, hrvMeasurements, workoutDetails]

    package static let dailyVitals = OutputTable(
        name: "daily_vitals",
        columns: [Column("date", .date, optional: false)]
            + VitalsStore.dailyVitalColumns.map { Column($0, .real(places: $0 == "bmi" || $0.hasSuffix("_kg") ? 2 : 1)) },
        sql: "SELECT date, \(VitalsStore.dailyVitalColumns.joined(separator: ", ")) FROM daily_vitals ORDER BY date")

    package static let bloodPressure = OutputTable(
        name: "blood_pressure",
        columns: [Column("local_date", .date, optional: false), Column("time_utc", .timestamp, optional: false),
                  Column("systolic_mmhg", .real(places: 0)), Column("diastolic_mmhg", .real(places: 0)),
                  Column("source_name", .text(dictionary: true))],
        sql: """
            SELECT local_date, time_utc, systolic_mmhg, diastolic_mmhg, source_name FROM blood_pressure
            ORDER BY time_utc, correlation_id
            """)

    package static let hrvMeasurements = OutputTable(
        name: "hrv_measurements",
        columns: [Column("local_date", .date, optional: false), Column("start_utc", .timestamp, optional: false),
                  Column("source_name", .text(dictionary: true)), Column("beats", .integer, optional: false),
                  Column("intervals", .integer, optional: false), Column("mean_nn_ms", .real(places: 3)),
                  Column("sdnn_ms", .real(places: 3)), Column("rmssd_ms", .real(places: 3)),
                  Column("pnn50_percent", .real(places: 2)), Column("apple_sdnn_ms", .real(places: 3)),
                  Column("note", .text(dictionary: true))],
        sql: """
            SELECT local_date, start_utc, source_name, beats, intervals, mean_nn_ms, sdnn_ms, rmssd_ms, pnn50_percent,
                   apple_sdnn_ms, note FROM hrv_measurements ORDER BY start_utc, sample_id
            """)

    package static let workoutDetails = OutputTable(
        name: "workout_details",
        columns: [Column("workout_id", .integer, optional: false), Column("local_date", .date),
                  Column("activity", .text(dictionary: true), optional: false),
                  Column("local_start", .text(dictionary: false)), Column("local_end", .text(dictionary: false)),
                  Column("duration_min", .real(places: 2)), Column("distance_m", .real(places: 1)),
                  Column("energy_kcal", .real(places: 1)), Column("avg_heart_rate", .real(places: 1)),
                  Column("max_heart_rate", .real(places: 1)), Column("heart_rate_samples", .integer, optional: false)]
            + (1...5).map { Column("zone\($0)_seconds", .real(places: 0)) }
            + [Column("zone_max_heart_rate", .real(places: 1)), Column("route_distance_m", .real(places: 1)),
               Column("elevation_gain_m", .real(places: 1)), Column("pace_min_per_km", .real(places: 2)),
               Column("note", .text(dictionary: true)), Column("duplicate_of", .integer)],
        sql: """
            SELECT d.workout_id, d.local_date, d.activity, d.local_start, d.local_end, d.duration_min, d.distance_m,
                   d.energy_kcal, d.avg_heart_rate, d.max_heart_rate, d.heart_rate_samples, d.zone1_seconds, d.zone2_seconds,
                   d.zone3_seconds, d.zone4_seconds, d.zone5_seconds, d.zone_max_heart_rate, d.route_distance_m,
                   d.elevation_gain_m, d.pace_min_per_km, d.note, d.duplicate_of
            FROM workout_details d LEFT JOIN workouts w ON w.id = d.workout_id ORDER BY w.start_us, d.workout_id
            """)
}
