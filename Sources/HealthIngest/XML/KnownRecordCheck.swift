import HealthCore

/// Whether a record is known to the prefilter (already imported), from its `type`, source
/// and `creationDate` bytes. The prefilter's answers for the (type, source) pairs seen last
/// are kept by their bytes: records come type by type, and within a type a phone's and a
/// watch's samples interleave, so most records cost two byte compares and one date parse.
/// The byte-level `KnownRecordSkipper` and the SAX handler both ask through this, so they
/// decide alike.
struct KnownRecordCheck {
    let prefilter: any RecordPrefilter
    private struct Pair {
        var type: [UInt8], source: [UInt8]
        var cutoff: Int64?
    }
    /// Most recently used first.
    private var pairs: [Pair] = []
    private static let pairsKept = 8

    init(prefilter: any RecordPrefilter) { self.prefilter = prefilter }

    /// `text` makes the String of a type or source (only for a pair not kept).
    mutating func isKnown(type: ByteSpan, source: ByteSpan, created: ByteSpan, text: (ByteSpan) -> String) -> Bool {
        guard let cutoff = cutoff(type: type, source: source, text: text), let instant = instant(created) else { return false }
        return instant < cutoff
    }

    /// Creation dates, read mostly by their time of day (see `DateReader`).
    private var dates = DateReader()

    /// `DateParser.parse(created)`'s instant (µs).
    mutating func instant(_ created: ByteSpan) -> Int64? { dates.parse(created)?.timestamp.microseconds }

    private mutating func cutoff(type: ByteSpan, source: ByteSpan, text: (ByteSpan) -> String) -> Int64? {
        if let first = pairs.first, type.equals(first.type), source.equals(first.source) { return first.cutoff }
        for k in pairs.indices.dropFirst() where type.equals(pairs[k].type) && source.equals(pairs[k].source) {
            pairs.swapAt(0, k)
            return pairs[0].cutoff
        }
        let pair = Pair(type: Array(UnsafeBufferPointer(start: type.start, count: type.count)),
                        source: Array(UnsafeBufferPointer(start: source.start, count: source.count)),
                        cutoff: prefilter.cutoff(type: text(type), source: text(source)))
        if pairs.count == Self.pairsKept { pairs.removeLast() }
        pairs.insert(pair, at: 0)
        return pair.cutoff
    }
}
