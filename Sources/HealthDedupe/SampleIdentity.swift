import HealthCore

/// The identity of a sample: a stable hash over every attribute and metadata entry.
/// Exact duplicate records (up to 8 copies occur in real exports; records carry no UUID)
/// hash equal; the device description is hashed without its per-object memory address,
/// which ingest already removed.
public enum SampleIdentity {
    public static func of(_ r: ExportRecord) -> UInt64 {
        var h = StableHasher()
        h.combine(r.type)
        h.combine(r.source.name)
        h.combine(r.source.version)
        h.combine(r.source.device)
        h.combine(r.unit)
        h.combine(r.value)
        h.combine(r.creationDate?.microseconds ?? Int64.min)
        h.combine(r.startDate?.microseconds ?? Int64.min)
        h.combine(r.endDate?.microseconds ?? Int64.min)
        for entry in r.metadata {
            h.combine(entry.key)
            h.combine(entry.value)
        }
        h.combine(UInt64(r.heartbeats.count))
        return h.value
    }
}

/// The dedupe stage (first part): stamps each sample with its identity so that exact
/// duplicates collapse to one row in the store, wherever in the file the copies are.
/// The SQLite sink drops a sample whose identity it has written already; a merge into the
/// published store skips identities it holds (found through the type and start index).
public struct IdentityStamper: StageHandler {
    public typealias InboundIn = NormalizedBatch
    public typealias InboundOut = NormalizedBatch

    public init() {}

    public mutating func handle(_ input: NormalizedBatch, emit: (NormalizedBatch) throws -> Void) throws {
        var batch = input
        for i in batch.samples.indices {
            batch.samples[i].identity = SampleIdentity.of(batch.samples[i].record)
        }
        try emit(batch)
    }
}
