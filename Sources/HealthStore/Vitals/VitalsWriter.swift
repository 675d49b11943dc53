import HealthCore
import SQLite

/// Writes the vitals tables for some days (nil: every day), replacing what was there, inside
/// the caller's transaction.
extension VitalsStore {
    /// Deletes the rows of `days` (nil: every row) from the four vitals tables.
    package func clear(days: Set<CivilDate>?) throws {
        let tables = [("daily_vitals", "date"), ("hrv_measurements", "local_date"), ("workout_details", "local_date"),
                      ("blood_pressure", "local_date")]
        let copies = "metric = '\(Self.workoutsMetric)'"
        guard let days else {
            for (table, _) in tables { try database.execute("DELETE FROM \(table)") }
            try database.execute("DELETE FROM reconciliation WHERE \(copies); DELETE FROM reconciliation_sources WHERE \(copies)")
            return
        }
        for (table, column) in tables {
            let stmt = try database.prepare("DELETE FROM \(table) WHERE \(column) = ?")
            for d in days { stmt.bind(1, d.iso8601); try stmt.run() }
        }
        for table in ["reconciliation", "reconciliation_sources"] {
            let stmt = try database.prepare("DELETE FROM \(table) WHERE date = ? AND \(copies)")
            for d in days { stmt.bind(1, d.iso8601); try stmt.run() }
        }
        // A workout without a local date belongs to no day: rewritten with every run.
        try database.execute("DELETE FROM workout_details WHERE local_date IS NULL")
    }

    /// The `reconciliation` metric of workouts stored twice (issue 44): on a day where a workout
    /// is a copy of another, `merged` is the workouts counted, `all_sources_sum` every row,
    /// `overlap_removed` the copies; `reconciliation_sources` gives each source's workouts counted
    /// (`total`; a copy's source 0) and stored (`samples`), and its priority.
    package static let workoutsMetric = "workouts"

    package struct WorkoutSourceTally: Sendable {
        package var source: String, deviceModel: String?
        package var stored = 0, counted = 0
        package var priority: Int
        package init(source: String, deviceModel: String?, priority: Int) {
            self.source = source; self.deviceModel = deviceModel; self.priority = priority
        }
    }

    package func insert(workoutCopies days: [CivilDate: [WorkoutSourceTally]]) throws {
        let day = try database.prepare("""
            INSERT INTO reconciliation (date, metric, merged, all_sources_sum, overlap_removed, source_count) VALUES (?,?,?,?,?,?)
            """)
        let source = try database.prepare("""
            INSERT INTO reconciliation_sources (date, metric, source_name, device_model, total, samples, priority) VALUES (?,?,?,?,?,?,?)
            """)
        for (date, tallies) in days.sorted(by: { $0.key < $1.key }) {
            let counted = tallies.reduce(0) { $0 + $1.counted }, stored = tallies.reduce(0) { $0 + $1.stored }
            day.bind(1, date.iso8601); day.bind(2, Self.workoutsMetric); day.bind(3, Double(counted)); day.bind(4, Double(stored))
            day.bind(5, Double(stored - counted)); day.bind(6, Int64(tallies.count))
            try day.run()
            for t in tallies {
                source.bind(1, date.iso8601); source.bind(2, Self.workoutsMetric); source.bind(3, t.source); source.bind(4, t.deviceModel)
                source.bind(5, Double(t.counted)); source.bind(6, Int64(t.stored)); source.bind(7, Int64(t.priority))
                try source.run()
            }
        }
    }

    package func insert(hrv rows: [HRVRow]) throws {
        let stmt = try database.prepare("""
            INSERT OR REPLACE INTO hrv_measurements (sample_id, local_date, start_utc, source_name, beats, intervals, mean_nn_ms,
              sdnn_ms, rmssd_ms, pnn50_percent, apple_sdnn_ms, note) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        for r in rows {
            stmt.bind(1, r.list.sampleID); stmt.bind(2, r.list.localDay.iso8601); stmt.bind(3, r.list.start.iso8601)
            stmt.bind(4, r.list.source); stmt.bind(5, Int64(r.beats)); stmt.bind(6, Int64(r.intervals))
            stmt.bind(7, r.meanNN); stmt.bind(8, r.sdnn); stmt.bind(9, r.rmssd); stmt.bind(10, r.pnn50)
            stmt.bind(11, r.list.appleSDNN); stmt.bind(12, r.note)
            try stmt.run()
        }
    }

    package func insert(workouts rows: [WorkoutRow]) throws {
        let stmt = try database.prepare("""
            INSERT OR REPLACE INTO workout_details (workout_id, local_date, activity, local_start, local_end, duration_min,
              distance_m, energy_kcal, avg_heart_rate, max_heart_rate, heart_rate_samples, zone1_seconds, zone2_seconds,
              zone3_seconds, zone4_seconds, zone5_seconds, zone_max_heart_rate, route_distance_m, elevation_gain_m,
              pace_min_per_km, note, duplicate_of) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        for r in rows {
            let w = r.workout
            stmt.bind(1, w.id); stmt.bind(2, w.localDate?.iso8601); stmt.bind(3, WorkoutDisplay.name(w.activityType))
            stmt.bind(4, r.localStart); stmt.bind(5, r.localEnd); stmt.bind(6, w.durationMinutes); stmt.bind(7, w.distance)
            stmt.bind(8, w.energy); stmt.bind(9, r.averageHeartRate); stmt.bind(10, r.maximumHeartRate)
            stmt.bind(11, Int64(r.heartRateSamples))
            for z in 0..<5 { stmt.bind(Int32(12 + z), r.zoneSeconds?[z]) }
            stmt.bind(17, r.zoneMaximum); stmt.bind(18, r.routeDistance); stmt.bind(19, r.elevationGain)
            stmt.bind(20, r.pace); stmt.bind(21, r.note); stmt.bind(22, r.duplicateOf)
            try stmt.run()
        }
    }

    package func insert(pressure rows: [(PressureReading, CivilDate)]) throws {
        let stmt = try database.prepare("""
            INSERT OR REPLACE INTO blood_pressure (correlation_id, local_date, time_utc, systolic_mmhg, diastolic_mmhg, source_name)
            VALUES (?,?,?,?,?,?)
            """)
        for (r, day) in rows {
            stmt.bind(1, r.correlationID); stmt.bind(2, day.iso8601); stmt.bind(3, r.time.iso8601)
            stmt.bind(4, r.systolic); stmt.bind(5, r.diastolic); stmt.bind(6, r.source)
            try stmt.run()
        }
    }

    /// One row per day with at least one value; `values` in `dailyVitalColumns` order.
    package func insert(dailyVitals rows: [CivilDate: [Double?]]) throws {
        let columns = Self.dailyVitalColumns
        let stmt = try database.prepare("""
            INSERT OR REPLACE INTO daily_vitals (date, \(columns.joined(separator: ", ")))
            VALUES (?\(String(repeating: ",?", count: columns.count)))
            """)
        for (day, values) in rows.sorted(by: { $0.key < $1.key }) where values.contains(where: { $0 != nil }) {
            stmt.bind(1, day.iso8601)
            for (i, v) in values.enumerated() { stmt.bind(Int32(i + 2), v) }
            try stmt.run()
        }
    }

    /// The vitals tables were last computed by this version (`settings.vitals`); an older store
    /// upgraded in place has none, and its first run computes every day.
    package func computedVersion() throws -> Int? {
        try database.rows("SELECT value FROM settings WHERE key = 'vitals'").first?.first?.string.flatMap { Int($0) }
    }

    package func markComputed() throws {
        try database.rows("INSERT OR REPLACE INTO settings (key, value) VALUES ('vitals', ?)",
                          [.text(String(StoreSchema.vitalsVersion))])
    }
}

/// Display names live with the store so every reader (tables, workbook, report) shows the same.
package enum WorkoutDisplay {
    /// `Traditional Strength Training` for `HKWorkoutActivityTypeTraditionalStrengthTraining`.
    package static func name(_ activityType: String) -> String {
        var stem = Substring(activityType)
        for prefix in ["HKWorkoutActivityType", "HKWorkoutActivity"] where stem.hasPrefix(prefix) {
            stem = stem.dropFirst(prefix.count); break
        }
        guard !stem.isEmpty else { return activityType }
        var words = ""
        var previous: Character?
        for c in stem {
            // A new word at a capital after a lower-case letter or digit (`TaiChi`, not `HIIT`).
            if c.isUppercase, let p = previous, p.isLowercase || p.isNumber { words.append(" ") }
            words.append(c); previous = c
        }
        return words
    }
}
