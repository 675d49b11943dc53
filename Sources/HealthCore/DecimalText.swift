/// Numbers as Apple writes them: plain decimals, `%g`-style exponents included
/// (`-12`, `0.5`, `.5`, `1.23457e+06`). Swift's `Double(String)` also reads `0x10` (16), `inf`
/// and `nan`, which no export holds: such a value is a damaged record, not a number.
public enum DecimalText {
    /// The value of `text`, or nil when it is not a finite decimal number.
    public static func double(_ text: String) -> Double? {
        var text = text
        // nil: not a decimal; .some(nil): a decimal the exact path cannot take.
        let exact: Double?? = text.withUTF8 { isDecimal($0) ? .some(exactValue($0)) : nil }
        guard let exact else { return nil }
        if let exact { return exact }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The value of a decimal (`isDecimal`) of at most 15 significant digits whose point
    /// lies at most 22 places from them (`72`, `0.0123`, `1.23457e+06`: every value an export
    /// holds, nearly), by Clinger's fast path: the digits make an exact `Double` (below
    /// 2^53), so does the power of ten (up to 1e22), and one multiplication or division by it
    /// is correctly rounded, as `strtod` is: the same double. nil for any other decimal,
    /// which `Double(String)` reads (`strtod` took a thousand instructions a value, the most
    /// costly step of normalizing a record; issue 62).
    static func exactValue(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = b.count
        var negative = false
        if i < n, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { negative = b[i] == UInt8(ascii: "-"); i += 1 }
        var mantissa: UInt64 = 0, significant = 0, scale = 0
        func digits(fraction: Bool) -> Bool {
            while i < n, b[i] &- 48 < 10 {
                let d = b[i] &- 48
                if significant > 0 || d != 0 { significant += 1 }   // leading zeros are not significant
                guard significant <= 15 else { return false }
                mantissa = mantissa * 10 + UInt64(d)
                if fraction { scale -= 1 }
                i += 1
            }
            return true
        }
        guard digits(fraction: false) else { return nil }
        if i < n, b[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(fraction: true) else { return nil }
        }
        if i < n, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            var negativeExponent = false
            if i < n, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { negativeExponent = b[i] == UInt8(ascii: "-"); i += 1 }
            var exponent = 0
            while i < n, b[i] &- 48 < 10 {
                guard exponent < 10_000 else { return nil }
                exponent = exponent * 10 + Int(b[i] &- 48)
                i += 1
            }
            scale += negativeExponent ? -exponent : exponent
        }
        guard i == n, scale >= -22, scale <= 22 else { return nil }
        var value = Double(mantissa)
        if scale < 0 { value /= powersOfTen[-scale] } else if scale > 0 { value *= powersOfTen[scale] }
        return negative ? -value : value
    }

    /// 1e0 … 1e22: every one an exact double.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// `[+-]? digits? (. digits?)? ([eE] [+-]? digits)?` with at least one mantissa digit.
    public static func isDecimal(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = b.count
        func digits() -> Int {
            let start = i
            while i < n, b[i] &- 48 < 10 { i += 1 }
            return i - start
        }
        if i < n, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
        var mantissa = digits()
        if i < n, b[i] == UInt8(ascii: ".") {
            i += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if i < n, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < n, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == n
    }
}

extension Double {
    /// This value rounded to an Int64, or nil when it is not finite or outside Int64's range
    /// (where `Int64(_:)` would stop the process).
    @inlinable public var roundedInt64: Int64? {
        let r = rounded()
        guard r.isFinite, r >= -9.2e18, r <= 9.2e18 else { return nil }
        return Int64(r)
    }
}
