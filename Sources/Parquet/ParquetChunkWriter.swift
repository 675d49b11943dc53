#if _endian(big)
#error("The Parquet writer copies values in host byte order and needs a little-endian host.")
#endif

import Archive
import PrivateFiles

/// What the footer needs to know about one written column chunk.
struct ParquetChunkInfo {
    var column: ParquetColumn
    var encodings: [Int32]
    var codec: Int32
    var numValues: Int64
    var totalUncompressedSize: Int64
    var totalCompressedSize: Int64
    var dataPageOffset: Int64
    var dictionaryPageOffset: Int64?
    var statistics: ParquetStatistics
    var dataPageCount: Int32
    var dataPageEncoding: Int32

    /// `ColumnChunk` struct with its `ColumnMetaData`.
    func write(_ w: inout ThriftCompactWriter) {
        w.writeStruct { cc in
            cc.field(2, i64: 0)                                               // file_offset (deprecated)
            cc.field(3, struct: { m in                                        // meta_data
                m.field(1, i32: column.type.physicalType)                    // type
                m.field(2, i32List: encodings)                               // encodings
                m.field(3, stringList: [column.name])                        // path_in_schema
                m.field(4, i32: codec)                                       // codec
                m.field(5, i64: numValues)                                   // num_values
                m.field(6, i64: totalUncompressedSize)                       // total_uncompressed_size
                m.field(7, i64: totalCompressedSize)                         // total_compressed_size
                m.field(9, i64: dataPageOffset)                              // data_page_offset
                if let dictionaryPageOffset { m.field(11, i64: dictionaryPageOffset) }
                m.field(12, struct: { s in statistics.writeFields(&s) })     // statistics
                let hasDictionary = dictionaryPageOffset != nil
                m.fieldList(13, of: .struct, count: hasDictionary ? 2 : 1)   // encoding_stats
                if hasDictionary {
                    m.writeStruct { e in
                        e.field(1, i32: ParquetThrift.PageType.dictionaryPage)
                        e.field(2, i32: ParquetThrift.Encoding.plain)
                        e.field(3, i32: 1)
                    }
                }
                m.writeStruct { e in
                    e.field(1, i32: ParquetThrift.PageType.dataPage)
                    e.field(2, i32: dataPageEncoding)
                    e.field(3, i32: dataPageCount)
                }
            })
        }
    }
}

/// Encodes buffered column values into pages and writes them; owns the scratch buffers
/// reused from page to page.
final class ParquetChunkWriter {
    /// Target size of a page's encoded values before compression.
    let pageSizeTarget: Int
    private let compressor: GzipCompressor?
    private let codec: Int32
    private var body: [UInt8] = []
    private var compressed: [UInt8] = []
    private var header = ThriftCompactWriter()

    init(compression: ParquetCompression, pageSizeTarget: Int = 1 << 20) throws {
        self.pageSizeTarget = pageSizeTarget
        self.codec = compression.codec
        self.compressor = compression.gzipLevel > 0 ? try GzipCompressor(level: compression.gzipLevel) : nil
    }

    private struct Totals {
        var uncompressed: Int64 = 0
        var compressed: Int64 = 0
    }

    /// Writes the chunk of `c` (holding `rows` rows) at the file's current offset.
    func writeChunk(_ c: ParquetColumnBuffer, rows: Int, to file: AtomicOutputFile) throws -> ParquetChunkInfo {
        var totals = Totals()
        var dictionaryOffset: Int64?
        let dictionaryEncoded = c.usesDictionary && c.dictionary.count > 0
        var bitWidth = 0
        if dictionaryEncoded {
            dictionaryOffset = file.offset
            bitWidth = RLEHybridEncoder.bitWidth(forMaxValue: UInt64(c.dictionary.count - 1))
            body.removeAll(keepingCapacity: true)
            appendPlainStrings(dictionary: c.dictionary)
            try writePage(to: file, totals: &totals) { h, sizes in
                h.field(1, i32: ParquetThrift.PageType.dictionaryPage)
                sizes(&h)
                h.field(7, struct: { d in                                     // dictionary_page_header
                    d.field(1, i32: Int32(c.dictionary.count))                // num_values
                    d.field(2, i32: ParquetThrift.Encoding.plain)             // encoding
                    d.field(3, bool: false)                                   // is_sorted
                })
            }
        }
        let dataOffset = file.offset
        let deltaEncoded = !dictionaryEncoded && (c.storage == .int32 || c.storage == .int64)
        let valueEncoding = dictionaryEncoded ? ParquetThrift.Encoding.rleDictionary
            : deltaEncoded ? ParquetThrift.Encoding.deltaBinaryPacked : ParquetThrift.Encoding.plain

        // Pages over row ranges; `value` walks the dense values alongside.
        var row = 0
        var value = 0
        var stringByte = 0
        var pages: Int32 = 0
        repeat {
            let (rowEnd, valueEnd) = nextPageEnd(c, fromRow: row, fromValue: value, rows: rows,
                                                 dictionaryEncoded: dictionaryEncoded)
            body.removeAll(keepingCapacity: true)
            if c.isOptional {
                let lengthAt = body.count
                body.parquetAppendLE(UInt32(0))
                c.definitionLevels.withUnsafeBufferPointer { levels in
                    RLEHybridEncoder.encode(UnsafeBufferPointer(rebasing: levels[row..<rowEnd]),
                                            bitWidth: 1, into: &body)
                }
                body.parquetStoreUInt32LE(UInt32(body.count - lengthAt - 4), at: lengthAt)
            }
            if dictionaryEncoded {
                body.append(UInt8(bitWidth))
                c.dictionaryIndices.withUnsafeBufferPointer { idx in
                    RLEHybridEncoder.encode(UnsafeBufferPointer(rebasing: idx[value..<valueEnd]),
                                            bitWidth: bitWidth, into: &body)
                }
            } else if deltaEncoded {
                appendDeltaValues(c, from: value, to: valueEnd)
            } else {
                appendPlainValues(c, from: value, to: valueEnd, stringByte: &stringByte)
            }
            let numValues = Int32(rowEnd - row)
            try writePage(to: file, totals: &totals) { h, sizes in
                h.field(1, i32: ParquetThrift.PageType.dataPage)
                sizes(&h)
                h.field(5, struct: { d in                                     // data_page_header
                    d.field(1, i32: numValues)                                // num_values (nulls included)
                    d.field(2, i32: valueEncoding)                            // encoding
                    d.field(3, i32: ParquetThrift.Encoding.rle)               // definition_level_encoding
                    d.field(4, i32: ParquetThrift.Encoding.rle)               // repetition_level_encoding
                })
            }
            pages += 1
            row = rowEnd
            value = valueEnd
        } while row < rows

        var encodings: [Int32] = [deltaEncoded ? ParquetThrift.Encoding.deltaBinaryPacked : ParquetThrift.Encoding.plain]
        if c.isOptional { encodings.append(ParquetThrift.Encoding.rle) }
        if dictionaryEncoded { encodings.append(ParquetThrift.Encoding.rleDictionary) }
        return ParquetChunkInfo(
            column: c.column, encodings: encodings, codec: codec, numValues: Int64(rows),
            totalUncompressedSize: totals.uncompressed, totalCompressedSize: totals.compressed,
            dataPageOffset: dataOffset, dictionaryPageOffset: dictionaryOffset,
            statistics: ParquetStatistics.compute(c, rows: rows),
            dataPageCount: pages, dataPageEncoding: valueEncoding)
    }

    /// Compresses `body` and writes a page header (built by `fields`, which must call the
    /// sizes writer right after the page type) and the page.
    private func writePage(
        to file: AtomicOutputFile, totals: inout Totals,
        _ fields: (inout ThriftCompactWriter, (inout ThriftCompactWriter) -> Void) -> Void
    ) throws {
        guard body.count <= Int(Int32.max) else {
            throw ParquetError("parquet: a page of \(body.count) bytes is too large")
        }
        let uncompressedSize = body.count
        var payloadSize = uncompressedSize
        if let compressor {
            payloadSize = try body.withUnsafeBytes { try compressor.compress($0, into: &compressed) }
        }
        header.reset()
        header.writeStruct { h in
            fields(&h) { h in
                h.field(2, i32: Int32(uncompressedSize))                      // uncompressed_page_size
                h.field(3, i32: Int32(payloadSize))                           // compressed_page_size
            }
        }
        try file.write(header.bytes)
        if compressor != nil {
            try file.write(compressed, count: payloadSize)
        } else {
            try file.write(body)
        }
        totals.uncompressed += Int64(header.bytes.count + uncompressedSize)
        totals.compressed += Int64(header.bytes.count + payloadSize)
    }

    /// The end of the page starting at `row`: at most `pageSizeTarget` bytes of values
    /// (estimated for dictionary indices), at least one row.
    private func nextPageEnd(_ c: ParquetColumnBuffer, fromRow row: Int, fromValue value: Int, rows: Int,
                             dictionaryEncoded: Bool) -> (row: Int, value: Int) {
        let width: Int
        switch c.storage {
        case .int32: width = 4
        case .int64, .double: width = 8
        case .boolean: width = 1
        case .bytes: width = dictionaryEncoded ? 2 : 0
        }
        if width > 0 {
            let rowEnd = min(rows, row + max(1, pageSizeTarget / width))
            guard c.isOptional else { return (rowEnd, rowEnd) }
            var defined = 0
            c.definitionLevels.withUnsafeBufferPointer { levels in
                for i in row..<rowEnd { defined &+= Int(levels[i]) }
            }
            return (rowEnd, value + defined)
        }
        // PLAIN strings: walk the rows, adding 4 + length per value.
        var r = row, v = value, bytes = 0
        c.stringLengths.withUnsafeBufferPointer { lengths in
            c.definitionLevels.withUnsafeBufferPointer { levels in
                while r < rows && (r == row || bytes < pageSizeTarget) {
                    if !c.isOptional || levels[r] != 0 {
                        bytes &+= 4 &+ Int(lengths[v])
                        v &+= 1
                    }
                    r &+= 1
                }
            }
        }
        return (r, v)
    }

    /// Integers (timestamps, dates, counts) as DELTA_BINARY_PACKED.
    private func appendDeltaValues(_ c: ParquetColumnBuffer, from: Int, to: Int) {
        switch c.storage {
        case .int32: c.int32s.withUnsafeBufferPointer { DeltaBinaryPackedEncoder.encode(UnsafeBufferPointer(rebasing: $0[from..<to]), into: &body) }
        case .int64: c.int64s.withUnsafeBufferPointer { DeltaBinaryPackedEncoder.encode(UnsafeBufferPointer(rebasing: $0[from..<to]), into: &body) }
        default: preconditionFailure("delta encoding is for integer columns")
        }
    }

    private func appendPlainValues(_ c: ParquetColumnBuffer, from: Int, to: Int, stringByte: inout Int) {
        switch c.storage {
        case .int32: c.int32s.withUnsafeBytes { body.append(contentsOf: $0[(from * 4)..<(to * 4)]) }
        case .int64: c.int64s.withUnsafeBytes { body.append(contentsOf: $0[(from * 8)..<(to * 8)]) }
        case .double: c.doubles.withUnsafeBytes { body.append(contentsOf: $0[(from * 8)..<(to * 8)]) }
        case .boolean:
            // Bit-packed, LSB first, padded to a whole byte.
            var acc: UInt8 = 0
            var bit: UInt8 = 0
            for i in from..<to {
                acc |= c.booleans[i] << bit
                bit &+= 1
                if bit == 8 {
                    body.append(acc)
                    acc = 0
                    bit = 0
                }
            }
            if bit > 0 { body.append(acc) }
        case .bytes:
            var total = 0
            for i in from..<to { total &+= Int(c.stringLengths[i]) }
            let start = body.count
            body.append(contentsOf: repeatElement(0, count: total + 4 * (to - from)))
            var src = stringByte
            c.stringLengths.withUnsafeBufferPointer { lengths in
                c.stringBytes.withUnsafeBytes { bytes in
                    body.withUnsafeMutableBytes { out in
                        var at = start
                        for i in from..<to {
                            let n = Int(lengths[i])
                            out.storeBytes(of: UInt32(n).littleEndian, toByteOffset: at, as: UInt32.self)
                            at &+= 4
                            if n > 0 {
                                (out.baseAddress! + at).copyMemory(from: bytes.baseAddress! + src, byteCount: n)
                            }
                            at &+= n
                            src &+= n
                        }
                    }
                }
            }
            stringByte = src
        }
    }

    /// The dictionary page body: every entry PLAIN (4-byte length, bytes).
    private func appendPlainStrings(dictionary d: ByteStringDictionary) {
        body.reserveCapacity(d.byteCount + 4 * d.count)
        d.bytes.withUnsafeBytes { all in
            for i in 0..<d.count {
                let s = d.offsets[i], e = d.offsets[i + 1]
                body.parquetAppendLE(UInt32(e - s))
                body.append(contentsOf: all[s..<e])
            }
        }
    }
}
