import Foundation
import HealthCore
import HealthStore
import SQLite

/// The metrics the report shows, with their goal and how a day's value is read.
public enum ReportMetric: String, CaseIterable, Sendable {
    case steps, activeEnergy = "energy", exercise, stand, sleep

    public var title: String {
        switch self {
        case .steps: "Steps"
        case .activeEnergy: "Active energy"
        case .exercise: "Exercise"
        case .stand: "Stand hours"
        case .sleep: "Sleep"
        }
    }

    public var unit: String {
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
    public var column: String {
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
public struct ReportDay: Sendable, Equatable {
    public var date: CivilDate
    public var steps: Double?
    public var activeEnergy: Double?
    public var exerciseMinutes: Double?
    public var standHours: Double?
    public var sleepMinutes: Double?
    public var distanceMeters: Double?
    /// The day's Activity ring goals, where the Watch recorded them.
    public var ringEnergyGoal: Double?
    public var ringExerciseGoal: Double?
    public var ringStandGoal: Double?

    public init(date: CivilDate, steps: Double? = nil, activeEnergy: Double? = nil, exerciseMinutes: Double? = nil,
                standHours: Double? = nil, sleepMinutes: Double? = nil, distanceMeters: Double? = nil) {
        self.date = date; self.steps = steps; self.activeEnergy = activeEnergy; self.exerciseMinutes = exerciseMinutes
        self.standHours = standHours; self.sleepMinutes = sleepMinutes; self.distanceMeters = distanceMeters
    }

    /// The value the store holds for `metric` (sleep in minutes, as `daily_analytics`).
    public func value(_ metric: ReportMetric) -> Double? {
        switch metric {
        case .steps: steps
        case .activeEnergy: activeEnergy
        case .exercise: exerciseMinutes
        case .stand: standHours
        case .sleep: sleepMinutes
        }
    }

    /// The value in the unit shown (sleep in hours).
    public func shown(_ metric: ReportMetric) -> Double? {
        metric == .sleep ? sleepMinutes.map { $0 / 60 } : value(metric)
    }

    /// The goal of `metric` on this day, in the unit shown.
    public func goal(_ metric: ReportMetric, _ goals: ReportGoals) -> Double {
        let g = goals.resolved
        switch metric {
        case .steps: return g.steps ?? 10_000
        case .activeEnergy: return positive(ringEnergyGoal) ?? g.activeEnergyKcal ?? 500
        case .exercise: return positive(ringExerciseGoal) ?? g.exerciseMinutes ?? 30
        case .stand: return positive(ringStandGoal) ?? g.standHours ?? 12
        case .sleep: return g.sleepHours ?? 7
        }
    }

    /// The fraction of the goal reached (nil without a value).
    public func fraction(_ metric: ReportMetric, _ goals: ReportGoals) -> Double? {
        shown(metric).map { $0 / max(goal(metric, goals), 1e-9) }
    }

    private func positive(_ v: Double?) -> Double? { v.flatMap { $0 > 0 ? $0 : nil } }
}

/// A night for the sleep chart: stages in minutes and local bed and wake times.
public struct ReportNight: Sendable, Equatable {
    public var date: CivilDate
    public var core = 0.0, deep = 0.0, rem = 0.0, unspecified = 0.0, awake = 0.0
    /// Minutes after the local midnight before the morning (negative: before midnight) and
    /// after the morning's midnight.
    public var bedtimeMinutes: Double
    public var wakeMinutes: Double
    public var asleep: Double { core + deep + rem + unspecified }
}

public struct ReportWorkout: Sendable, Equatable {
    public var date: CivilDate
    public var type: String
    public var minutes: Double?
    public var distanceMeters: Double?
    public var energyKcal: Double?
}

/// An ECG recording as the Heart section lists it.
public struct ReportECG: Sendable, Equatable {
    public var date: CivilDate
    public var classification: String?
    public var averageHeartRate: Double?
    public var symptoms: String?
    public init(date: CivilDate, classification: String?, averageHeartRate: Double? = nil, symptoms: String? = nil) {
        self.date = date; self.classification = classification; self.averageHeartRate = averageHeartRate; self.symptoms = symptoms
    }
}

/// Everything the page shows, read from a store in a few queries.
public struct ReportData: Sendable {
    public var days: [ReportDay]
    public var nights: [ReportNight]
    public var workouts: [ReportWorkout]
    public var restingHeartRate: [(CivilDate, Double)]
    public var hrv: [(CivilDate, Double)]
    /// ECG recordings, oldest first.
    public var ecg: [ReportECG]
    public var timeZone: String

    public init(days: [ReportDay], nights: [ReportNight] = [], workouts: [ReportWorkout] = [],
                restingHeartRate: [(CivilDate, Double)] = [], hrv: [(CivilDate, Double)] = [], ecg: [ReportECG] = [],
                timeZone: String = "UTC") {
        self.days = days; self.nights = nights; self.workouts = workouts
        self.restingHeartRate = restingHeartRate; self.hrv = hrv; self.ecg = ecg; self.timeZone = timeZone
    }

    public static func load(from database: Database) throws -> ReportData {
        let store = HealthStore(database: database)
        let zoneName = try store.analyticsZoneName() ?? "UTC"
        let zone = TimeZone(identifier: zoneName) ?? TimeZone(identifier: "UTC")!
        var byDate: [CivilDate: ReportDay] = [:]
        for d in try store.allDaily() {
            let m = d.metrics
            byDate[d.date] = ReportDay(date: d.date, steps: m[.steps], activeEnergy: m[.activeEnergy],
                                       exerciseMinutes: m[.exerciseMinutes], sleepMinutes: m[.sleepTotalMinutes],
                                       distanceMeters: (m[.walkingDistance] ?? 0) + (m[.runningDistance] ?? 0))
        }
        for rings in try store.allActivityRings() {
            var day = byDate[rings.date] ?? ReportDay(date: rings.date)
            day.standHours = rings.standHours
            day.ringEnergyGoal = rings.activeEnergyGoal; day.ringExerciseGoal = rings.exerciseGoal
            day.ringStandGoal = rings.standHoursGoal
            byDate[rings.date] = day
        }
        var calendar = LocalCalendar(timeZone: zone)
        let nights = try store.allSleepNights().map { s -> ReportNight in
            let midnight = calendar.startOfDay(s.date)
            var n = ReportNight(date: s.date, bedtimeMinutes: Double(s.start.microseconds - midnight.microseconds) / 60_000_000,
                                wakeMinutes: Double(s.end.microseconds - midnight.microseconds) / 60_000_000)
            n.core = s.coreMinutes; n.deep = s.deepMinutes; n.rem = s.remMinutes
            n.unspecified = s.unspecifiedMinutes; n.awake = s.awakeMinutes
            return n
        }
        let workouts = try store.allWorkouts().map { w in
            ReportWorkout(date: w.date, type: w.activityType.replacingOccurrences(of: "HKWorkoutActivityType", with: ""),
                          minutes: w.minutes, distanceMeters: w.distanceMeters, energyKcal: w.energyKcal)
        }
        let ecg = try store.allECGRecordings().map {
            ReportECG(date: $0.date, classification: $0.classification, averageHeartRate: $0.averageHeartRate, symptoms: $0.symptoms)
        }
        return ReportData(days: byDate.values.sorted { $0.date < $1.date }, nights: nights, workouts: workouts,
                          restingHeartRate: try store.dailyAverages(of: "HKQuantityTypeIdentifierRestingHeartRate"),
                          hrv: try store.dailyAverages(of: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"), ecg: ecg,
                          timeZone: zoneName)
    }
}
