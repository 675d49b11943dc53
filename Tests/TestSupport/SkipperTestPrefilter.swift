import HealthCore

/// A prefilter with fixed cutoffs per (type, source), and the ids of the workouts it knows.
package struct SkipperTestPrefilter: RecordPrefilter {
    package var cutoffs: [String: Int64]
    package var workouts: Set<Int64> = []

    package init(cutoffs: [String: Int64], workouts: Set<Int64> = []) {
        self.cutoffs = cutoffs
        self.workouts = workouts
    }
    package func cutoff(type: String, source: String) -> Int64? { cutoffs[type + "\u{1}" + source] }
    package func knowsWorkout(_ id: Int64) -> Bool { workouts.contains(id) }
}
