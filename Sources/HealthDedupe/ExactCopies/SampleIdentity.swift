import HealthCore

/// The identity of a sample: a stable hash over every attribute and metadata entry.
/// Exact duplicate records (up to 8 copies occur in real exports; records carry no UUID)
/// hash equal; the device description is hashed without its per-object memory address,
/// which ingest already removed.
///
/// `IdentityStamper` hashes it in two parts, so that a run of records of one type and
/// source hashes their shared part once, on the normalize thread; the load thread's
/// `IdentitySet` keeps the identities written.
enum SampleIdentity {
    /// The hash of what long runs of records share: type and source (the device description
    /// alone is a hundred bytes).
    static func prefix(_ r: borrowing ExportRecord) -> StableHasher {
        var h = StableHasher()
        h.combine(r.type)
        h.combine(r.source.name)
        h.combine(r.source.version)
        h.combine(r.source.device)
        return h
    }

    /// The identity from the record's `prefix`.
    static func completing(_ h: inout StableHasher, _ r: borrowing ExportRecord) -> UInt64 {
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
