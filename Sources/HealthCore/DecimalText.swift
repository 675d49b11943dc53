/// Numbers as Apple writes them: plain decimals, `%g`-style exponents included
/// (`-12`, `0.5`, `.5`, `1.23457e+06`). Swift's `Double(String)` also reads `0x10` (16), `inf`
/// and `nan`, which no export holds: such a value is a damaged record, not a number.
public enum DecimalText {
    /// The value of `text`, or nil when it is not a finite decimal number.
    public static func double(_ text: String) -> Double? {
        var text = text
        let wellFormed = text.withUTF8 { isDecimal($0) }
        guard wellFormed, let value = Double(text), value.isFinite else { return nil }
        return value
    }

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
