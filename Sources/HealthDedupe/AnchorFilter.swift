import HealthCore

/// Per type and source, the newest `creationDate` already in the store: HealthKit's anchored
/// queries, for exports. Health exports are cumulative, so a record created well before the
/// anchor was in the previous export too.
package struct Anchors: Sendable, Equatable {
    package struct Key: Hashable, Sendable {
        package var type: String
        package var source: String
        package init(type: String, source: String) { self.type = type; self.source = source }
    }
    package var newestCreation: [Key: Timestamp]
    package init(_ newestCreation: [Key: Timestamp] = [:]) { self.newestCreation = newestCreation }
    package var isEmpty: Bool { newestCreation.isEmpty }
}

/// The dedupe stage's first filter on an incremental run, run inside ingest (it needs only
/// three attributes): drops records created before their anchor minus the overlap window,
/// before any further work. Records inside the window, newer ones, backfills of old samples
/// (they carry a new creationDate) and records without a creationDate go on; the store's
/// identity index decides for those. Workouts the store holds (by id) are dropped as well.
package struct AnchorFilter: RecordPrefilter {
    private let anchors: Anchors
    private let overlap: Int64
    private let workouts: Set<Int64>

    /// `workouts`: the ids of the workouts the store holds.
    package init(anchors: Anchors, overlapSeconds: Double, workouts: Set<Int64> = []) {
        self.anchors = anchors
        self.overlap = Int64(overlapSeconds * 1_000_000)
        self.workouts = workouts
    }

    package func knowsWorkout(_ id: Int64) -> Bool { workouts.contains(id) }

    package func cutoff(type: String, source: String) -> Int64? {
        anchors.newestCreation[Anchors.Key(type: type, source: source)].map { $0.microseconds - overlap }
    }
}
