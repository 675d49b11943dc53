import HealthCore
import SQLite

/// A day's Activity rings as the Watch recorded them (`activity_summaries`).
package struct StoredActivityRings: Sendable, Equatable {
    package var date: CivilDate
    package var standHours: Double?
    package var activeEnergyGoal: Double?
    package var exerciseGoal: Double?
    package var standHoursGoal: Double?
}

/// A workout on its local day (`workouts`).
package struct StoredWorkout: Sendable, Equatable {
    package var date: CivilDate
    /// As the export names it (`HKWorkoutActivityTypeRunning`).
    package var activityType: String
    package var minutes: Double?
    package var distanceMeters: Double?
    package var energyKcal: Double?
}

/// An ECG recording on its local day (`ecg_recordings`).
package struct StoredECG: Sendable, Equatable {
    package var date: CivilDate
    package var classification: String?
    package var averageHeartRate: Double?
    package var symptoms: String?
}

/// Whole lists for a reader that shows everything (the report): rows without a readable date
/// are left out.
extension HealthStore {
    /// Every day's Activity rings.
    package func allActivityRings() throws -> [StoredActivityRings] {
        try database.rows("""
            SELECT date, stand_hours, active_energy_goal_kcal, exercise_goal_min, stand_hours_goal FROM activity_summaries
            """).compactMap { r in
            guard let date = r[0].string.flatMap({ CivilDate(iso: $0) }) else { return nil }
            return StoredActivityRings(date: date, standHours: r[1].double, activeEnergyGoal: r[2].double,
                                       exerciseGoal: r[3].double, standHoursGoal: r[4].double)
        }
    }

    /// Every sleep night, oldest first.
    package func allSleepNights() throws -> [SleepNight] {
        try sleepNights("ORDER BY night_date")
    }

    /// Workouts with a local day, in the order they started; a copy of a workout recorded by two
    /// apps (`workout_details.duplicate_of`) once, as the original.
    package func allWorkouts() throws -> [StoredWorkout] {
        try database.rows("""
            SELECT local_date, activity_type, duration_min, distance_m, energy_kcal FROM counted_workouts
            WHERE local_date IS NOT NULL ORDER BY start_us
            """).compactMap { r in
            guard let date = r[0].string.flatMap({ CivilDate(iso: $0) }) else { return nil }
            return StoredWorkout(date: date, activityType: r[1].string ?? "", minutes: r[2].double,
                                 distanceMeters: r[3].double, energyKcal: r[4].double)
        }
    }

    /// The names of the person's own Apple devices in the store (sources whose records name an
    /// iPhone or a Watch: "Alex’s iPhone"), which every later export of that person holds too.
    package func appleDeviceNames() throws -> Set<String> {
        Set(try database.rows("SELECT DISTINCT name FROM sources WHERE device_model IN ('iPhone', 'Watch')").compactMap { $0[0].string })
    }

    /// The person's sleep goals from the Health app (`HKDataTypeSleepDurationGoal`: each in force
    /// from its start until the next), oldest first, in minutes.
    package func sleepGoals() throws -> [(start: Timestamp, minutes: Double)] {
        try database.rows("""
            SELECT s.start_us, s.value FROM sample_data s JOIN types t ON t.id = s.type_id
            WHERE t.identifier = 'HKDataTypeSleepDurationGoal' AND s.value > 0 ORDER BY s.start_us, s.id
            """).compactMap { r in
            guard let start = r[0].int, let minutes = r[1].double else { return nil }
            return (Timestamp(microseconds: start), minutes)
        }
    }

    /// The daily average of a discrete type (`daily_metrics`), oldest first, days with one only.
    package func dailyAverages(of type: String) throws -> [(CivilDate, Double)] {
        try database.rows("SELECT date, average FROM daily_metrics WHERE type = ? AND average IS NOT NULL ORDER BY date",
                          [.text(type)]).compactMap { r in
            guard let d = r[0].string.flatMap({ CivilDate(iso: $0) }), let v = r[1].double else { return nil }
            return (d, v)
        }
    }

    /// ECG recordings with a local day, oldest first.
    package func allECGRecordings() throws -> [StoredECG] {
        try database.rows("""
            SELECT local_date, classification, average_heart_rate, symptoms FROM ecg_recordings
            WHERE local_date IS NOT NULL ORDER BY recorded_utc, id
            """).compactMap { r in
            guard let date = r[0].string.flatMap({ CivilDate(iso: $0) }) else { return nil }
            return StoredECG(date: date, classification: r[1].string, averageHeartRate: r[2].double, symptoms: r[3].string)
        }
    }

    /// The zone the store's local days are in: its analytics settings' (named as the person gave
    /// it), else its last run's.
    package func analyticsZoneName() throws -> String? {
        // The settings row is written with the analytics, before the run's row.
        if let zone = try StoreSettings.zoneName(in: database) { return zone }
        return try lastRun()?.timeZone
    }

    func sleepNights(_ clause: String, _ bindings: [SQLValue] = []) throws -> [SleepNight] {
        try database.rows("""
            SELECT night_date, start_utc, end_utc, in_bed_minutes, core_minutes, deep_minutes, rem_minutes,
                   unspecified_minutes, awake_minutes, sources, nap_minutes, naps FROM sleep_sessions \(clause)
            """, bindings).compactMap { r in
            guard let date = r[0].string.flatMap({ CivilDate(iso: $0) }),
                  let start = r[1].string.flatMap(Timestamp.init(iso8601:)),
                  let end = r[2].string.flatMap(Timestamp.init(iso8601:)) else { return nil }
            var n = SleepNight(date: date, start: start, end: end)
            n.inBedMinutes = r[3].double ?? 0; n.coreMinutes = r[4].double ?? 0; n.deepMinutes = r[5].double ?? 0
            n.remMinutes = r[6].double ?? 0; n.unspecifiedMinutes = r[7].double ?? 0; n.awakeMinutes = r[8].double ?? 0
            n.sources = (r[9].string ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            n.napMinutes = r[10].double ?? 0; n.naps = Int(r[11].int ?? 0)
            return n
        }
    }
}
