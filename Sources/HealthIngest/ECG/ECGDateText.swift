import HealthCore

/// The recorded date of an ECG file. English files write the export's own form,
/// `2020-03-15 09:41:23 -0700`; a localized file may write the date day first
/// (`15.03.2020 09:41:23 +0100`) or a `T`, a comma, `Z`/`UTC`/`GMT` or `+01:00`. Only a date with a
/// time and a UTC offset is an instant: without the offset the moment is unknown, and a birth
/// date (`Jan 1, 1980`, `01.01.1980`) is never taken for it.
enum ECGDateText {
    static func instant(_ text: String) -> Timestamp? {
        var p = Scanner(Array(text.utf8))
        // The date: Y-M-D (`-`, `/` or `.`) or, with points only, D.M.Y.
        guard let first = p.number() else { return nil }
        guard let separator = p.oneOf("-/."), let middle = p.number(), p.skip(separator), let third = p.number()
        else { return nil }
        let (year, month, day): (Int, Int, Int)
        if first.digits == 4 {
            (year, month, day) = (first.value, middle.value, third.value)
        } else if separator == UInt8(ascii: "."), third.digits == 4 {
            (year, month, day) = (third.value, middle.value, first.value)
        } else {
            return nil
        }
        _ = p.oneOf(",")
        guard p.skipSpaces() || p.skip(UInt8(ascii: "T")) else { return nil }
        _ = p.skipSpaces()
        // The time: H:MM[:SS[.fff]].
        guard let hour = p.number(), p.skip(UInt8(ascii: ":")), let minute = p.number(), minute.digits == 2 else { return nil }
        var second = 0
        if p.skip(UInt8(ascii: ":")) {
            guard let s = p.number(), s.digits == 2 else { return nil }
            second = s.value
            if p.oneOf(".,") != nil { _ = p.number() }   // a fraction of the second: the file's own resolution is 1 s
        }
        _ = p.skipSpaces()
        guard let offset = p.offsetSeconds(), p.atEnd,
              (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
              hour.value < 24, minute.value < 60, second < 61 else { return nil }
        let days = Int64(CivilDate(year: year, month: month, day: day).daysSinceEpoch)
        let seconds = days * 86_400 + Int64(hour.value * 3600 + minute.value * 60 + second) - Int64(offset)
        return Timestamp(seconds: seconds)
    }

    /// A cursor over the bytes of a value.
    private struct Scanner {
        let bytes: [UInt8]
        var i = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { i == bytes.count }

        /// Up to 4 digits (no value here needs more, and none can overflow).
        mutating func number() -> (value: Int, digits: Int)? {
            var value = 0, digits = 0
            while i < bytes.count, bytes[i] &- 48 < 10, digits < 4 {
                value = value * 10 + Int(bytes[i] - 48)
                digits += 1
                i += 1
            }
            if i < bytes.count, bytes[i] &- 48 < 10 { return nil }
            return digits > 0 ? (value, digits) : nil
        }

        mutating func skip(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        mutating func oneOf(_ set: StaticString) -> UInt8? {
            guard i < bytes.count else { return nil }
            let b = bytes[i]
            let found = set.withUTF8Buffer { $0.contains(b) }
            if found { i += 1; return b }
            return nil
        }

        mutating func skipSpaces() -> Bool {
            let start = i
            while i < bytes.count, bytes[i] == UInt8(ascii: " ") { i += 1 }
            return i > start
        }

        /// `+0100`, `-07:00`, `+01`, `Z`, `UTC`, `GMT`, `GMT+1` (seconds east of UTC); nil if none.
        mutating func offsetSeconds() -> Int? {
            if skip(UInt8(ascii: "Z")) { return 0 }
            for name in ["UTC", "GMT"] where bytes[i...].starts(with: name.utf8) {
                i += 3
                if atEnd { return 0 }
                return signedOffset()
            }
            return signedOffset()
        }

        private mutating func signedOffset() -> Int? {
            guard let sign = oneOf("+-") else { return nil }
            guard let first = number() else { return nil }
            var hours = first.value, minutes = 0
            if first.digits == 4 {
                (hours, minutes) = (first.value / 100, first.value % 100)
            } else if skip(UInt8(ascii: ":")) {
                guard let m = number(), m.digits == 2 else { return nil }
                minutes = m.value
            } else if first.digits > 2 {
                return nil
            }
            guard hours <= 18, minutes < 60 else { return nil }
            return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
    }
}
