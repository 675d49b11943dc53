import HealthStore

/// Rules for a workout's figures (docs/vitals-hrv-workouts.md, "Workouts"): when its heart-rate
/// samples are enough for zones, and when a route's speed cannot be the activity's.
package enum WorkoutFigures {
    /// A Watch measures a workout's heart rate every few seconds, and outside workouts every
    /// few minutes; fewer samples than one per five minutes (the background readings a workout
    /// happened to hold, or a phone's) say nothing of its zones, which hold each sample a minute
    /// at most (`HeartRateZones.holdSeconds`).
    package static let minutesPerSample = 5.0

    package static func enoughForZones(samples: Int, minutes: Double) -> Bool {
        samples >= 2 && Double(samples) * minutesPerSample >= minutes
    }

    /// The fastest average speed (km/h) a person keeps up in an activity for a whole workout:
    /// above every world record's average, so a route faster than this is a GPS glitch.
    static let fastestKilometresPerHour: [String: Double] = [
        "Running": 26, "Walking": 15, "Hiking": 15, "Cycling": 90, "Swimming": 10, "Rowing": 25,
        "Wheelchair Walk Pace": 25, "Wheelchair Run Pace": 40, "Cross Country Skiing": 40, "Skating Sports": 60,
    ]

    /// The route's speed in km/h when it is impossible for `activity` (nil when possible, or
    /// when no limit is known for the activity).
    package static func impossibleSpeed(activity: String, meters: Double, minutes: Double) -> Double? {
        guard minutes > 0, let limit = fastestKilometresPerHour[WorkoutDisplay.name(activity)] else { return nil }
        let speed = meters / 1000 / (minutes / 60)
        return speed > limit ? speed : nil
    }
}
