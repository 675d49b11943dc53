import HealthCore

/// Per type and source, the newest `creationDate` already in the store: HealthKit's anchored
/// queries, for exports. Health exports are cumulative, so a record created well before the
/// anchor was in the previous export too.
public struct Anchors: Sendable, Equatable {
    public struct Key: Hashable, Sendable {
        public var type: String
        public var source: String
        public init(type: String, source: String) { self.type = type; self.source = source }
    }
    public var newestCreation: [Key: Timestamp]
    public init(_ newestCreation: [Key: Timestamp] = [:]) { self.newestCreation = newestCreation }
    public var isEmpty: Bool { newestCreation.isEmpty }
}

/// The dedupe stage's first filter on an incremental run: drops records created before their
/// anchor minus the overlap window, before any further work. Records inside the window, newer
/// ones, backfills of old samples (they carry a new creationDate) and records without a
/// creationDate go on; the store's identity index decides for those.
public struct AnchorFilter: StageHandler {
    public typealias InboundIn = IngestBatch
    public typealias InboundOut = IngestBatch

    private let anchors: Anchors
    private let overlap: Int64
    /// Records dropped so far.
    public private(set) var skipped = 0
    // The last key looked up: records come type by type, source by source.
    private var lastKey: Anchors.Key?
    private var lastCutoff: Int64?

    public init(anchors: Anchors, overlapSeconds: Double) {
        self.anchors = anchors
        self.overlap = Int64(overlapSeconds * 1_000_000)
    }

    public mutating func handle(_ input: IngestBatch, emit: (IngestBatch) throws -> Void) throws {
        guard !anchors.isEmpty else { return try emit(input) }
        var batch = input
        let before = batch.records.count
        batch.records.removeAll { isKnown($0) }
        skipped += before - batch.records.count
        batch.skippedByAnchorSoFar = skipped
        try emit(batch)
    }

    private mutating func isKnown(_ r: ExportRecord) -> Bool {
        guard let created = r.creationDate?.microseconds else { return false }
        if lastKey?.type != r.type || lastKey?.source != r.source.name {
            let key = Anchors.Key(type: r.type, source: r.source.name)
            lastKey = key
            lastCutoff = anchors.newestCreation[key].map { $0.microseconds - overlap }
        }
        guard let cutoff = lastCutoff else { return false }
        return created < cutoff
    }
}
