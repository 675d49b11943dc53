import HealthAggregate
import HealthCore
import HealthDedupe
import HealthStore

/// Computes the vitals tables (docs/vitals-hrv-workouts.md) from a loaded store, after the
/// analytics: nothing here runs on the ingest path. `days` nil computes every day; an
/// incremental run passes the days it touched (and a store without vitals yet computes all).
package struct VitalsBuilder {
    package var calendar: LocalCalendar
    /// The pipeline's or person's `maxHeartRate`; nil: from the profile's birth date.
    package var maxHeartRate: Double?
    /// Which of two copies of one workout is counted (`WorkoutCopies`).
    package var sourcePriority: SourcePriority

    package init(calendar: LocalCalendar, maxHeartRate: Double?, sourcePriority: SourcePriority = SourcePriority()) {
        self.calendar = calendar; self.maxHeartRate = maxHeartRate; self.sourcePriority = sourcePriority
    }

    package struct Result: Sendable, Equatable { package var measurements = 0, workouts = 0, days = 0, notes = 0 }

    /// One daily-vitals column and how its day's value is made.
    enum DayRule { case mean(String), latest(String), percentMean(String), percentLatest(String) }
    static let rules: [String: DayRule] = [
        "resting_heart_rate": .mean("HKQuantityTypeIdentifierRestingHeartRate"),
        "walking_heart_rate": .mean("HKQuantityTypeIdentifierWalkingHeartRateAverage"),
        "hrv_sdnn_ms": .mean("HKQuantityTypeIdentifierHeartRateVariabilitySDNN"),
        "vo2_max": .latest("HKQuantityTypeIdentifierVO2Max"),
        "weight_kg": .latest("HKQuantityTypeIdentifierBodyMass"),
        "bmi": .latest("HKQuantityTypeIdentifierBodyMassIndex"),
        "body_fat_percent": .percentLatest("HKQuantityTypeIdentifierBodyFatPercentage"),
        "spo2_percent": .percentMean("HKQuantityTypeIdentifierOxygenSaturation"),
        "respiratory_rate": .mean("HKQuantityTypeIdentifierRespiratoryRate"),
        "wrist_temperature_degc": .mean("HKQuantityTypeIdentifierAppleSleepingWristTemperature"),
        "blood_glucose_mg_dl": .mean("HKQuantityTypeIdentifierBloodGlucose"),
    ]

    /// `heartRates`: every workout's, gathered from the series (a full build); read from the
    /// store if nil.
    package mutating func update(_ store: VitalsStore, days requested: Set<CivilDate>?,
                                heartRates: WorkoutHeartRates? = nil) throws -> Result {
        let days = try store.computedVersion() == StoreSchema.vitalsVersion ? requested : nil
        try store.clear(days: days)
        var result = Result()

        var hrv: [VitalsStore.HRVRow] = []
        try store.forEachBeatList(days: days) { list in
            let figures = BeatIntervals(beats: list.beats.map { .init(timeMicroseconds: $0.timeMicroseconds, bpm: $0.bpm) })
            hrv.append(.init(list: list, beats: figures.beats, intervals: figures.intervals, meanNN: figures.meanNN,
                             sdnn: figures.sdnn, rmssd: figures.rmssd, pnn50: figures.pnn50, note: figures.problem?.rawValue))
            if figures.problem != nil { result.notes += 1 }
        }
        try store.insert(hrv: hrv)
        result.measurements = hrv.count

        let workouts = try workoutRows(store, days: days, heartRates: heartRates)
        result.notes += workouts.filter { $0.note != nil }.count
        try store.insert(workouts: workouts)
        try store.insert(workoutCopies: copyTallies(workouts))
        result.workouts = workouts.count

        // Blood pressure: correlations are few, and the merge reports no days for them, so every
        // reading is dated and those of the days being computed kept.
        let pressure = try store.pressureReadings().map { ($0, calendar.localDate(of: $0.time)) }
            .filter { days?.contains($0.1) ?? true }
        try store.insert(pressure: pressure)

        try store.insert(dailyVitals: try dailyVitals(store, days: days))
        try store.markComputed()
        return result
    }

    func dailyVitals(_ store: VitalsStore, days: Set<CivilDate>?) throws -> [CivilDate: [Double?]] {
        let columns = VitalsStore.dailyVitalColumns
        var rows: [CivilDate: [Double?]] = [:]
        func set(_ column: String, _ values: [CivilDate: Double]) {
            let i = columns.firstIndex(of: column)!
            for (d, v) in values { rows[d, default: Array(repeating: nil, count: columns.count)][i] = v }
        }
        let meanTypes = Set(Self.rules.values.compactMap { rule -> String? in
            switch rule {
            case .mean(let type), .percentMean(let type): type
            case .latest, .percentLatest: nil
            }
        })
        let means = try store.dailyMeans(types: meanTypes, days: days)
        for (column, rule) in Self.rules {
            switch rule {
            case .mean(let type): set(column, means[type] ?? [:])
            case .latest(let type): set(column, try store.dailyLatest(type: type, days: days))
            case .percentMean(let type): set(column, (means[type] ?? [:]).mapValues(Self.percent))
            case .percentLatest(let type): set(column, try store.dailyLatest(type: type, days: days).mapValues(Self.percent))
            }
        }
        set("hrv_rmssd_ms", try store.dailyRMSSD(days: days))
        let pressure = try store.dailyBloodPressure(days: days)
        set("systolic_mmhg", pressure.compactMapValues(\.systolic))
        set("diastolic_mmhg", pressure.compactMapValues(\.diastolic))
        return rows
    }

    /// Apple writes these as fractions (0.97) with the unit `%`; a few apps write 97.
    static func percent(_ value: Double) -> Double { value <= 1 ? value * 100 : value }

    func workoutRows(_ store: VitalsStore, days: Set<CivilDate>?, heartRates: WorkoutHeartRates? = nil) throws -> [VitalsStore.WorkoutRow] {
        let birth = try store.birthDate()
        var calendar = self.calendar
        var rows: [VitalsStore.WorkoutRow] = []
        let routePoints = try store.routePointReader()
        let workouts = try store.workouts(days: days)
        // Copies are found among the workouts of the same days: a copy starts when its original does.
        let copies = WorkoutCopies.find(workouts.compactMap { w in
            guard let start = w.start, let end = w.end else { return nil }
            return .init(id: w.id, activity: w.activityType,
                         source: .init(name: w.sourceName, deviceModel: w.deviceModel, userEntered: false),
                         start: start.microseconds, end: end.microseconds)
        }, priority: sourcePriority)
        let sources = Dictionary(workouts.map { ($0.id, $0.sourceName) }, uniquingKeysWith: { a, _ in a })
        let sharedFiles = try store.sharedRouteFiles()
        for w in workouts {
            var row = VitalsStore.WorkoutRow(workout: w)
            row.duplicateOf = copies[w.id]
            guard let start = w.start, let end = w.end, end.microseconds >= start.microseconds else {
                row.note = "no start or end time"; rows.append(row); continue
            }
            row.localStart = Self.localText(start, &calendar)
            row.localEnd = Self.localText(end, &calendar)
            let rates = try heartRates?.rates[w.id] ?? store.heartRates(from: start, to: end)
            row.heartRateSamples = rates.count
            var notes: [String] = []
            let minutes = Double(end.microseconds - start.microseconds) / 60_000_000
            let sampleAverage = rates.isEmpty ? nil : rates.reduce(0) { $0 + $1.bpm } / Double(rates.count)
            if !WorkoutFigures.enoughForZones(samples: rates.count, minutes: minutes) {
                // Too few samples to say what the heart did: Apple's own statistics where the export
                // has them (and no zones), else the samples there are, said to be few.
                let few = rates.isEmpty ? "no heart-rate samples"
                    : "\(rates.count) heart-rate sample\(rates.count == 1 ? "" : "s") in \(Int(minutes.rounded())) min"
                if let average = w.appleAverageHeartRate {
                    row.averageHeartRate = average
                    row.maximumHeartRate = w.appleMaximumHeartRate
                    notes.append("heart rate from Apple's workout statistics (\(few): too few for zones)")
                } else {
                    row.averageHeartRate = sampleAverage
                    row.maximumHeartRate = rates.map(\.bpm).max()
                    notes.append(rates.isEmpty ? few : "\(few): too few for zones")
                }
            } else {
                row.averageHeartRate = sampleAverage
                row.maximumHeartRate = rates.map(\.bpm).max()
                let day = w.localDate ?? calendar.localDate(of: start)
                if let maximum = maxHeartRate ?? HeartRateZones.maximum(birthDate: birth, on: day) {
                    row.zoneMaximum = maximum
                    row.zoneSeconds = HeartRateZones.seconds(rates, end: end.microseconds, maximum: maximum)
                } else {
                    notes.append("no birth date or maxHeartRate for zones")
                }
            }
            var measure = RouteFigures.Measure()
            try routePoints(w.id) { measure.add($0, $1, $2) }
            var routeUsable = false
            if measure.count >= 2 {
                let route = measure.figures
                row.routeDistance = route.distance
                row.elevationGain = route.gain
                if let speed = WorkoutFigures.impossibleSpeed(activity: w.activityType, meters: route.distance, minutes: minutes) {
                    notes.append("the route's GPS speed (\(Int(speed.rounded())) km/h) is impossible for \(WorkoutDisplay.name(w.activityType).lowercased()): its distance is not used")
                } else {
                    routeUsable = true
                }
            }
            if let shared = sharedFiles[w.id] {
                let file = shared.file.split(separator: "/").last.map(String.init) ?? shared.file
                notes.append(measure.count == 0
                    ? "its route file \(file) is named by workout \(shared.other)'s route too (Apple reuses names; the export holds one file): its points went there"
                    : "its route file \(file) is named by workout \(shared.other)'s route too (Apple reuses names): the points are this workout's, by their times")
            }
            // One distance per row: the pace is of the distance shown (Apple's), else the route's.
            let paceDistance = w.distance.flatMap { $0 > 0 ? $0 : nil } ?? (routeUsable ? row.routeDistance : nil)
            if let meters = paceDistance, meters > 0, let duration = w.durationMinutes, duration > 0 {
                row.pace = duration / (meters / 1000)
            }
            if let original = row.duplicateOf {
                notes.insert("a copy of workout \(original) (\(sources[original] ?? "")), counted there", at: 0)
            }
            row.note = notes.isEmpty ? nil : notes.joined(separator: "; ")
            rows.append(row)
        }
        return rows
    }

    /// The days where a workout is a copy of another, each with its sources' workouts stored and
    /// counted (the reconciliation of workouts, `VitalsStore.insert(workoutCopies:)`).
    func copyTallies(_ rows: [VitalsStore.WorkoutRow]) -> [CivilDate: [VitalsStore.WorkoutSourceTally]] {
        let days = Set(rows.compactMap { $0.duplicateOf == nil ? nil : $0.workout.localDate })
        let candidate = { (w: VitalsStore.Workout) in SourcePriority.Candidate(name: w.sourceName, deviceModel: w.deviceModel, userEntered: false) }
        let ranks = sourcePriority.ranks(of: rows.filter { $0.workout.localDate.map(days.contains) == true }.map { candidate($0.workout) })
        var tallies: [CivilDate: [SourcePriority.Candidate: VitalsStore.WorkoutSourceTally]] = [:]
        for row in rows {
            guard let date = row.workout.localDate, days.contains(date) else { continue }
            let key = candidate(row.workout)
            var tally = tallies[date]?[key]
                ?? .init(source: key.name, deviceModel: key.deviceModel, priority: (ranks[key] ?? 0) + 1)   // 1 = best, as in `sources`
            tally.stored += 1
            if row.duplicateOf == nil { tally.counted += 1 }
            tallies[date, default: [:]][key] = tally
        }
        return tallies.mapValues { $0.values.sorted { ($0.priority, $0.source) < ($1.priority, $1.source) } }
    }

    /// `2024-01-10T07:30:00` on the local clock of the analytics' zone.
    /// The calendar's date and clock (not instant + offset: a traveller's calendar can hold a date).
    static func localText(_ instant: Timestamp, _ calendar: inout LocalCalendar) -> String {
        let second = calendar.secondOfDay(instant)
        return calendar.localDate(of: instant).iso8601 + "T" + [second / 3600, second / 60 % 60, second % 60]
            .map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }
}
