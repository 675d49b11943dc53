import HealthCore
import SQLite

/// Reading the vitals tables back (the report's Heart and vitals section), so that no reader
/// holds their SQL.
extension VitalsStore {
    /// Every `daily_vitals` row, oldest first, values in `dailyVitalColumns` order. A store
    /// without the table (older than version 6, not yet imported by this one) has none.
    package func dailyVitals() throws -> [(date: CivilDate, values: [Double?])] {
        guard try database.hasTable("daily_vitals") else { return [] }
        let stmt = try database.prepare("SELECT date, \(Self.dailyVitalColumns.joined(separator: ", ")) FROM daily_vitals ORDER BY date")
        var rows: [(CivilDate, [Double?])] = []
        while try stmt.step() {
            guard let d = stmt.text(0).flatMap({ CivilDate(iso: $0) }) else { continue }
            rows.append((d, (1...Self.dailyVitalColumns.count).map { stmt.real(Int32($0)) }))
        }
        return rows
    }

    package struct PressureRow: Sendable, Equatable {
        package var date: CivilDate
        package var time: Timestamp
        package var systolic: Double?, diastolic: Double?
    }

    /// The latest `limit` blood-pressure readings, oldest first.
    package func latestPressure(limit: Int) throws -> [PressureRow] {
        guard try database.hasTable("blood_pressure") else { return [] }
        return try database.rows("""
            SELECT local_date, time_utc, systolic_mmhg, diastolic_mmhg FROM
              (SELECT * FROM blood_pressure ORDER BY time_utc DESC, correlation_id DESC LIMIT ?) ORDER BY time_utc, correlation_id
            """, [.integer(Int64(limit))]).compactMap { r in
            guard let d = r[0].string.flatMap({ CivilDate(iso: $0) }), let t = r[1].string.flatMap(Timestamp.init(iso8601:)) else { return nil }
            return PressureRow(date: d, time: t, systolic: r[2].double, diastolic: r[3].double)
        }
    }

    package struct WorkoutDetail: Sendable, Equatable {
        package var activity: String
        package var localStart: String?
        package var minutes: Double?, distance: Double?, energy: Double?
        package var averageHeartRate: Double?, maximumHeartRate: Double?
        /// Seconds in zones 1…5, nil without heart rate or a maximum.
        package var zoneSeconds: [Double]?
        package var routeDistance: Double?, elevationGain: Double?, pace: Double?
    }

    /// The latest `limit` workouts, newest first (a copy of another, `duplicate_of`, left out).
    package func latestWorkouts(limit: Int) throws -> [WorkoutDetail] {
        guard try database.hasTable("workout_details") else { return [] }
        return try database.rows("""
            SELECT d.activity, d.local_start, d.duration_min, d.distance_m, d.energy_kcal, d.avg_heart_rate, d.max_heart_rate,
                   d.zone1_seconds, d.zone2_seconds, d.zone3_seconds, d.zone4_seconds, d.zone5_seconds,
                   d.route_distance_m, d.elevation_gain_m, d.pace_min_per_km
            FROM workout_details d JOIN workouts w ON w.id = d.workout_id WHERE d.duplicate_of IS NULL
            ORDER BY w.start_us DESC, d.workout_id DESC LIMIT ?
            """, [.integer(Int64(limit))]).map { r in
            let zones = (7...11).map { r[$0].double }
            return WorkoutDetail(activity: r[0].string ?? "", localStart: r[1].string, minutes: r[2].double, distance: r[3].double,
                                 energy: r[4].double, averageHeartRate: r[5].double, maximumHeartRate: r[6].double,
                                 zoneSeconds: zones.contains(nil) ? nil : zones.map { $0! },
                                 routeDistance: r[12].double, elevationGain: r[13].double, pace: r[14].double)
        }
    }
}
