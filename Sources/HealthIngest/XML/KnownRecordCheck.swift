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

    /// The day and zone of the last creation date in the fixed form (`2024-10-19 09:36:57 +0100`)
    /// and the seconds at its midnight: the dates of a series share them for many records, so
    /// only the time of day is read.
    private var lastDay: (date: UInt64, dateEnd: UInt16, zone: UInt64, midnight: Int64)?

    /// `DateParser.parse(created)`'s instant (µs), reading only the time of day when the day
    /// and zone are the last one's.
    mutating func instant(_ created: ByteSpan) -> Int64? {
        let p = created.start
        if created.count == 25, p[10] == 0x20, p[13] == 0x3A, p[16] == 0x3A {
            let hour = twoDigits(p + 11), minute = twoDigits(p + 14), second = twoDigits(p + 17)
            if hour < 24, minute < 60, second < 61 {
                let date = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
                let dateEnd = UnsafeRawPointer(p + 8).loadUnaligned(as: UInt16.self)
                let zone = UnsafeRawPointer(p + 17).loadUnaligned(as: UInt64.self) >> 16   // bytes 19–24
                let timeOfDay = Int64(hour * 3600 + minute * 60 + second)
                if let last = lastDay, last.date == date, last.dateEnd == dateEnd, last.zone == zone {
                    let seconds = last.midnight + timeOfDay
                    if DateParser.representableSeconds.contains(seconds) { return seconds * 1_000_000 }
                }
                // Remembered only for the fixed form (no fraction of a second), which the
                // checks above, with equal day and zone bytes, then imply.
                if let parsed = DateParser.fixedForm(created) {
                    lastDay = (date, dateEnd, zone, parsed.timestamp.microseconds / 1_000_000 - timeOfDay)
                    return parsed.timestamp.microseconds
                }
            }
        }
        return DateParser.parse(created)?.timestamp.microseconds
    }

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

/// Two ASCII digits as a number; anything else gives a number of 100 or more.
@inline(__always) private func twoDigits(_ p: UnsafePointer<UInt8>) -> Int {
    let tens = p[0] &- 48, ones = p[1] &- 48
    return tens > 9 || ones > 9 ? 100 : Int(tens) * 10 + Int(ones)
}
