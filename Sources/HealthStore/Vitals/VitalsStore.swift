import HealthCore
import SQLite

/// The store's side of the vitals (docs/vitals-hrv-workouts.md): what the vitals are computed
/// from, read after the load, and the four tables they are written to. The rules themselves
/// are HealthAggregate's (`BeatIntervals`, `HeartRateZones`, `RouteFigures`); HealthAnalytics'
/// `VitalsBuilder` puts the two together.
package struct VitalsStore {
    let database: Database
    package init(database: Database) { self.database = database }

    static let hrvType = "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"
    static let heartRateType = "HKQuantityTypeIdentifierHeartRate"

    /// `days` as the integer local days of `sample_data`, nil for every day.
    static func dayNumbers(_ days: Set<CivilDate>?) -> Set<Int64>? {
        days.map { Set($0.map { Int64($0.daysSinceEpoch) }) }
    }

    // MARK: HRV

    package struct BeatList: Sendable {
        package var sampleID: Int64
        package var localDay: CivilDate
        package var start: Timestamp
        package var source: String
        /// Apple's SDNN (the record's value) where the list sits on an HRV record.
        package var appleSDNN: Double?
        package var beats: [(timeMicroseconds: Int64?, bpm: Double?)]
    }

    /// Every stored beat list of `days` (nil: all), one at a time, beats in the export's order.
    package func forEachBeatList(days: Set<CivilDate>?, _ body: (BeatList) throws -> Void) throws {
        let wanted = Self.dayNumbers(days)
        let stmt = try database.prepare("""
            SELECT h.sample_id, s.local_day, s.start_us, src.name, CASE WHEN t.identifier = ? THEN s.value END, h.time_us, h.bpm
            FROM heartbeat_data h JOIN sample_data s ON s.id = h.sample_id JOIN types t ON t.id = s.type_id
            JOIN sources src ON src.id = s.source_id ORDER BY h.sample_id, h.rowid
            """)
        stmt.bind(1, Self.hrvType)
        var current: BeatList?
        while try stmt.step() {
            let id = stmt.int64(0)
            if current?.sampleID != id {
                if let list = current { try body(list) }
                current = nil
                let day = stmt.int64(1)
                if let wanted, !wanted.contains(day) { continue }
                current = BeatList(sampleID: id, localDay: CivilDate(daysSinceEpoch: Int(day)),
                                   start: Timestamp(microseconds: stmt.int64(2)), source: stmt.text(3) ?? "",
                                   appleSDNN: stmt.real(4), beats: [])
            }
            guard current != nil else { continue }
            current!.beats.append((stmt.isNull(5) ? nil : stmt.int64(5), stmt.real(6)))
        }
        if let list = current { try body(list) }
    }

    package struct HRVRow: Sendable {
        package var list: BeatList
        package var beats: Int, intervals: Int
        package var meanNN: Double?, sdnn: Double?, rmssd: Double?, pnn50: Double?
        package var note: String?
        package init(list: BeatList, beats: Int, intervals: Int, meanNN: Double?, sdnn: Double?, rmssd: Double?,
                    pnn50: Double?, note: String?) {
            self.list = list; self.beats = beats; self.intervals = intervals; self.meanNN = meanNN; self.sdnn = sdnn
            self.rmssd = rmssd; self.pnn50 = pnn50; self.note = note
        }
    }

    // MARK: Workouts

    package struct Workout: Sendable {
        package var id: Int64
        package var activityType: String
        package var localDate: CivilDate?
        package var start: Timestamp?, end: Timestamp?
        package var durationMinutes: Double?, distance: Double?, energy: Double?
        package var sourceName = "", deviceModel: String?
        /// Apple's own statistics of the workout (`WorkoutStatistics` of HeartRate), if the export has them.
        package var appleAverageHeartRate: Double?, appleMaximumHeartRate: Double?
    }

    /// The workouts of `days` (by their local date; nil: all), and those without a date.
    package func workouts(days: Set<CivilDate>?) throws -> [Workout] {
        var result: [Workout] = []
        let stmt = try database.prepare("""
            SELECT id, activity_type, local_date, start_us, end_us, duration_min, distance_m, energy_kcal, source_name, device_model,
                   avg_heart_rate, max_heart_rate
            FROM workouts ORDER BY id
            """)
        while try stmt.step() {
            let date = stmt.text(2).flatMap { CivilDate(iso: $0) }
            // A workout without a local date is on no day: it is written with every run (`clear`
            // deletes it with every run).
            if let days, let date, !days.contains(date) { continue }
            result.append(Workout(id: stmt.int64(0), activityType: stmt.text(1) ?? "", localDate: date,
                                  start: stmt.isNull(3) ? nil : Timestamp(microseconds: stmt.int64(3)),
                                  end: stmt.isNull(4) ? nil : Timestamp(microseconds: stmt.int64(4)),
                                  durationMinutes: stmt.real(5), distance: stmt.real(6), energy: stmt.real(7),
                                  sourceName: stmt.text(8) ?? "", deviceModel: stmt.text(9),
                                  appleAverageHeartRate: stmt.real(10), appleMaximumHeartRate: stmt.real(11)))
        }
        return result
    }

    /// Heart-rate samples (start µs, bpm) starting inside [start, end), in time order, of every source.
    package func heartRates(from start: Timestamp, to end: Timestamp) throws -> [(start: Int64, bpm: Double)] {
        let stmt = try database.prepare("""
            SELECT s.start_us, s.value FROM sample_data s
            WHERE s.type_id = (SELECT id FROM types WHERE identifier = ?) AND s.start_us >= ? AND s.start_us < ?
              AND s.value > 0 ORDER BY s.start_us, s.id
            """)
        stmt.bind(1, Self.heartRateType); stmt.bind(2, start.microseconds); stmt.bind(3, end.microseconds)
        var rows: [(Int64, Double)] = []
        while try stmt.step() { rows.append((stmt.int64(0), stmt.real(1) ?? 0)) }
        return rows
    }

    /// The route points of a workout, every route in order, handed to `visit` one by one (a
    /// route of millions of points is never held), for workout after workout: the query
    /// prepared once (preparing it cost more than running it). Each workout's routes are
    /// listed first, in one pass: found per workout, by a join, they were a scan of every
    /// route (`workout_routes` has no index on `workout_id`), 23 s for 20,000 routed workouts.
    package func routePointReader() throws -> (Int64, (_ latitude: Double, _ longitude: Double, _ altitude: Double?) -> Void) throws -> Void {
        var routes: [Int64: [Int64]] = [:]
        let list = try database.prepare("SELECT workout_id, id FROM workout_routes ORDER BY id")
        while try list.step() { routes[list.int64(0), default: []].append(list.int64(1)) }
        let stmt = try database.prepare("SELECT latitude, longitude, altitude FROM workout_route_points WHERE route_id = ? ORDER BY rowid")
        return { [routes] workout, visit in
            for route in routes[workout] ?? [] {
                stmt.bind(1, route)
                while try stmt.step() { visit(stmt.real(0) ?? 0, stmt.real(1) ?? 0, stmt.real(2)) }
            }
        }
    }

    /// Workouts whose route names a GPX file another workout's route names too (Apple reuses
    /// names; the export holds one file): each such workout → the file and the other workout.
    package func sharedRouteFiles() throws -> [Int64: (file: String, other: Int64)] {
        var shared: [Int64: (file: String, other: Int64)] = [:]
        for row in try database.rows("""
            SELECT a.workout_id, a.file_path, b.workout_id FROM workout_routes a
            JOIN workout_routes b ON b.file_path = a.file_path AND b.id != a.id AND b.workout_id != a.workout_id
            ORDER BY a.workout_id, b.workout_id
            """) {
            guard let workout = row[0].int, let file = row[1].string, let other = row[2].int, shared[workout] == nil else { continue }
            shared[workout] = (file, other)
        }
        return shared
    }

    /// The birth date of the export's `Me` (nil: none, or not a day).
    package func birthDate() throws -> CivilDate? {
        try database.scalar("SELECT date_of_birth FROM profile WHERE id = 1").string.flatMap { CivilDate(iso: String($0.prefix(10))) }
    }

    package struct WorkoutRow: Sendable {
        package var workout: Workout
        package var localStart: String?, localEnd: String?
        package var averageHeartRate: Double?, maximumHeartRate: Double?
        package var heartRateSamples: Int
        package var zoneSeconds: [Double]?
        package var zoneMaximum: Double?
        package var routeDistance: Double?, elevationGain: Double?, pace: Double?
        /// The workout this one is a copy of (the same activity at the same time, recorded by a
        /// source of lower priority): listed, but counted there, not here.
        package var duplicateOf: Int64?
        package var note: String?
        package init(workout: Workout) { self.workout = workout; heartRateSamples = 0 }
    }

    // MARK: Blood pressure

    package struct PressureReading: Sendable {
        package var correlationID: Int64
        package var time: Timestamp
        package var systolic: Double?, diastolic: Double?
        package var source: String?
    }

    /// Every blood-pressure correlation, its two members read together.
    package func pressureReadings() throws -> [PressureReading] {
        let stmt = try database.prepare("""
            SELECT c.id, c.start_utc,
                   (SELECT value FROM correlation_members m WHERE m.correlation_id = c.id
                      AND m.type = 'HKQuantityTypeIdentifierBloodPressureSystolic' LIMIT 1),
                   (SELECT value FROM correlation_members m WHERE m.correlation_id = c.id
                      AND m.type = 'HKQuantityTypeIdentifierBloodPressureDiastolic' LIMIT 1),
                   src.name
            FROM correlations c LEFT JOIN sources src ON src.id = c.source_id
            WHERE c.type = 'HKCorrelationTypeIdentifierBloodPressure' ORDER BY c.start_utc, c.id
            """)
        var rows: [PressureReading] = []
        while try stmt.step() {
            guard let time = stmt.text(1).flatMap(Timestamp.init(iso8601:)) else { continue }
            rows.append(PressureReading(correlationID: stmt.int64(0), time: time, systolic: stmt.real(2),
                                        diastolic: stmt.real(3), source: stmt.text(4)))
        }
        return rows
    }

    // MARK: Daily vitals

    /// Each of `types`' mean by day from `daily_metrics` (the analytics' priority-merged days),
    /// in one read of the table (keyed by date first: a read per type read it all each time),
    /// of the rows of those types only (the others are most of the table).
    package func dailyMeans(types: Set<String>, days: Set<CivilDate>?) throws -> [String: [CivilDate: Double]] {
        let wanted = types.sorted()
        let stmt = try database.prepare("SELECT date, type, average FROM daily_metrics WHERE average IS NOT NULL AND type IN ("
                                        + Array(repeating: "?", count: wanted.count).joined(separator: ", ") + ")")
        for (i, type) in wanted.enumerated() { stmt.bind(Int32(i + 1), type) }
        var result: [String: [CivilDate: Double]] = [:]
        while try stmt.step() {
            guard let type = stmt.text(1), types.contains(type),
                  let d = stmt.text(0).flatMap({ CivilDate(iso: $0) }), days?.contains(d) ?? true else { continue }
            result[type, default: [:]][d] = stmt.real(2)
        }
        return result
    }

    /// The day's latest reading of a type (by start, then the newest row), of every source.
    package func dailyLatest(type: String, days: Set<CivilDate>?) throws -> [CivilDate: Double] {
        let wanted = Self.dayNumbers(days)
        let stmt = try database.prepare("""
            SELECT local_day, value FROM sample_data WHERE type_id = (SELECT id FROM types WHERE identifier = ?)
              AND value IS NOT NULL ORDER BY local_day, start_us, id
            """)
        stmt.bind(1, type)
        var result: [CivilDate: Double] = [:]
        while try stmt.step() {
            let day = stmt.int64(0)
            if let wanted, !wanted.contains(day) { continue }
            result[CivilDate(daysSinceEpoch: Int(day))] = stmt.real(1)
        }
        return result
    }

    /// Each day's mean RMSSD of the stored HRV measurements (ms).
    package func dailyRMSSD(days: Set<CivilDate>?) throws -> [CivilDate: Double] {
        try storedDailyMeans("SELECT local_date, rmssd_ms FROM hrv_measurements WHERE rmssd_ms IS NOT NULL", days: days)
            .compactMapValues { $0[0] }
    }

    /// Each day's mean systolic and diastolic pressure of the stored readings (mmHg).
    package func dailyBloodPressure(days: Set<CivilDate>?) throws -> [CivilDate: (systolic: Double?, diastolic: Double?)] {
        try storedDailyMeans("SELECT local_date, systolic_mmhg, diastolic_mmhg FROM blood_pressure", days: days)
            .mapValues { ($0[0], $0[1]) }
    }

    /// Stored means of this table's rows by day (HRV's RMSSD, blood pressure).
    /// Each day's mean of every value column of the rows `sql` returns (`date, value, …`),
    /// NULLs left out. The values are added in ascending order, not in the rows' order: an
    /// incremental store holds a day's rows in another order than a full one, and a sum in row
    /// order differed from a full import's in the last bits (issue 44).
    func storedDailyMeans(_ sql: String, days: Set<CivilDate>?) throws -> [CivilDate: [Double?]] {
        let stmt = try database.prepare(sql)
        var values: [CivilDate: [[Double]]] = [:]
        let columns = Int(stmt.columnCount) - 1
        while try stmt.step() {
            guard let d = stmt.text(0).flatMap({ CivilDate(iso: $0) }), days?.contains(d) ?? true else { continue }
            var day = values[d] ?? Array(repeating: [], count: columns)
            for c in 0..<columns { if let v = stmt.real(Int32(c + 1)) { day[c].append(v) } }
            values[d] = day
        }
        return values.mapValues { day in day.map { $0.isEmpty ? nil : $0.sorted().reduce(0, +) / Double($0.count) } }
    }

    package static let dailyVitalColumns = ["resting_heart_rate", "walking_heart_rate", "hrv_sdnn_ms", "hrv_rmssd_ms",
                                           "vo2_max", "weight_kg", "bmi", "body_fat_percent", "systolic_mmhg",
                                           "diastolic_mmhg", "spo2_percent", "respiratory_rate", "wrist_temperature_degc",
                                           "blood_glucose_mg_dl"]
}

extension Statement {
    /// A REAL cell, nil when NULL.
    func real(_ i: Int32) -> Double? { isNull(i) ? nil : double(i) }
}
