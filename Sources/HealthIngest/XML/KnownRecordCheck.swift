import HealthCore

/// Whether a record is known to the prefilter (already imported), from its `type`, source
/// and `creationDate` bytes. The prefilter's answer for the last (type, source) pair is kept
/// by their bytes: records come type by type, source by source, so most records cost two
/// byte compares and one date parse. The byte-level `KnownRecordSkipper` and the SAX
/// handler both ask through this, so they decide alike.
struct KnownRecordCheck {
    let prefilter: any RecordPrefilter
    private var lastType: [UInt8] = [], lastSource: [UInt8] = []
    private var lastCutoff: Int64?
    private var hasLast = false

    init(prefilter: any RecordPrefilter) { self.prefilter = prefilter }

    /// `text` makes the String of a type or source (only when the pair changes).
    mutating func isKnown(type: ByteSpan, source: ByteSpan, created: ByteSpan, text: (ByteSpan) -> String) -> Bool {
        if !hasLast || !type.equals(lastType) || !source.equals(lastSource) {
            lastType = Array(UnsafeBufferPointer(start: type.start, count: type.count))
            lastSource = Array(UnsafeBufferPointer(start: source.start, count: source.count))
            lastCutoff = prefilter.cutoff(type: text(type), source: text(source))
            hasLast = true
        }
        guard let cutoff = lastCutoff, let instant = DateParser.parse(created)?.timestamp.microseconds else { return false }
        return instant < cutoff
    }
}
