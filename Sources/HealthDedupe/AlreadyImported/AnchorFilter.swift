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

/// Records an earlier run stored, the first dedupe of an incremental run: drops records
/// created before their anchor minus the overlap window, before any further work. Records
/// inside the window, newer ones, backfills of old samples (they carry a new creationDate) and
/// records without a creationDate go on; their identity decides for those (`ExactCopies/`,
/// and the merge into the published store). Workouts the store holds (by id) are dropped as well.
///
/// Runs inside ingest, before a record is parsed: on the read thread, from the bytes
/// (HealthIngest's `KnownRecordSkipper`), and on the parse thread (`ExportSAXHandler`). It
/// needs only three attributes, and most of a cumulative export is known: dropped there, a
/// known record costs neither libxml2, nor the normalize thread, nor a row.
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
