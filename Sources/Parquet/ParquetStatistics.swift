#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Column chunk statistics: min/max in the column's sort order (signed for integers and
/// dates/timestamps, numeric for doubles with NaN left out, unsigned bytes for strings),
/// PLAIN-encoded (strings without a length prefix).
struct ParquetStatistics {
    var nullCount: Int64 = 0
    var nanCount: Int64?
    var min: [UInt8]?
    var max: [UInt8]?

    /// Strings longer than this get no min/max.
    static let maxStringStatisticsBytes = 64

    /// The fields of `Statistics` (ids from parquet.thrift), inside an opened struct.
    func writeFields(_ s: inout ThriftCompactWriter) {
        s.field(3, i64: nullCount)                                           // null_count
        if let max { s.field(5, binary: max) }                               // max_value
        if let min { s.field(6, binary: min) }                               // min_value
        if max != nil { s.field(7, bool: true) }                             // is_max_value_exact
        if min != nil { s.field(8, bool: true) }                             // is_min_value_exact
        if let nanCount { s.field(9, i64: nanCount) }                        // nan_count
    }

    static func compute(_ c: ParquetColumnBuffer, rows: Int) -> ParquetStatistics {
        var st = ParquetStatistics()
        st.nullCount = Int64(rows - c.valueCount)
        switch c.storage {
        case .int32:
            if let lo = c.int32s.min(), let hi = c.int32s.max() { st.min = le(lo); st.max = le(hi) }
        case .int64:
            if let lo = c.int64s.min(), let hi = c.int64s.max() { st.min = le(lo); st.max = le(hi) }
        case .double:
            var lo = Double.infinity, hi = -Double.infinity, nans: Int64 = 0, any = false
            for v in c.doubles {
                if v.isNaN { nans += 1; continue }
                any = true
                if v < lo { lo = v }
                if v > hi { hi = v }
            }
            st.nanCount = nans
            if any {
                // Zero bounds are written as -0.0 (min) and +0.0 (max), as the spec asks.
                if lo == 0 { lo = -0.0 }
                if hi == 0 { hi = 0.0 }
                st.min = le(lo.bitPattern)
                st.max = le(hi.bitPattern)
            }
        case .boolean:
            if !c.booleans.isEmpty {
                st.min = [c.booleans.contains(0) ? 0 : 1]
                st.max = [c.booleans.contains(1) ? 1 : 0]
            }
        case .bytes:
            computeStringBounds(c, &st)
        }
        return st
    }

    private static func computeStringBounds(_ c: ParquetColumnBuffer, _ st: inout ParquetStatistics) {
        var lo: UnsafeRawBufferPointer?
        var hi: UnsafeRawBufferPointer?
        func consider(_ v: UnsafeRawBufferPointer) {
            if lo == nil || compareBytes(v, lo!) < 0 { lo = v }
            if hi == nil || compareBytes(v, hi!) > 0 { hi = v }
        }
        func finish() {
            guard let l = lo, let h = hi,
                  l.count <= maxStringStatisticsBytes, h.count <= maxStringStatisticsBytes else { return }
            st.min = Array(l)
            st.max = Array(h)
        }
        if c.usesDictionary {
            let d = c.dictionary
            guard d.count > 0 else { return }
            d.bytes.withUnsafeBytes { all in
                for i in 0..<d.count {
                    consider(UnsafeRawBufferPointer(rebasing: all[d.offsets[i]..<d.offsets[i + 1]]))
                }
                finish()
            }
        } else {
            guard !c.stringLengths.isEmpty else { return }
            c.stringBytes.withUnsafeBytes { all in
                var at = 0
                for n in c.stringLengths {
                    consider(UnsafeRawBufferPointer(rebasing: all[at..<(at + Int(n))]))
                    at += Int(n)
                }
                finish()
            }
        }
    }

    /// Unsigned lexicographic byte order.
    static func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let n = Swift.min(a.count, b.count)
        if n > 0 {
            let r = memcmp(a.baseAddress!, b.baseAddress!, n)
            if r != 0 { return Int(r) }
        }
        return a.count - b.count
    }

    private static func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] {
        withUnsafeBytes(of: v.littleEndian) { Array($0) }
    }
}
