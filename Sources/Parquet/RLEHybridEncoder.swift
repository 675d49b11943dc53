/// Parquet's RLE / bit-packing hybrid encoding (Encodings.md), used for definition levels
/// and dictionary indices. Runs of 8 or more equal values become RLE runs; everything else
/// is bit-packed in groups of 8 values, LSB first. A bit-packed run holds at most 63 groups
/// (one header byte), like parquet-cpp. Only the very last group may be padded with zeros:
/// readers stop at the page's value count.
enum RLEHybridEncoder {
    static let maxGroupsPerRun = 63

    /// Number of bits needed for values up to `maxValue` (at least 1).
    static func bitWidth(forMaxValue maxValue: UInt64) -> Int {
        max(1, 64 - maxValue.leadingZeroBitCount)
    }

    /// Appends the encoding of `values` (each < 2^bitWidth, bitWidth 1…32) to `out`,
    /// without a length prefix.
    static func encode<T: FixedWidthInteger & UnsignedInteger>(
        _ values: UnsafeBufferPointer<T>, bitWidth: Int, into out: inout [UInt8]
    ) {
        precondition(bitWidth >= 1 && bitWidth <= 32, "bit width out of range")
        let n = values.count
        let byteWidth = (bitWidth + 7) / 8
        out.reserveCapacity(out.count + n * bitWidth / 8 + n / 64 + 16)
        var i = 0
        while i < n {
            let x = values[i]
            var j = i &+ 1
            while j < n && values[j] == x { j &+= 1 }
            if j &- i >= 8 {
                appendVarint(UInt64(j &- i) << 1, to: &out)
                var v = UInt64(x)
                for _ in 0..<byteWidth {
                    out.append(UInt8(truncatingIfNeeded: v))
                    v >>= 8
                }
                i = j
                continue
            }
            // Bit-packed run: whole groups of 8 until a run of 8 equal values starts at a
            // group boundary, the group limit, or the end of the values.
            let start = i
            var end = i
            var groups = 0
            while end < n && groups < maxGroupsPerRun {
                end = min(end &+ 8, n)
                groups &+= 1
                if end >= n { break }
                let y = values[end]
                var m = end &+ 1
                while m < n && m &- end < 8 && values[m] == y { m &+= 1 }
                if m &- end >= 8 { break }
            }
            appendVarint(UInt64(groups) << 1 | 1, to: &out)
            var acc: UInt64 = 0
            var bits = 0
            for k in start..<(start &+ groups &* 8) {
                let v: UInt64 = k < end ? UInt64(values[k]) : 0
                acc |= v << UInt64(bits)
                bits &+= bitWidth
                while bits >= 8 {
                    out.append(UInt8(truncatingIfNeeded: acc))
                    acc >>= 8
                    bits &-= 8
                }
            }
            i = end
        }
    }

    @inline(__always)
    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }
}

extension Array where Element == UInt8 {
    @inline(__always)
    mutating func parquetAppendLE<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    /// Overwrites 4 bytes at `offset` with `value`, little-endian.
    mutating func parquetStoreUInt32LE(_ value: UInt32, at offset: Int) {
        let v = value.littleEndian
        withUnsafeMutableBytes { $0.storeBytes(of: v, toByteOffset: offset, as: UInt32.self) }
    }
}
