
/// The byte-level encoders behind `CSVWriter`: each writes one cell's bytes at `out` (which must
/// have room for the stated maximum) and returns how many it wrote. No allocation, no
/// `String(format:)`, no locale: the output is the same on every machine.
///
/// Decimal rule (documented in `CSVFormat.decimal`): the **exact** binary value of the Double is
/// rounded to `places` decimals, ties (values exactly halfway, such as 0.125 or 2.5) away from
/// zero; the result is written in plain positional notation, never with an exponent, with
/// exactly `places` decimals. So 2.675 (stored as 2.67499999999999982236431605997495353221893310546875)
/// gives "2.67", 0.125 gives "0.13", 1e-7 with 6 places gives "0.000000". This equals Python's
/// `Decimal(x).quantize(Decimal(10) ** -places, ROUND_HALF_UP)`. A result that is zero is
/// written without a sign ("-0.0" and "-0.001" with 2 places both give "0.00"); NaN and ±inf
/// give an empty cell.
enum CSVCellEncoding {
    /// The largest `places` a decimal column may have.
    static let maxPlaces = 18
    /// Bytes a decimal cell can take: sign, 309 integer digits, point, `maxPlaces` decimals.
    static let maxDecimalBytes = 1 + 309 + 1 + maxPlaces
    static let maxIntegerBytes = 20
    /// `YYYY-MM-DD` (other years are the caller's text).
    static let dateBytes = 10
    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
    static let maxTimestampBytes = 27

    // MARK: Numbers

    /// `x` rounded to `places` (0…maxPlaces) decimals as described above; 0 bytes for NaN/inf.
    static func writeDecimal(_ x: Double, places: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard x.isFinite else { return 0 }
        let negative = x.sign == .minus
        let bits = x.bitPattern
        let exponentBits = Int(truncatingIfNeeded: (bits >> 52) & 0x7FF)
        var m = bits & ((1 << 52) - 1)
        var e: Int
        if exponentBits == 0 {
            e = -1074                      // subnormal (or zero)
        } else {
            m |= 1 << 52
            e = exponentBits - 1075
        }
        var digits = ReversedDigits(out: out, places: places)
        if m == 0 {
            digits.finish(negative: false)
            return digits.count
        }
        let tz = m.trailingZeroBitCount
        m >>= UInt64(tz)
        e += tz

        if e >= 0 {
            // An integer, m · 2^e: all decimals are zero.
            let bitLength = 64 - m.leadingZeroBitCount + e
            if bitLength <= 64 {
                digits.emitZeros(places)
                digits.emit(m << UInt64(e))
            } else if bitLength <= 128 {
                digits.emitZeros(places)
                digits.emit(UInt128(m) << e)
            } else {
                digits.emitZeros(places)
                emitBigInteger(m, shiftedLeftBy: e, into: &digits)
            }
            digits.finish(negative: negative)
            return digits.count
        }

        // m · 2^-s with s ≥ 1: N = round(m · 10^places / 2^s), ties away from zero.
        // m < 2^53 and 10^places < 2^60, so the product fits in 113 bits; with s ≥ 114 it is
        // below half of 2^s and N is 0.
        let s = -e
        var n: UInt128 = 0
        if s < 114 {
            var scale: UInt64 = 1
            for _ in 0..<places { scale &*= 10 }
            let product = UInt128(m) * UInt128(scale)
            let mask = (UInt128(1) << s) &- 1
            let remainder = product & mask
            n = product >> s
            if remainder >= UInt128(1) << (s - 1) { n += 1 }
        }
        digits.emit(n)
        digits.finish(negative: negative && n != 0)
        return digits.count
    }

    /// `x` rounded half away from zero to an integer, as `writeDecimal(x, places: 0)`.
    @inline(__always)
    static func writeRoundedInteger(_ x: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        writeDecimal(x, places: 0, to: out)
    }

    /// An integer with `places` zero decimals ("5" → "5.00"); `places` 0 gives the integer alone.
    static func writeInteger(_ v: Int64, places: Int = 0, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = ReversedDigits(out: out, places: places)
        digits.emitZeros(places)
        digits.emit(v.magnitude)
        digits.finish(negative: v < 0)
        return digits.count
    }

    /// m · 2^e for values beyond 128 bits (up to 2^1024): schoolbook division by 10^9 on
    /// 32-bit limbs, in a stack buffer.
    private static func emitBigInteger(_ m: UInt64, shiftedLeftBy e: Int, into digits: inout ReversedDigits) {
        let limbCount = (e + 64) / 32 + 2
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: limbCount) { limbs in
            limbs.initialize(repeating: 0)
            let shifted = UInt128(m) << (e % 32)          // ≤ 53 + 31 bits
            let base = e / 32
            limbs[base] = UInt32(truncatingIfNeeded: shifted)
            limbs[base + 1] = UInt32(truncatingIfNeeded: shifted >> 32)
            limbs[base + 2] = UInt32(truncatingIfNeeded: shifted >> 64)
            var top = base + 2
            while top > 0 && limbs[top] == 0 { top -= 1 }
            while true {
                var remainder: UInt64 = 0
                var i = top
                while i >= 0 {
                    let current = remainder << 32 | UInt64(limbs[i])
                    limbs[i] = UInt32(truncatingIfNeeded: current / 1_000_000_000)
                    remainder = current % 1_000_000_000
                    i -= 1
                }
                while top > 0 && limbs[top] == 0 { top -= 1 }
                if top == 0 && limbs[0] == 0 {
                    digits.emit(remainder)
                    return
                }
                digits.emitPadded(remainder, width: 9)
            }
        }
    }

    // MARK: Dates and times

    /// `YYYY-MM-DD` for years 0…9999 (valid month and day); nil otherwise (use the slow path).
    @inline(__always)
    static func writeDate(year: Int, month: Int, day: Int, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        guard (0...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        writeDigits(year: year, month: month, day: day, to: out)
        return dateBytes
    }

    /// ISO 8601 UTC: `2024-01-10T10:30:00Z`, with `.f…` (trailing zeros trimmed) only when
    /// there is a fraction of a second. nil for years outside 0…9999 (use the slow path).
    static func writeTimestamp(microseconds: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        let (seconds, micros) = floorDivided(microseconds, by: 1_000_000)
        let (days, secondOfDay) = floorDivided(seconds, by: 86_400)
        guard days > -800_000, days < 3_000_000 else { return nil }
        let d = civilDate(daysSinceEpoch: Int(days))
        guard (0...9999).contains(d.year) else { return nil }
        writeDigits(year: d.year, month: d.month, day: d.day, to: out)
        let sod = Int(secondOfDay)
        out[10] = UInt8(ascii: "T")
        writeTwo(sod / 3600, to: out + 11)
        out[13] = UInt8(ascii: ":")
        writeTwo(sod / 60 % 60, to: out + 14)
        out[16] = UInt8(ascii: ":")
        writeTwo(sod % 60, to: out + 17)
        var n = 19
        if micros != 0 {
            out[n] = UInt8(ascii: ".")
            var f = Int(micros)
            var width = 6
            while f % 10 == 0 { f /= 10; width -= 1 }
            var i = n + width
            while i > n {
                out[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: f % 10)
                f /= 10
                i -= 1
            }
            n += width + 1
        }
        out[n] = UInt8(ascii: "Z")
        return n + 1
    }

    /// Floor division: the remainder is never negative (instants before 1970).
    @inline(__always)
    private static func floorDivided(_ x: Int64, by d: Int64) -> (quotient: Int64, remainder: Int64) {
        var q = x / d
        var r = x % d
        if r < 0 { q -= 1; r += d }
        return (q, r)
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    static func civilDate(daysSinceEpoch z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    @inline(__always)
    private static func writeDigits(year: Int, month: Int, day: Int, to out: UnsafeMutablePointer<UInt8>) {
        writeTwo(year / 100, to: out)
        writeTwo(year % 100, to: out + 2)
        out[4] = UInt8(ascii: "-")
        writeTwo(month, to: out + 5)
        out[7] = UInt8(ascii: "-")
        writeTwo(day, to: out + 8)
    }

    @inline(__always)
    private static func writeTwo(_ v: Int, to out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v / 10)
        out[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
    }

    // MARK: Text

    /// Whether RFC 4180 requires quotes: the field holds the separator (a comma), a double
    /// quote, CR or LF.
    @inline(__always)
    static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8 = 0x2C) -> Bool {
        for b in bytes where b == separator || b == 0x22 || b == 0x0A || b == 0x0D { return true }
        return false
    }

    /// Room `writeField` needs for a field of `count` bytes: every byte a doubled quote, the
    /// formula guard's mark, the two quotes around.
    @inline(__always)
    static func maxFieldBytes(_ count: Int) -> Int { 2 * count + 3 }

    /// A text field: a field that could start a spreadsheet formula gets `CSVFormulaGuard`'s
    /// mark in front and is quoted; any other is quoted as RFC 4180 wants it. `out` needs room
    /// for `maxFieldBytes(bytes.count)`.
    static func writeField(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8 = 0x2C, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        let marked = CSVFormulaGuard.needsMark(bytes)
        guard marked || needsQuotes(bytes, separator: separator) else {
            out.update(from: base, count: bytes.count)
            return bytes.count
        }
        var n = 0
        out[n] = 0x22; n += 1
        if marked { out[n] = CSVFormulaGuard.mark; n += 1 }
        for b in bytes {
            out[n] = b; n += 1
            if b == 0x22 { out[n] = 0x22; n += 1 }
        }
        out[n] = 0x22; n += 1
        return n
    }
}

/// Digits written least significant first, with the decimal point inserted after `places`
/// digits, reversed into place by `finish`.
struct ReversedDigits {
    let out: UnsafeMutablePointer<UInt8>
    let places: Int
    private(set) var count = 0
    private var digitCount = 0

    init(out: UnsafeMutablePointer<UInt8>, places: Int) {
        self.out = out
        self.places = places
    }

    @inline(__always)
    mutating func emitDigit(_ d: UInt8) {
        out[count] = UInt8(ascii: "0") &+ d
        count += 1
        digitCount += 1
        if digitCount == places {
            out[count] = UInt8(ascii: ".")
            count += 1
        }
    }

    mutating func emitZeros(_ k: Int) {
        for _ in 0..<k { emitDigit(0) }
    }

    /// All digits of `v` (none for 0: `finish` supplies the leading zero).
    @inline(__always)
    mutating func emit(_ v: UInt64) {
        var v = v
        while v != 0 {
            emitDigit(UInt8(truncatingIfNeeded: v % 10))
            v /= 10
        }
    }

    /// Exactly `width` digits of `v` (v < 10^width).
    mutating func emitPadded(_ v: UInt64, width: Int) {
        var v = v
        for _ in 0..<width {
            emitDigit(UInt8(truncatingIfNeeded: v % 10))
            v /= 10
        }
    }

    mutating func emit(_ v: UInt128) {
        var v = v
        while v > UInt128(UInt64.max) {
            let (q, r) = v.quotientAndRemainder(dividingBy: 10_000_000_000_000_000_000)
            emitPadded(UInt64(truncatingIfNeeded: r), width: 19)
            v = q
        }
        emit(UInt64(truncatingIfNeeded: v))
    }

    /// Pads to at least one integer digit, adds the sign, and reverses the bytes into reading order.
    mutating func finish(negative: Bool) {
        while digitCount < places + 1 { emitDigit(0) }
        if negative {
            out[count] = UInt8(ascii: "-")
            count += 1
        }
        var i = 0, j = count - 1
        while i < j {
            let t = out[i]
            out[i] = out[j]
            out[j] = t
            i += 1
            j -= 1
        }
    }
}
