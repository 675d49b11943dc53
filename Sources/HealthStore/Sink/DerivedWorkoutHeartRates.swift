import SQLite

/// A workout whose export gave no average heart rate (before iOS 16, or an app such as Strava
/// that sends none) gets its average, minimum and maximum from the heart-rate samples that
/// start inside it. The one statement both a full load and a nightly merge run, so that a
/// workout and its samples give the same figures whichever reached the store first.
enum DerivedWorkoutHeartRates {
    static let heartRateType = "HKQuantityTypeIdentifierHeartRate"

    /// Whether workout `w`'s figures are its own: the export's first whole-workout heart-rate
    /// statistic has an average (what the sink writes into `avg_heart_rate`). Such workouts are
    /// never derived; the others may be derived again as samples arrive.
    private static let given = """
        (SELECT average FROM workout_statistics st WHERE st.workout_id = w.id AND st.activity_ordinal IS NULL
           AND st.type = '\(heartRateType)' ORDER BY st.rowid LIMIT 1) IS NOT NULL
        """

    /// Derives the figures of the workouts without their own that also satisfy `condition`
    /// (SQL on `w`, the workout), from the samples of type id `heartRate`. One indexed range scan
    /// per workout for all three figures; a workout with no sample inside keeps what it has.
    static func derive(in database: Database, heartRate: Int64, where condition: String = "1") throws {
        try database.execute("""
            UPDATE workouts SET avg_heart_rate = hr.average, min_heart_rate = hr.minimum, max_heart_rate = hr.maximum
            FROM (SELECT w.id, avg(s.value) AS average, min(s.value) AS minimum, max(s.value) AS maximum
                  FROM workouts w JOIN sample_data s ON s.type_id = \(heartRate)
                    AND s.start_us BETWEEN w.start_us AND w.end_us
                  WHERE w.start_us IS NOT NULL AND NOT \(given) AND (\(condition))
                  GROUP BY w.id) AS hr
            WHERE hr.id = workouts.id;
            """)
    }
}
