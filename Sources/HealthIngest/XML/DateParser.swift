import HealthCore

/// Parses the date forms found in exports straight from bytes.
///
/// `2024-01-10 11:30:00 +0100` (iOS 9+), `20150603050217+0100` (iOS 8), and ISO 8601
/// `2019-06-11T15:00:02Z` (GPX). The printed offset is the phone's offset at export time,
/// so the result is the exact instant; the wall clock is not the local time of recording.
enum DateParser {
    struct Parsed {
        var timestamp: Timestamp
        /// The printed UTC offset in seconds (needed to anchor HRV beat times of day).
        var offsetSeconds: Int
    }

    static func parse(_ s: ByteSpan) -> Parsed? {
        if let parsed = fixedForm(s) { return parsed }
        return anyForm(s)
    }

    /// Every form, read with a cursor.
    static func anyForm(_ s: ByteSpan) -> Parsed? {
        var p = Cursor(span: s)
        guard let year = p.digits(4) else { return nil }
        let separated = p.skip("-")
        guard let month = p.digits(2), !separated || p.skip("-"), let day = p.digits(2) else { return nil }
        if separated { guard p.skip(" ") || p.skip("T") else { return nil } }
        guard let hour = p.digits(2), !separated || p.skip(":"), let minute = p.digits(2),
              !separated || p.skip(":"), let second = p.digits(2) else { return nil }
        var micros = 0
        if p.skip(".") || p.skip(",") {
            var scale = 100_000
            while let d = p.digit() {
                micros += d * scale
                scale /= 10
            }
        }
        _ = p.skip(" ")
        var offset = 0
        if p.skip("Z") {
            offset = 0
        } else if let sign = p.sign() {
            guard let oh = p.digits(2) else { return nil }
            _ = p.skip(":")
            guard let om = p.digits(2), isOffset(hours: oh, minutes: om) else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else if !p.atEnd {
            return nil
        }
        guard p.atEnd, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        guard representableSeconds.contains(seconds) else { return nil }
        return Parsed(timestamp: Timestamp(microseconds: seconds * 1_000_000 + Int64(micros)), offsetSeconds: offset)
    }

    /// Instants (seconds since 1970, UTC) whose local day, and the week, month and year that
    /// hold it, are dates in every zone: 0001-01-02 to 9999-12-24. SQLite's date functions and
    /// ISO text stop at years 0 and 9999, so a record of `9999-12-31 22:00:00 -1400` (year
    /// 10000 in UTC) once got a NULL start in `samples`, and one of 9999-12-30 a week ending in
    /// year 10000, which no Parquet file could hold.
    static let representableSeconds: ClosedRange<Int64> =
        Int64(CivilDate(year: 1, month: 1, day: 2).daysSinceEpoch) * 86_400
        ... Int64(CivilDate(year: 9999, month: 12, day: 24).daysSinceEpoch) * 86_400 + 86_399

    /// A UTC offset a clock can have: no zone is more than 14 hours from UTC; up to 18 (what
    /// ISO 8601 readers accept) is let through, `+9999` is not a date.
    @inline(__always) static func isOffset(hours: Int, minutes: Int) -> Bool { hours <= 18 && minutes < 60 }

    /// `2024-01-10 11:30:00 +0100`, the form of nearly every date in an export (three per
    /// record), read at fixed positions, with a fraction of `anyForm`'s work. Nil for
    /// anything else, which `anyForm` then reads (or rejects).
    @inline(__always) static func fixedForm(_ s: ByteSpan) -> Parsed? {
        let p = s.start
        guard s.count == 25, p[4] == 0x2D, p[7] == 0x2D, p[10] == 0x20, p[13] == 0x3A, p[16] == 0x3A, p[19] == 0x20,
              p[20] == 0x2B || p[20] == 0x2D else { return nil }
        // Digits minus "0" as bytes: a non-digit wraps above 9, so the largest tells.
        var largest: UInt8 = 0
        @inline(__always) func number(_ at: Int, _ n: Int) -> Int {
            var v = 0
            for i in at..<at + n {
                let d = p[i] &- 48
                largest = max(largest, d)
                v = v * 10 + Int(d)
            }
            return v
        }
        let (year, month, day) = (number(0, 4), number(5, 2), number(8, 2))
        let (hour, minute, second) = (number(11, 2), number(14, 2), number(17, 2))
        let (offsetHours, offsetMinutes) = (number(21, 2), number(23, 2))
        let offset = (p[20] == 0x2D ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        guard largest <= 9, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61,
              isOffset(hours: offsetHours, minutes: offsetMinutes) else {
            return nil
        }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        guard representableSeconds.contains(seconds) else { return nil }
        return Parsed(timestamp: Timestamp(microseconds: seconds * 1_000_000), offsetSeconds: offset)
    }

    /// A localized time of day with no date (`9:58:41.42 PM`, `17:07:00,29`, `오후 9:58:41.42`),
    /// as seconds since midnight.
    static func timeOfDay(_ s: ByteSpan) -> Double? {
        var numbers: [Int] = []
        var fraction = 0.0
        var current = -1
        var inFraction = false
        var fractionScale = 0.1
        var pm = false, am = false
        var i = 0
        while i < s.count {
            let b = s[i]
            if b >= 48 && b <= 57 {
                if inFraction {
                    fraction += Double(b - 48) * fractionScale
                    fractionScale /= 10
                } else {
                    // Saturated: a run of digits as long as an attribute could overflow Int
                    // (found by fuzzing); anything past 999 is rejected below all the same.
                    current = min(max(current, 0) * 10 + Int(b - 48), 1000)
                }
            } else {
                if current >= 0 { numbers.append(current); current = -1 }
                if (b == 46 || b == 44) && numbers.count == 3 { inFraction = true }
                else if b == 80 || b == 112 { pm = true }            // P / p
                else if b == 65 || b == 97 { am = true }             // A / a
                else if b == 0xED && i + 2 < s.count && s[i + 1] == 0x9B && s[i + 2] == 0x84 { pm = true } // 후 (오후)
                else if b == 0xEC && i + 2 < s.count && s[i + 1] == 0xA0 && s[i + 2] == 0x84 { am = true } // 전 (오전)
                else if b == 0xE4 && i + 2 < s.count && s[i + 1] == 0xB8 && s[i + 2] == 0x8B { pm = true } // 下(午)
                else if b == 0xE4 && i + 2 < s.count && s[i + 1] == 0xB8 && s[i + 2] == 0x8A { am = true } // 上(午)
            }
            i += 1
        }
        if current >= 0 && !inFraction { numbers.append(current) }
        guard numbers.count >= 2, numbers.count <= 3 else { return nil }
        var hour = numbers[0]
        let minute = numbers[1], second = numbers.count == 3 ? numbers[2] : 0
        guard hour < 24, minute < 60, second < 61 else { return nil }
        if pm && hour < 12 { hour += 12 }
        if am && hour == 12 { hour = 0 }
        return Double(hour * 3600 + minute * 60 + second) + fraction
    }

    /// `YYYY-MM-DD` (ActivitySummary `dateComponents`).
    static func civilDate(_ s: ByteSpan) -> CivilDate? {
        var p = Cursor(span: s)
        guard let y = p.digits(4), p.skip("-"), let m = p.digits(2), p.skip("-"), let d = p.digits(2), p.atEnd,
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        return CivilDate(year: y, month: m, day: d)
    }

    /// Birth dates: `1988-10-29` or iOS 8's `19881029`.
    static func compactOrISODate(_ s: ByteSpan) -> CivilDate? {
        if let d = civilDate(s) { return d }
        var p = Cursor(span: s)
        guard let y = p.digits(4), let m = p.digits(2), let d = p.digits(2), p.atEnd,
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        return CivilDate(year: y, month: m, day: d)
    }

    private struct Cursor {
        let span: ByteSpan
        var i = 0
        var atEnd: Bool { i >= span.count }

        mutating func digit() -> Int? {
            guard i < span.count, span[i] >= 48, span[i] <= 57 else { return nil }
            defer { i += 1 }
            return Int(span[i] - 48)
        }
        mutating func digits(_ n: Int) -> Int? {
            guard i + n <= span.count else { return nil }
            var v = 0
            for _ in 0..<n { guard let d = digit() else { return nil }; v = v * 10 + d }
            return v
        }
        mutating func skip(_ c: Unicode.Scalar) -> Bool {
            guard i < span.count, span[i] == UInt8(c.value) else { return false }
            i += 1
            return true
        }
        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
