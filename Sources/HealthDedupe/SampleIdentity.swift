import HealthCore

/// The identity of a sample: a stable hash over every attribute and metadata entry.
/// Exact duplicate records (up to 8 copies occur in real exports; records carry no UUID)
/// hash equal; the device description is hashed without its per-object memory address,
/// which ingest already removed.
///
/// `IdentityStamper` hashes it in two parts, so that a run of records of one type and
/// source hashes their shared part once.
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

/// The dedupe stage (first part): stamps each sample with its identity so that exact
/// duplicates collapse to one row in the store, wherever in the file the copies are.
/// The SQLite sink drops a sample whose identity it has written already; a merge into the
/// published store skips identities it holds (found through the type and start index).
package struct IdentityStamper: StageHandler {
    package typealias InboundIn = NormalizedBatch
    package typealias InboundOut = NormalizedBatch

    /// The last record's type and source with their hash: records come in long runs of one
    /// pair, and interned strings compare equal by their storage, without reading it.
    /// Not optionals: comparing an optional with a sample's field wraps (copies) the field.
    private var lastType = ""
    private var lastSource = SourceInfo(name: "")
    private var hasLast = false
    private var lastPrefix = StableHasher()

    package init() {}

    package mutating func handle(_ input: consuming NormalizedBatch, emit: (consuming NormalizedBatch) throws -> Void) throws {
        var identities: [UInt64] = []
        identities.reserveCapacity(input.samples.count)
        // Each sample is read in place through an `inout` access: passed as a plain argument,
        // an element of the array is copied whole first (a dozen reference counts touched).
        input.samples.withUnsafeMutableBufferPointer { samples in
            for i in samples.indices { identities.append(identity(of: &samples[i])) }
        }
        input.identities = identities
        try emit(consume input)
    }

    private mutating func identity(of sample: inout Sample) -> UInt64 {
        var h: StableHasher
        if hasLast && lastType == sample.record.type && lastSource == sample.record.source {
            h = lastPrefix
        } else {
            h = SampleIdentity.prefix(sample.record)
            (lastType, lastSource, lastPrefix, hasLast) = (sample.record.type, sample.record.source, h, true)
        }
        return SampleIdentity.completing(&h, sample.record)
    }
}
