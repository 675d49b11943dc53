import HealthCore

/// Exact copies, first half: stamps each sample with its identity so that exact duplicates
/// collapse to one row in the store, wherever in the file the copies are. The load stage
/// (the store's sink) drops a sample whose identity it has written already (`IdentitySet`);
/// a merge into the published store skips identities it holds (found through the type and
/// start index).
///
/// Runs on the normalize thread, fused behind the `Normalizer` (`then`): hashing every
/// attribute of every record is work per record, kept off the parse thread (the import's
/// bottleneck, docs/ARCHITECTURE.md) and off the load thread, which has the inserts.
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
