import Foundation
import HealthCore
import HealthStore
import SQLite

/// The metrics the report shows, with their goal and how a day's value is read.
package enum ReportMetric: String, CaseIterable, Sendable {
    case steps, activeEnergy = "energy", exercise, stand, sleep

    /// The goal's name in running text (`move`, as the ring is called).
    package var goalName: String {
        switch self {
        case .steps: "steps"
        case .activeEnergy: "move"
        case .exercise: "exercise"
        case .stand: "stand"
        case .sleep: "sleep"
        }
    }

    package var title: String {
        switch self {
        case .steps: "Steps"
        case .activeEnergy: "Active energy"
        case .exercise: "Exercise"
        case .stand: "Stand hours"
        case .sleep: "Sleep"
        }
    }

    package var unit: String {
        switch self {
        case .steps: "steps"
        case .activeEnergy: "kcal"
        case .exercise: "min"
        case .stand: "h"
        case .sleep: "h"
        }
    }

    /// The `daily_analytics` column whose value a calendar cell carries (stand hours come from
    /// the Activity rings).
    package var column: String {
        switch self {
        case .steps: "steps"
        case .activeEnergy: "active_energy_kcal"
        case .exercise: "exercise_minutes"
        case .stand: "stand_hours"
        case .sleep: "sleep_total_minutes"
        }
    }
}

/// One day of the report: its analytics values and its goals.
package struct ReportDay: Sendable, Equatable {
    package var date: CivilDate
    package var steps: Double?
    package var activeEnergy: Double?
    package var exerciseMinutes: Double?
    package var standHours: Double?
    package var sleepMinutes: Double?
    /// Time in bed of the night ending this day; alone (no `sleepMinutes`) on a night in bed only.
    package var inBedMinutes: Double?
    package var distanceMeters: Double?
    /// The day's Activity ring goals, where the Watch recorded them.
    package var ringEnergyGoal: Double?
    package var ringExerciseGoal: Double?
    package var ringStandGoal: Double?
    /// The sleep goal (hours) the person had set in the Health app that day, if the export has one.
    package var exportSleepGoal: Double?
    /// A day known to be incomplete (`daily_analytics.partial_day`: the first day of data, the
    /// export's own day): shown, never counted (docs/days-and-averages.md).
    package var partial = false
    /// The day's zone, where it is not the report's (`ReportData.timeZone`): a day away, counted
    /// in the local time of where the person was (issue 48). Nil at home.
    package var away: String?
    /// A day touching a window where the switch between two zones is a guess (a flight day).
    package var travelDay = false

    package init(date: CivilDate, steps: Double? = nil, activeEnergy: Double? = nil, exerciseMinutes: Double? = nil,
                standHours: Double? = nil, sleepMinutes: Double? = nil, distanceMeters: Double? = nil) {
        self.date = date; self.steps = steps; self.activeEnergy = activeEnergy; self.exerciseMinutes = exerciseMinutes
        self.standHours = standHours; self.sleepMinutes = sleepMinutes; self.distanceMeters = distanceMeters
    }

    /// The value the store holds for `metric` (sleep in minutes, as `daily_analytics`).
    package func value(_ metric: ReportMetric) -> Double? {
        switch metric {
        case .steps: steps
        case .activeEnergy: activeEnergy
        case .exercise: exerciseMinutes
        case .stand: standHours
        case .sleep: sleepMinutes
        }
    }

    /// The value in the unit shown (sleep in hours).
    package func shown(_ metric: ReportMetric) -> Double? {
        metric == .sleep ? sleepMinutes.map { $0 / 60 } : value(metric)
    }

    /// The goal of `metric` on this day, in the unit shown, and where it comes from.
    package func goal(_ metric: ReportMetric, _ goals: ReportGoals) -> Double { goalAndOrigin(metric, goals).goal }

    /// Where a day's goal comes from (issue 44), first that has one: the person's settings or
    /// the pipeline (`goals`, set), then the export (that day's Activity ring goals, the sleep goal
    /// set in the Health app), then the defaults.
    package enum GoalOrigin: String, Sendable { case settings, export, defaults }

    package func goalAndOrigin(_ metric: ReportMetric, _ goals: ReportGoals) -> (goal: Double, origin: GoalOrigin) {
        let (set, exported, fallback): (Double?, Double?, Double)
        let d = ReportGoals.defaults
        switch metric {
        case .steps: (set, exported, fallback) = (goals.steps, nil, d.steps!)
        case .activeEnergy: (set, exported, fallback) = (goals.activeEnergyKcal, positive(ringEnergyGoal), d.activeEnergyKcal!)
        case .exercise: (set, exported, fallback) = (goals.exerciseMinutes, positive(ringExerciseGoal), d.exerciseMinutes!)
        case .stand: (set, exported, fallback) = (goals.standHours, positive(ringStandGoal), d.standHours!)
        case .sleep: (set, exported, fallback) = (goals.sleepHours, positive(exportSleepGoal), d.sleepHours!)
        }
        if let set { return (set, .settings) }
        if let exported { return (exported, .export) }
        return (fallback, .defaults)
    }

    /// The fraction of the goal reached (nil without a value).
    package func fraction(_ metric: ReportMetric, _ goals: ReportGoals) -> Double? {
        shown(metric).map { $0 / max(goal(metric, goals), 1e-9) }
    }

    private func positive(_ v: Double?) -> Double? { v.flatMap { $0 > 0 ? $0 : nil } }
}

/// A night for the sleep chart: stages in minutes and local bed and wake times.
package struct ReportNight: Sendable, Equatable {
    package var date: CivilDate
    package var core = 0.0, deep = 0.0, rem = 0.0, unspecified = 0.0, awake = 0.0
    /// Minutes after the local midnight before the morning (negative: before midnight) and
    /// after the morning's midnight.
    package var bedtimeMinutes: Double
    package var wakeMinutes: Double
    /// Time in bed (either track), and the asleep minutes of the day's naps (not in `asleep`).
    package var inBed = 0.0, napMinutes = 0.0
    package var asleep: Double { core + deep + rem + unspecified }
    /// Only an in-bed sample (iPhone Bedtime without a watch): shown as time in bed, never as 0 h asleep.
    package var isInBedOnly: Bool { asleep == 0 && awake == 0 && inBed > 0 }
}

package struct ReportWorkout: Sendable, Equatable {
    package var date: CivilDate
    package var type: String
    package var minutes: Double?
    package var distanceMeters: Double?
    package var energyKcal: Double?
}

/// An ECG recording as the Heart section lists it.
package struct ReportECG: Sendable, Equatable {
    package var date: CivilDate
    package var classification: String?
    package var averageHeartRate: Double?
    package var symptoms: String?
    package init(date: CivilDate, classification: String?, averageHeartRate: Double? = nil, symptoms: String? = nil) {
        self.date = date; self.classification = classification; self.averageHeartRate = averageHeartRate; self.symptoms = symptoms
    }
}

/// When the export was taken: its local day and clock time.
package struct ReportExport: Sendable, Equatable {
    package var date: CivilDate
    /// Minutes after the local midnight.
    package var minutes: Double
    package init(date: CivilDate, minutes: Double) { self.date = date; self.minutes = minutes }
}

/// Everything the page shows, read from a store in a few queries.
package struct ReportData: Sendable {
    package var days: [ReportDay]
    package var nights: [ReportNight]
    package var workouts: [ReportWorkout]
    package var restingHeartRate: [(CivilDate, Double)]
    package var hrv: [(CivilDate, Double)]
    /// ECG recordings, oldest first.
    package var ecg: [ReportECG]
    package var timeZone: String
    /// The export's `ExportDate`, where it had one.
    package var export: ReportExport?
    /// What the last import that changed the store changed (`ChangeDigest`): the page's top.
    package var changes: [DigestChange] = []
    /// The vitals tables (ReportVitals.swift).
    package var vitals = ReportVitals()
    /// The Data quality section's figures (ReportDataQuality.swift).
    package var quality = ReportQuality()
    /// The cycles and their days (ReportCycles.swift); empty without cycle data.
    package var cycles: [StoredCycle] = []
    package var cycleDays: [StoredCycleDay] = []

    package init(days: [ReportDay], nights: [ReportNight] = [], workouts: [ReportWorkout] = [],
                restingHeartRate: [(CivilDate, Double)] = [], hrv: [(CivilDate, Double)] = [], ecg: [ReportECG] = [],
                timeZone: String = "UTC", export: ReportExport? = nil) {
        self.days = days; self.nights = nights; self.workouts = workouts
        self.restingHeartRate = restingHeartRate; self.hrv = hrv; self.ecg = ecg; self.timeZone = timeZone
        self.export = export
    }

    /// The days every figure counts: the complete ones.
    package var completeDays: [ReportDay] { days.filter { !$0.partial } }

    /// The day the page opens on: the last complete day (the last day when none is complete).
    package var latestComplete: ReportDay? { days.last { !$0.partial } ?? days.last }

    /// The export's own day when it has data: shown as "so far". (A later day, from samples dated
    /// after the export such as a meal plan, is partial too but was not "so far" at the export.)
    package var exportDay: ReportDay? {
        guard let export else { return nil }
        return days.last { $0.date == export.date }
    }

    /// The metrics a worn or carried device records as a total for the day, so that a day with
    /// data and no value for one of them is a day of 0 (docs/days-and-averages.md). Sleep is
    /// not one: a night without a sleep record is unknown, not a night without sleep.
    static var zeroWhenAbsent: [WritableKeyPath<ReportDay, Double?>] {
        [\.steps, \.activeEnergy, \.exerciseMinutes, \.standHours, \.distanceMeters]
    }

    /// `days` (each a day with data: a `daily_analytics` row or an activity summary) with 0
    /// where a total metric has no value, from the first day that metric was ever recorded on
    /// (before it, the device that records it was not there).
    package static func countingZeros(_ days: [ReportDay]) -> [ReportDay] {
        let sorted = days.sorted { $0.date < $1.date }
        var result = sorted
        for path in zeroWhenAbsent {
            guard let first = sorted.firstIndex(where: { $0[keyPath: path] != nil }) else { continue }
            for i in first..<result.count where result[i][keyPath: path] == nil { result[i][keyPath: path] = 0 }
        }
        return result
    }

    /// Everything the page shows, through the store's read API (HealthStore).
    package static func load(from database: Database) throws -> ReportData {
        let store = HealthStore(database: database)
        // The zone of the analytics (the settings row is written with them, before the run's row).
        let zoneName = try store.analyticsZoneName() ?? "UTC"
        let zone = TimeZone(identifier: zoneName) ?? TimeZone(identifier: "UTC")!
        // The calendar the days were counted in: the zone, or a traveller's timeline.
        var calendar = try StoreSettings.calendar(in: database) ?? LocalCalendar(timeZone: zone)
        let export = try store.profile()?.exportDate.flatMap(Timestamp.init(iso8601:)).map { instant -> ReportExport in
            let date = calendar.localDate(of: instant)
            return ReportExport(date: date, minutes: Double(instant.microseconds - calendar.startOfDay(date).microseconds) / 60_000_000)
        }
        let stored = try store.allReportDays()
        let firstDate = stored.first?.date
        var byDate: [CivilDate: ReportDay] = [:]
        for d in stored {
            var day = ReportDay(date: d.date, steps: d.steps, activeEnergy: d.activeEnergyKcal, exerciseMinutes: d.exerciseMinutes,
                                sleepMinutes: d.sleepMinutes, distanceMeters: d.distanceMeters)
            day.inBedMinutes = d.inBedMinutes
            // A store of version 4 (read before its first import by this version) has no
            // `partial_day`: the same rule, here (the first day, the export's day and after).
            day.partial = d.partial ?? (d.date == firstDate || export.map { d.date >= $0.date } ?? false)
            day.away = d.zone.flatMap { $0 == zone.identifier || $0 == zoneName ? nil : $0 }
            day.travelDay = d.travelDay
            byDate[d.date] = day
        }
        for r in try store.allActivityRings() {
            // A day with rings only is partial by the same rule (the export's day and after).
            var day = byDate[r.date] ?? ReportDay(date: r.date)
            if byDate[r.date] == nil, let export, r.date >= export.date { day.partial = true }
            day.standHours = r.standHours
            day.ringEnergyGoal = r.activeEnergyGoal; day.ringExerciseGoal = r.exerciseGoal; day.ringStandGoal = r.standHoursGoal
            byDate[r.date] = day
        }
        // The sleep goal in force on each day: the last one set before the day ended.
        let sleepGoals = try store.sleepGoals()
        if !sleepGoals.isEmpty {
            for date in byDate.keys {
                let end = calendar.startOfDay(date.adding(days: 1)).microseconds
                if let goal = sleepGoals.last(where: { $0.start.microseconds < end }) { byDate[date]!.exportSleepGoal = goal.minutes / 60 }
            }
        }
        let nights = try store.allSleepNights().map { night -> ReportNight in
            let midnight = calendar.startOfDay(night.date)
            var n = ReportNight(date: night.date,
                                bedtimeMinutes: Double(night.start.microseconds - midnight.microseconds) / 60_000_000,
                                wakeMinutes: Double(night.end.microseconds - midnight.microseconds) / 60_000_000)
            n.core = night.coreMinutes; n.deep = night.deepMinutes; n.rem = night.remMinutes
            n.unspecified = night.unspecifiedMinutes; n.awake = night.awakeMinutes
            n.inBed = night.inBedMinutes; n.napMinutes = night.napMinutes
            return n
        }
        let workouts = try store.allWorkouts().map { w in
            ReportWorkout(date: w.date, type: WorkoutDisplay.name(w.activityType),
                          minutes: w.minutes, distanceMeters: w.distanceMeters, energyKcal: w.energyKcal)
        }
        let ecg = try store.allECGRecordings().map {
            ReportECG(date: $0.date, classification: $0.classification, averageHeartRate: $0.averageHeartRate, symptoms: $0.symptoms)
        }
        var data = ReportData(days: countingZeros(Array(byDate.values)), nights: nights, workouts: workouts,
                              restingHeartRate: try store.dailyAverages(of: "HKQuantityTypeIdentifierRestingHeartRate"),
                              hrv: try store.dailyAverages(of: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"), ecg: ecg,
                              timeZone: zoneName, export: export)
        data.changes = try store.latestChanges()
        data.vitals = try ReportVitals.load(from: database)
        data.quality = try ReportQuality.load(HealthStore(database: database))
        data.cycles = try store.allCycles()
        data.cycleDays = try store.allCycleDays()
        return data
    }
}
