import HealthCore

/// `DateParser.parse` for a stream of dates that mostly share their day and zone (a record's
/// start, end and creation dates, and the next record's; the creation dates the known-record
/// check reads): the midnight of the last fixed-form date's day is kept, and a date of the
/// fixed form (`2024-10-19 09:36:57 +0100`) with the same day and zone bytes reads only its
/// time of day. Anything else goes to the parser.
struct DateReader {
    private var lastDay: (date: UInt64, dateEnd: UInt16, zone: UInt64, midnight: Int64, offset: Int)?

    mutating func parse(_ text: ByteSpan) -> DateParser.Parsed? {
        let p = text.start
        guard text.count == 25, p[10] == 0x20, p[13] == 0x3A, p[16] == 0x3A else { return DateParser.parse(text) }
        let hour = twoDigits(p + 11), minute = twoDigits(p + 14), second = twoDigits(p + 17)
        guard hour < 24, minute < 60, second < 61 else { return DateParser.parse(text) }
        let date = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
        let dateEnd = UnsafeRawPointer(p + 8).loadUnaligned(as: UInt16.self)
        let zone = UnsafeRawPointer(p + 17).loadUnaligned(as: UInt64.self) >> 16   // bytes 19–24
        let timeOfDay = Int64(hour * 3600 + minute * 60 + second)
        if let last = lastDay, last.date == date, last.dateEnd == dateEnd, last.zone == zone {
            let seconds = last.midnight + timeOfDay
            if DateParser.representableSeconds.contains(seconds) {
                return DateParser.Parsed(timestamp: Timestamp(microseconds: seconds * 1_000_000), offsetSeconds: last.offset)
            }
        }
        // Remembered only for the fixed form (no fraction of a second), which the checks
        // above, with equal day and zone bytes, then imply.
        guard let parsed = DateParser.fixedForm(text) else { return DateParser.parse(text) }
        lastDay = (date, dateEnd, zone, parsed.timestamp.microseconds / 1_000_000 - timeOfDay, parsed.offsetSeconds)
        return parsed
    }
}

/// Two ASCII digits as a number; anything else gives a number of 100 or more.
@inline(__always) private func twoDigits(_ p: UnsafePointer<UInt8>) -> Int {
    let tens = p[0] &- 48, ones = p[1] &- 48
    return tens > 9 || ones > 9 ? 100 : Int(tens) * 10 + Int(ones)
}
