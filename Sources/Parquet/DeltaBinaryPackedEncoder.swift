/// Parquet's DELTA_BINARY_PACKED encoding for INT32 and INT64 columns.
///
/// Timestamps sorted by start differ by minutes: their deltas fit in 20–30 bits where PLAIN
/// spends 64, so gzip has less than half the bytes to compress, and the file shrinks.
///
/// Layout (parquet-format Encodings.md): a header `<block size> <miniblocks per block>
/// <value count> <first value, zigzag>` in ULEB128, then blocks of 128 deltas, each
/// `<min delta, zigzag ULEB128> <4 bit widths, one byte each> <4 miniblocks of 32 values>`,
/// every miniblock bit-packed (LSB first) at its own width after subtracting the min delta.
/// The last miniblock is padded to 32 values; unneeded miniblocks of the last block are
/// left out, their widths written as 0. Arithmetic wraps in the column's own width, as
/// readers undo it.
enum DeltaBinaryPackedEncoder {
    static let blockSize = 128
    static let miniblocksPerBlock = 4
    static let miniblockSize = 32

    static func encode<T: FixedWidthInteger & SignedInteger>(_ values: UnsafeBufferPointer<T>, into out: inout [UInt8]) {
        appendULEB128(UInt64(blockSize), to: &out)
        appendULEB128(UInt64(miniblocksPerBlock), to: &out)
        appendULEB128(UInt64(values.count), to: &out)
        appendULEB128(zigzag(Int64(values.first ?? 0)), to: &out)
        guard values.count > 1 else { return }
        var deltas = [T](repeating: 0, count: blockSize)
        var packed = [UInt64](repeating: 0, count: miniblockSize)
        var i = 1
        while i < values.count {
            let n = min(blockSize, values.count - i)
            var minDelta = T.max
            for k in 0..<n {
                let d = values[i + k] &- values[i + k - 1]
                deltas[k] = d
                if d < minDelta { minDelta = d }
            }
            appendULEB128(zigzag(Int64(minDelta)), to: &out)
            let used = (n + miniblockSize - 1) / miniblockSize
            let widthsAt = out.count
            out.append(contentsOf: repeatElement(0, count: miniblocksPerBlock))
            for m in 0..<used {
                var widest: UInt64 = 0
                for k in 0..<miniblockSize {
                    let at = m * miniblockSize + k
                    // Past the last value: padding, packed as 0.
                    let v = at < n ? UInt64(truncatingIfNeeded: T.Magnitude(truncatingIfNeeded: deltas[at] &- minDelta)) : 0
                    packed[k] = v
                    widest |= v
                }
                let width = UInt64.bitWidth - widest.leadingZeroBitCount
                out[widthsAt + m] = UInt8(width)
                appendBitPacked(packed, width: width, to: &out)
            }
            i += n
        }
    }

    /// 32 values, `width` bits each, LSB first: exactly 4 × `width` bytes.
    private static func appendBitPacked(_ values: [UInt64], width: Int, to out: inout [UInt8]) {
        guard width > 0 else { return }
        var word: UInt64 = 0
        var filled = 0
        for v in values {
            word |= v << UInt64(filled)
            let total = filled + width
            if total >= 64 {
                appendLE(word, bytes: 8, to: &out)
                // The bits of `v` that did not fit (none if it started a fresh word).
                word = filled == 0 ? 0 : v >> UInt64(64 - filled)
                filled = total - 64
            } else {
                filled = total
            }
        }
        appendLE(word, bytes: filled / 8, to: &out)
    }

    private static func appendLE(_ word: UInt64, bytes: Int, to out: inout [UInt8]) {
        for b in 0..<bytes { out.append(UInt8(truncatingIfNeeded: word >> UInt64(8 * b))) }
    }

    static func zigzag(_ v: Int64) -> UInt64 {
        UInt64(bitPattern: (v << 1) ^ (v >> 63))
    }

    /// ULEB128, as the RLE hybrid's run headers.
    @inline(__always)
    private static func appendULEB128(_ value: UInt64, to out: inout [UInt8]) {
        RLEHybridEncoder.appendVarint(value, to: &out)
    }
}
