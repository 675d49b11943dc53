/// The analytics model (docs/TABLES.md, "Analytics"): what the aggregate stage produces and the
/// store keeps. Metrics are addressed by `DailyMetric`, so every period table has
/// the same metric columns in the same order.
public enum DailyMetric: Int, CaseIterable, Sendable {
    case steps, walkingDistance, runningDistance, cyclingDistance, swimmingDistance
    case crossCountrySkiingDistance, downhillSnowSportsDistance, swimmingStrokes
    case activeEnergy, restingEnergy, heartbeats, stairsClimbed, exerciseMinutes, standMinutes
    case sleepTotalMinutes, sleepDeepMinutes, sleepREMMinutes, sleepInBedMinutes, sleepNapMinutes

    /// The column name (docs/TABLES.md).
    public var column: String {
        switch self {
        case .steps: "steps"
        case .walkingDistance: "walking_distance_m"
        case .runningDistance: "running_distance_m"
        case .cyclingDistance: "cycling_distance_m"
        case .swimmingDistance: "swimming_distance_m"
        case .crossCountrySkiingDistance: "cross_country_skiing_distance_m"
        case .downhillSnowSportsDistance: "downhill_snow_sports_distance_m"
        case .swimmingStrokes: "swimming_strokes"
        case .activeEnergy: "active_energy_kcal"
        case .restingEnergy: "resting_energy_kcal"
        case .heartbeats: "heartbeats"
        case .stairsClimbed: "stairs_climbed"
        case .exerciseMinutes: "exercise_minutes"
        case .standMinutes: "stand_minutes"
        case .sleepTotalMinutes: "sleep_total_minutes"
        case .sleepDeepMinutes: "sleep_deep_minutes"
        case .sleepREMMinutes: "sleep_rem_minutes"
        case .sleepInBedMinutes: "sleep_in_bed_minutes"
        case .sleepNapMinutes: "sleep_nap_minutes"
        }
    }

    /// The tables hold these as integers (counts and whole minutes).
    public var isInteger: Bool {
        switch self {
        case .steps, .swimmingStrokes, .heartbeats, .stairsClimbed, .exerciseMinutes, .standMinutes: true
        default: false
        }
    }

    /// The cumulative HealthKit type summed into this metric (DistanceWalkingRunning feeds two).
    public var sourceType: String? {
        switch self {
        case .steps: "HKQuantityTypeIdentifierStepCount"
        case .walkingDistance, .runningDistance: "HKQuantityTypeIdentifierDistanceWalkingRunning"
        case .cyclingDistance: "HKQuantityTypeIdentifierDistanceCycling"
        case .swimmingDistance: "HKQuantityTypeIdentifierDistanceSwimming"
        case .crossCountrySkiingDistance: "HKQuantityTypeIdentifierDistanceCrossCountrySkiing"
        case .downhillSnowSportsDistance: "HKQuantityTypeIdentifierDistanceDownhillSnowSports"
        case .swimmingStrokes: "HKQuantityTypeIdentifierSwimmingStrokeCount"
        case .activeEnergy: "HKQuantityTypeIdentifierActiveEnergyBurned"
        case .restingEnergy: "HKQuantityTypeIdentifierBasalEnergyBurned"
        case .stairsClimbed: "HKQuantityTypeIdentifierFlightsClimbed"
        case .exerciseMinutes: "HKQuantityTypeIdentifierAppleExerciseTime"
        case .standMinutes: "HKQuantityTypeIdentifierAppleStandTime"
        case .heartbeats, .sleepTotalMinutes, .sleepDeepMinutes, .sleepREMMinutes, .sleepInBedMinutes, .sleepNapMinutes: nil
        }
    }

    /// The metric a cumulative type feeds, nil for types without an analytics column.
    public static func metric(forCumulativeType type: String) -> DailyMetric? {
        byType[type]
    }
    private static let byType: [String: DailyMetric] = {
        var map: [String: DailyMetric] = [:]
        for m in allCases where m != .runningDistance { if let t = m.sourceType { map[t] = m } }
        return map
    }()
}

/// Metric values of one period; nil where no sample contributed.
public struct MetricValues: Sendable, Equatable {
    public private(set) var values: [Double?] = Array(repeating: nil, count: DailyMetric.allCases.count)
    public init() {}

    public subscript(metric: DailyMetric) -> Double? {
        get { values[metric.rawValue] }
        set { values[metric.rawValue] = newValue }
    }
    public mutating func add(_ amount: Double, to metric: DailyMetric) {
        values[metric.rawValue] = (values[metric.rawValue] ?? 0) + amount
    }
    /// Integer metrics rounded as stored, so that period sums equal the sums of stored days.
    public var rounded: MetricValues { rounded(truncating: []) }

    /// The same, but `truncated` metrics cut to their whole part, as the platform whose own
    /// totals they are does (Health Connect's step count is a whole number, truncated). A sum
    /// of pro-rata shares lands a hair below a whole number as often as on it (14181.9999999),
    /// where Health Connect's own order of additions lands on 14182: a millionth of a step is
    /// added before cutting.
    public func rounded(truncating truncated: Set<DailyMetric>) -> MetricValues {
        var copy = self
        for m in DailyMetric.allCases where m.isInteger {
            copy[m] = self[m].map { truncated.contains(m) ? ($0 + 1e-6).rounded(.towardZero) : $0.rounded() }
        }
        return copy
    }
    public var isEmpty: Bool { values.allSatisfy { $0 == nil } }
}

public struct DailyAnalytics: Sendable, Equatable {
    public var date: CivilDate
    public var metrics: MetricValues
    public init(date: CivilDate, metrics: MetricValues) { self.date = date; self.metrics = metrics }
}

/// Kinds of period above a day.
public enum PeriodKind: String, CaseIterable, Sendable { case week, month, year }

/// A week, month or year: the sums of its days.
public struct PeriodAnalytics: Sendable, Equatable {
    public var kind: PeriodKind
    public var start: CivilDate
    /// Last day of the period (inclusive).
    public var end: CivilDate
    public var metrics: MetricValues
    public var daysWithData: Int
    public init(kind: PeriodKind, start: CivilDate, end: CivilDate, metrics: MetricValues, daysWithData: Int) {
        self.kind = kind; self.start = start; self.end = end; self.metrics = metrics; self.daysWithData = daysWithData
    }
}

/// One night, named after its wake-up day (docs/sleep-nights.md): its main session's minutes
/// per sleep stage after the priority merge of the in-bed track and of the asleep/awake track,
/// and the asleep minutes of the naps that ended the same day.
public struct SleepNight: Sendable, Equatable {
    public var date: CivilDate
    /// The main session's span (naps do not stretch it).
    public var start: Timestamp
    public var end: Timestamp
    /// Time in bed: what either track covers (asleep time is time in bed, whether or not the
    /// phone's in-bed sample covers it), so never less than asleep + awake, never more than the span.
    public var inBedMinutes = 0.0
    public var coreMinutes = 0.0
    public var deepMinutes = 0.0
    public var remMinutes = 0.0
    public var unspecifiedMinutes = 0.0
    public var awakeMinutes = 0.0
    /// Asleep minutes of the other, shorter sessions that ended on this day (not in `asleepMinutes`).
    public var napMinutes = 0.0
    public var naps = 0
    /// Sources that contributed, by name.
    public var sources: [String] = []
    public init(date: CivilDate, start: Timestamp, end: Timestamp) { self.date = date; self.start = start; self.end = end }
    /// Core + Deep + REM + Unspecified; Awake and InBed are not sleep.
    public var asleepMinutes: Double { coreMinutes + deepMinutes + remMinutes + unspecifiedMinutes }
    /// Only an in-bed sample (iPhone Bedtime without a watch): how long was slept is not known.
    public var isInBedOnly: Bool { asleepMinutes == 0 && awakeMinutes == 0 }
    /// What the night recorded, as the outputs name it.
    public var recorded: String { isInBedOnly ? SleepNight.inBedOnlyLabel : SleepNight.stagesLabel }
    public static let inBedOnlyLabel = "in bed only"
    public static let stagesLabel = "sleep stages"
}

/// One row of the long-form `daily_metrics` table: every type on every day it has data.
public struct DailyTypeMetric: Sendable, Equatable {
    public var date: CivilDate
    public var type: String
    public var unit: String?
    /// Merged total for cumulative types, total minutes for category types.
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var count: Int
    public init(date: CivilDate, type: String, unit: String?, sum: Double? = nil, average: Double? = nil,
                minimum: Double? = nil, maximum: Double? = nil, count: Int) {
        self.date = date; self.type = type; self.unit = unit; self.sum = sum; self.average = average
        self.minimum = minimum; self.maximum = maximum; self.count = count
    }
}

/// The source-merged amount of a cumulative type in one local clock hour of one day (the
/// hours of a day add up to that day's `DailyTypeMetric.sum`).
public struct HourlyTypeAmount: Sendable, Equatable {
    public var date: CivilDate
    public var hour: Int
    public var type: String
    public var sum: Double
    public init(date: CivilDate, hour: Int, type: String, sum: Double) {
        self.date = date; self.hour = hour; self.type = type; self.sum = sum
    }
}
