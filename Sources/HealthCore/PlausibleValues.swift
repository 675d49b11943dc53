/// What one record of a type can plausibly hold, so that a corrupt or hostile record goes to
/// quarantine instead of into the sums (issue 20): a `value="1e19"` of steps would overflow the
/// day's integer column, and a record from year 0001 to 9999 would be spread over three million
/// days. The bounds are generous: the largest values and spans in the real exports we know are
/// far inside them (steps 31 k, flights 87, energy 3.5 k kcal, spans of 25 h).
public enum PlausibleValues {
    /// The longest span one record of `type` may have, in µs: 31 days (a month's aggregate of a
    /// third-party app), 2 days for a sleep record (a night is at most a day long).
    public static func maximumSpan(of type: HealthType) -> Int64 {
        type.identifier == "HKCategoryTypeIdentifierSleepAnalysis" ? 2 * day : 31 * day
    }

    /// Why `value` (in the type's canonical unit) cannot be a value of one `type` record, or nil.
    public static func problem(with value: Double, of type: HealthType) -> String? {
        bounds(of: type).problem(with: value)
    }

    /// The value checks of one type, its limit looked up once (the normalizer keeps them
    /// while records of the type come).
    public static func bounds(of type: HealthType) -> Bounds {
        Bounds(type: type, limit: perRecordLimit[type.identifier])
    }

    public struct Bounds: Sendable {
        let type: HealthType
        let limit: Limit?

        /// Why `value` (in the type's canonical unit) cannot be a value of one record, or nil.
        public func problem(with value: Double) -> String? {
            if !value.isFinite { return "value \(value) is not a number" }
            if type.aggregation == .cumulative, value < 0 {
                return "negative value \(value) of a cumulative type (\(type.alias))"
            }
            if let limit {
                if !(limit.range ~= value) {
                    return "value \(value) \(type.canonicalUnit ?? "") outside \(limit.description) for one \(type.alias) record"
                }
            } else if abs(value) > anyValueLimit {
                return "value \(value) is beyond \(anyValueLimit) (no \(type.alias) record holds that)"
            }
            return nil
        }
    }

    /// Whether a workout (or another element with a time range) spans at most the maximum of any type.
    public static func isPlausibleWorkoutSpan(_ micros: Int64) -> Bool { micros <= 31 * day }

    private static let day: Int64 = 86_400_000_000

    /// Any quantity: well below where a day's sum of many records could leave Int64 or lose
    /// whole units in a Double.
    public static let anyValueLimit = 1e12

    struct Limit: Sendable {
        var range: ClosedRange<Double>
        var description: String
    }

    /// The types behind integer columns of the analytics, and heart rate (heartbeats integrate it).
    static let perRecordLimit: [String: Limit] = {
        let q = "HKQuantityTypeIdentifier"
        func limit(_ upper: Double, _ text: String) -> Limit { Limit(range: 0...upper, description: text) }
        return [
            q + "StepCount": limit(1_000_000, "0…1,000,000"),
            q + "PushCount": limit(1_000_000, "0…1,000,000"),
            q + "SwimmingStrokeCount": limit(1_000_000, "0…1,000,000"),
            q + "FlightsClimbed": limit(100_000, "0…100,000"),
            // Minutes of exercise or standing in one record: at most its 31 days.
            q + "AppleExerciseTime": limit(44_640, "0…44,640 (31 days)"),
            q + "AppleStandTime": limit(44_640, "0…44,640 (31 days)"),
            q + "AppleMoveTime": limit(44_640, "0…44,640 (31 days)"),
            q + "HeartRate": limit(400, "0…400"),
            q + "RestingHeartRate": limit(400, "0…400"),
            q + "WalkingHeartRateAverage": limit(400, "0…400"),
        ]
    }()
}
