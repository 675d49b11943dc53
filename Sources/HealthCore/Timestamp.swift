/// An instant in time as microseconds since 1970-01-01T00:00:00Z.
///
/// Exports print second-resolution wall clocks with one fixed offset; GPX files and
/// heartbeat lists carry fractions. Microseconds cover both and map 1:1 onto Parquet's
/// TIMESTAMP(MICROS, UTC) and SQLite integers.
public struct Timestamp: Hashable, Comparable, Sendable {
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }
    @inlinable public init(seconds: Int64) { self.microseconds = seconds &* 1_000_000 }
    public init(secondsSince1970 seconds: Double) { self.microseconds = Int64((seconds * 1_000_000).rounded()) }

    @inlinable public var seconds: Double { Double(microseconds) / 1_000_000 }
    @inlinable public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }

    /// ISO 8601 in UTC, `2024-01-10T10:30:00Z`, with `.ffffff` only when there is a fraction.
    public var iso8601: String {
        let (secs, micros) = microseconds.floorDivided(by: 1_000_000)
        let (days, secOfDay) = secs.floorDivided(by: 86_400)
        let d = CivilDate(daysSinceEpoch: Int(days))
        var s = d.iso8601 + "T" + twoDigits(Int(secOfDay / 3600)) + ":" + twoDigits(Int(secOfDay / 60 % 60))
            + ":" + twoDigits(Int(secOfDay % 60))
        if micros != 0 {
            var frac = String(micros)
            frac = String(repeating: "0", count: 6 - frac.count) + frac
            while frac.hasSuffix("0") { frac.removeLast() }
            s += "." + frac
        }
        return s + "Z"
    }

    /// Parses what `iso8601` prints (`2024-01-10T10:30:00Z`, optional `.ffffff`).
    public init?(iso8601 text: String) {
        guard text.hasSuffix("Z"), let tIndex = text.firstIndex(of: "T"),
              let date = CivilDate(iso: text[..<tIndex]) else { return nil }
        let clock = text[text.index(after: tIndex)..<text.index(before: text.endIndex)]
        let parts = clock.split(separator: ":")
        // Only the clock `iso8601` prints: out-of-range fields (a damaged text column) made the
        // sum below overflow, and a seconds field of "." had no first part (found by fuzzing).
        guard parts.count == 3, let h = Int64(parts[0]), let m = Int64(parts[1]), (0..<24).contains(h),
              (0..<60).contains(m) else { return nil }
        let secParts = parts[2].split(separator: ".", maxSplits: 1)
        guard let first = secParts.first, let sec = Int64(first), (0..<61).contains(sec) else { return nil }
        var micros: Int64 = 0
        if secParts.count == 2 {
            let digits = secParts[1].prefix(6)
            guard let f = Int64(digits), f >= 0 else { return nil }
            micros = f * Int64(pow10: 6 - digits.count)
        }
        self.init(microseconds: ((Int64(date.daysSinceEpoch) * 86_400) + h * 3600 + m * 60 + sec) * 1_000_000 + micros)
    }
}

/// A calendar date with no zone (proleptic Gregorian), used for local days.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) { self.year = year; self.month = month; self.day = day }

    /// One word to hash, not three (dates key the analytics' tables of days): a month and a
    /// day fit in 9 bits; dates out of range only share a hash, never compare equal.
    public func hash(into hasher: inout Hasher) { hasher.combine(year << 9 | month << 5 | day) }

    /// Howard Hinnant's days-from-civil: exact for any proleptic Gregorian date.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public init(daysSinceEpoch z0: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Parses `YYYY-MM-DD`. Years 0…9999 only (what `iso8601` prints for any date an export
    /// holds): a year near Int.max overflowed `daysSinceEpoch` (found by fuzzing).
    public init?(iso string: some StringProtocol) {
        // The form every store and output holds, read from its bytes (tens of thousands of
        // dates a run); anything else by the general rule below.
        if let fixed = string.utf8.withContiguousStorageIfAvailable(Self.fixedISODigits) ?? nil {
            guard (1...12).contains(fixed.month), (1...31).contains(fixed.day) else { return nil }
            self.init(year: fixed.year, month: fixed.month, day: fixed.day)
            return
        }
        let parts = string.split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (0...9999).contains(y), (1...12).contains(m), (1...31).contains(d) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public var iso8601: String {
        guard (0...9999).contains(year) else {
            let y = String(year)
            return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + twoDigits(month) + "-" + twoDigits(day)
        }
        // Ten bytes written in place: no intermediate strings (a run formats tens of thousands).
        return String(unsafeUninitializedCapacity: 10) { bytes in
            let zero = UInt8(ascii: "0")
            bytes[0] = zero + UInt8(year / 1000); bytes[1] = zero + UInt8(year / 100 % 10)
            bytes[2] = zero + UInt8(year / 10 % 10); bytes[3] = zero + UInt8(year % 10)
            bytes[4] = UInt8(ascii: "-"); bytes[5] = zero + UInt8(month / 10); bytes[6] = zero + UInt8(month % 10)
            bytes[7] = UInt8(ascii: "-"); bytes[8] = zero + UInt8(day / 10); bytes[9] = zero + UInt8(day % 10)
            return 10
        }
    }

    /// Year, month and day of exactly `DDDD-DD-DD` (nil: any other bytes).
    private static func fixedISODigits(_ b: UnsafeBufferPointer<UInt8>) -> (year: Int, month: Int, day: Int)? {
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<from + count {
                let d = b[i] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                value = value * 10 + Int(d)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
        return (year, month, day)
    }
    public var description: String { iso8601 }
    /// Monday = 0 … Sunday = 6 (1970-01-01 was a Thursday).
    public var weekdayFromMonday: Int { ((daysSinceEpoch % 7) + 7 + 3) % 7 }

    /// First day of the week holding this date; `weekStart` 0 = Monday … 6 = Sunday.
    public func startOfWeek(weekStart: Int) -> CivilDate {
        adding(days: -((weekdayFromMonday - weekStart + 7) % 7))
    }
    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }
    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }
}

@inline(__always) func twoDigits(_ v: Int) -> String { v < 10 ? "0" + String(v) : String(v) }

extension Int64 {
    /// Division rounding towards minus infinity, with a non-negative remainder.
    @inlinable public func floorDivided(by d: Int64) -> (quotient: Int64, remainder: Int64) {
        var q = self / d
        var r = self % d
        if r < 0 { q -= 1; r += d }
        return (q, r)
    }
}

extension Int64 {
    init(pow10 n: Int) {
        var v: Int64 = 1
        for _ in 0..<n { v *= 10 }
        self = v
    }
}
