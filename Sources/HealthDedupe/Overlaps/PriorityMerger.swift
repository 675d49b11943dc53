import HealthCore

/// Overlapping sources, the Health app's merge: time is cut at every sample boundary; in each
/// slice only the best-ranked source present counts, with its samples' values spread pro rata
/// by time. Lower-ranked sources only fill the gaps.
///
/// Runs on the analytics' thread (HealthAnalytics' `AnalyticsBuilder`, beside the index build
/// in a full import), not in the load: an overlap is not a copy (both rows are the export's,
/// and the store keeps both), only a day's figures count one, and it needs each series in
/// time order, which the store's (type, start) order gives.
///
/// Input must come sorted by start (the store reads it through its (type, start) index);
/// memory is the set of samples overlapping the sweep position, not the series.
///
/// Two overlapping samples of the *same* source count once in their common slice (the
/// higher rate wins): such overlaps are re-synced rewrites (seen from Garmin Connect), and
/// adding them would count the same steps twice.
///
/// `@_spi(Analytics) public` and `@inlinable` throughout, not `package` (issue 62): the analytics
/// call it once a batch for every sample of a series, from another module, and Swift neither
/// inlines nor specializes a `package` generic there, cross-module optimization or not (6.3).
/// Unspecialized, every call looked up the metadata of `[Active]`, `MergedPiece<Tag>` and
/// their tuples at run time: 3% of a full import's CPU. As HealthDedupe's identity set (the
/// `Load` SPI), it stays out of sight unless a file asks (`@_spi(Analytics) import HealthDedupe`).
@_spi(Analytics) public struct PriorityMerger<Tag: Sendable>: StageHandler {
    public typealias InboundIn = [MergeSample<Tag>]
    public typealias InboundOut = [MergedPiece<Tag>]

    @usableFromInline struct Active {
        @usableFromInline var sample: MergeSample<Tag>
        @usableFromInline var rate: Double   // value per µs
        @inlinable init(sample: MergeSample<Tag>, rate: Double) { self.sample = sample; self.rate = rate }
    }

    @usableFromInline var active: [Active] = []
    @usableFromInline var cursor = Int64.min
    @usableFromInline var lastStart = Int64.min
    @usableFromInline var pieces: [MergedPiece<Tag>] = []

    @inlinable public init() {}

    @inlinable public mutating func handle(_ input: [MergeSample<Tag>], emit: (consuming [MergedPiece<Tag>]) throws -> Void) throws {
        for sample in input {
            guard sample.start >= lastStart else {
                throw HealthETLError.internal("priority merge: samples out of order at \(sample.start)")
            }
            lastStart = sample.start
            advance(to: sample.start)
            if sample.end <= sample.start {
                // An instant counts unless a better source covers it.
                if !active.contains(where: { $0.sample.rank < sample.rank }) {
                    pieces.append(MergedPiece(start: sample.start, end: sample.start, amount: sample.value, tag: sample.tag))
                }
                continue
            }
            active.append(Active(sample: sample, rate: sample.value / Double(sample.end - sample.start)))
        }
        try flush(emit)
    }

    @inlinable public mutating func finish(emit: (consuming [MergedPiece<Tag>]) throws -> Void) throws {
        advance(to: Int64.max)
        try flush(emit)
    }

    @inlinable mutating func flush(_ emit: (consuming [MergedPiece<Tag>]) throws -> Void) throws {
        guard !pieces.isEmpty else { return }
        try emit(pieces)
        pieces.removeAll(keepingCapacity: true)
    }

    /// Emits the slices between the cursor and `limit`, retiring samples that end on the way.
    /// Hand-written loops: the standard library's `removeAll(where:)` and `dropFirst` looked
    /// up the generic metadata of `[Active]` on every call, a tenth of the analytics' time.
    @inlinable mutating func advance(to limit: Int64) {
        while cursor < limit, !active.isEmpty {
            var nextEnd = Int64.max
            for i in active.indices where active[i].sample.end < nextEnd { nextEnd = active[i].sample.end }
            let sliceEnd = min(nextEnd, limit)
            if sliceEnd > cursor { emitSlice(cursor, sliceEnd) }
            cursor = sliceEnd
            retireEnded()
        }
        cursor = max(cursor, limit)
    }

    /// Drops the samples that end at or before the cursor, keeping the others' order.
    @inlinable mutating func retireEnded() {
        var kept = 0
        for i in active.indices where active[i].sample.end > cursor {
            if kept != i { active[kept] = active[i] }
            kept += 1
        }
        while active.count > kept { active.removeLast() }
    }

    @inlinable mutating func emitSlice(_ from: Int64, _ to: Int64) {
        var best = 0
        for i in active.indices.dropFirst() {
            let (a, b) = (active[i], active[best])
            if a.sample.rank < b.sample.rank || (a.sample.rank == b.sample.rank && a.rate > b.rate) { best = i }
        }
        let winner = active[best]
        pieces.append(MergedPiece(start: from, end: to, amount: winner.rate * Double(to - from), tag: winner.sample.tag))
    }
}
