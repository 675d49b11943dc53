import Foundation
import Archive
@testable import Parquet
import XCTest
import TestSupport

/// The `created_by` the tests' files carry: the writer writes whatever its caller names.
let parquetTestCreator = "ParquetTests 1.0"

/// The Parquet writer: encoders checked byte for byte, and whole files read back by pyarrow
/// and DuckDB (through the tests' Python, TestTools.python: `make venv` installs both).
final class ParquetWriterTests: XCTestCase {

    // MARK: Encoders

    func testThriftCompactEncoding() {
        var w = ThriftCompactWriter()
        w.writeStruct { s in
            s.field(1, i32: 1)                    // delta 1, i32: 0x15, zigzag(1) = 2
            s.field(3, i64: -1)                   // delta 2, i64: 0x26, zigzag(-1) = 1
            s.field(4, string: "ab")              // delta 1, binary: 0x18, len 2
            s.field(5, bool: true)                // delta 1, true: 0x11
            s.field(6, bool: false)               // delta 1, false: 0x12
            s.field(30, i32: 300)                 // delta 24 > 15: 0x05, zigzag id 60, zigzag(300) = 600
            s.field(31, struct: { t in            // delta 1, struct: 0x1C
                t.field(1, i16: -2)               // 0x14, zigzag(-2) = 3
            })                                    // stop 0
            s.fieldList(32, of: .i32, count: 2)   // 0x19, list header 0x25
            s.writeZigzag(7)
            s.writeZigzag(-7)
            s.fieldList(33, of: .binary, count: 15)  // 0x19, long list header 0xF8, varint 15
            for _ in 0..<15 { s.writeBinary([UInt8]()) }
        }
        XCTAssertEqual(w.bytes, [0x15, 0x02, 0x26, 0x01, 0x18, 0x02, 0x61, 0x62, 0x11, 0x12,
                                 0x05, 0x3C, 0xD8, 0x04, 0x1C, 0x14, 0x03, 0x00, 0x19, 0x25, 0x0E, 0x0D,
                                 0x19, 0xF8, 0x0F] + [UInt8](repeating: 0, count: 15) + [0x00])
    }

    func testRLEHybridEncoding() {
        func encode(_ values: [UInt32], _ width: Int) -> [UInt8] {
            var out: [UInt8] = []
            values.withUnsafeBufferPointer { RLEHybridEncoder.encode($0, bitWidth: width, into: &out) }
            return out
        }
        // 100 ones: one RLE run, header 100 << 1 = 200 (varint C8 01), value 1.
        XCTAssertEqual(encode(Array(repeating: 1, count: 100), 1), [0xC8, 0x01, 0x01])
        // The example of Encodings.md: 0…7 at bit width 3, one bit-packed group.
        XCTAssertEqual(encode([0, 1, 2, 3, 4, 5, 6, 7], 3), [0x03, 0x88, 0xC6, 0xFA])
        // 3 values: one padded group.
        XCTAssertEqual(encode([1, 0, 1], 1), [0x03, 0x05])
        // A short literal part, then a run: the run starting at the group boundary is RLE.
        XCTAssertEqual(encode([1, 2, 3, 4, 5, 6, 7, 0] + Array(repeating: 9, count: 10), 4),
                       [0x03, 0x21, 0x43, 0x65, 0x07, 0x14, 0x09])
        // Wide values use ceil(width / 8) bytes in RLE runs.
        XCTAssertEqual(encode(Array(repeating: 0x1234, count: 8), 13), [0x10, 0x34, 0x12])
        XCTAssertEqual(RLEHybridEncoder.bitWidth(forMaxValue: 0), 1)
        XCTAssertEqual(RLEHybridEncoder.bitWidth(forMaxValue: 1), 1)
        XCTAssertEqual(RLEHybridEncoder.bitWidth(forMaxValue: 2), 2)
        XCTAssertEqual(RLEHybridEncoder.bitWidth(forMaxValue: 65_535), 16)
    }

    func testRLEHybridRoundTrip() {
        var rng: UInt64 = 42
        func next(_ bound: Int) -> Int {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((rng >> 33) % UInt64(bound))
        }
        for _ in 0..<300 {
            let width = 1 + next(32)
            let maxValue = width == 32 ? UInt64(UInt32.max) : (UInt64(1) << width) - 1
            var values: [UInt32] = []
            let count = next(3000)
            while values.count < count {
                let v = UInt32(UInt64(next(Int.max)) % (maxValue + 1))
                let run = [1, 1, 2, 7, 8, 9, 15, 16, 64, 700][next(10)]
                values.append(contentsOf: repeatElement(v, count: min(run, count - values.count)))
            }
            var out: [UInt8] = []
            values.withUnsafeBufferPointer { RLEHybridEncoder.encode($0, bitWidth: width, into: &out) }
            XCTAssertEqual(decodeRLEHybrid(out, bitWidth: width, count: values.count), values, "bit width \(width)")
        }
    }

    /// A reference decoder (Encodings.md) that also checks every byte is consumed.
    private func decodeRLEHybrid(_ bytes: [UInt8], bitWidth: Int, count: Int) -> [UInt32]? {
        var out: [UInt32] = []
        var p = 0
        while out.count < count {
            var header: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard p < bytes.count else { return nil }
                let b = bytes[p]
                p += 1
                header |= UInt64(b & 0x7F) << shift
                shift += 7
                if b & 0x80 == 0 { break }
            }
            if header & 1 == 1 {
                let n = Int(header >> 1) * 8
                guard p + n * bitWidth / 8 <= bytes.count else { return nil }
                var bit = 0
                for _ in 0..<n {
                    var v: UInt64 = 0
                    for k in 0..<bitWidth {
                        let at = p * 8 + bit + k
                        v |= UInt64((bytes[at / 8] >> UInt8(at % 8)) & 1) << UInt64(k)
                    }
                    bit += bitWidth
                    if out.count < count { out.append(UInt32(v)) }
                }
                p += n * bitWidth / 8
            } else {
                var v: UInt64 = 0
                for k in 0..<((bitWidth + 7) / 8) {
                    guard p < bytes.count else { return nil }
                    v |= UInt64(bytes[p]) << UInt64(8 * k)
                    p += 1
                }
                out.append(contentsOf: repeatElement(UInt32(v), count: Int(header >> 1)))
            }
        }
        return p == bytes.count && out.count == count ? out : nil
    }

    func testDictionaryFindsEqualBytes() {
        var d = ByteStringDictionary()
        func index(_ s: String) -> UInt32? {
            Array(s.utf8).withUnsafeBytes { d.index(of: $0, maxEntries: 5000, maxBytes: 1 << 20) }
        }
        var expected: [String: UInt32] = [:]
        for i in 0..<3000 {
            let s = i % 3 == 0 ? "" + String(repeating: "x", count: i % 40) + "\(i / 3)" : "HKQuantityType\(i % 1500)"
            let got = index(s)
            if let e = expected[s] { XCTAssertEqual(got, e) } else { expected[s] = got }
        }
        XCTAssertEqual(d.count, expected.count)
        let before = d.count
        XCTAssertEqual(index(""), UInt32(before))      // the empty string is an entry like any other
        XCTAssertEqual(index(""), UInt32(before))
        XCTAssertEqual(d.count, before + 1)
        // Taking back the last entry (a failed row) leaves the others findable.
        XCTAssertEqual(index("fresh"), UInt32(before + 1))
        d.removeLastEntry()
        XCTAssertEqual(d.count, before + 1)
        XCTAssertEqual(index(""), UInt32(before))
        for (s, i) in expected { XCTAssertEqual(index(s), i) }
        XCTAssertEqual(index("other"), UInt32(before + 1))
        XCTAssertEqual(index("fresh"), UInt32(before + 2))
    }

    func testGzipHasGzipWrapper() throws {
        let gz = try GzipCompressor(level: 1)
        var out: [UInt8] = []
        let input = Array(repeating: UInt8(ascii: "a"), count: 10_000)
        let n = try input.withUnsafeBytes { try gz.compress($0, into: &out) }
        XCTAssertEqual(Array(out[0..<3]), [0x1F, 0x8B, 0x08])
        XCTAssertLessThan(n, 200)
        let m = try input.withUnsafeBytes { try gz.compress($0, into: &out) }   // the stream is reusable
        XCTAssertEqual(m, n)
    }

    // MARK: File handling

    func testAtomicOutputModeAndAbort() throws {
        let dir = try makeTemporaryDirectory()
        let path = dir + "/t.parquet"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let tmp = dir + "/.t.parquet.tmp-\(ProcessInfo.processInfo.processIdentifier)"

        let w = try ParquetWriter(path: path, createdBy: parquetTestCreator, columns: [ParquetColumn("a", .int64)])
        try w.appendRow { r in r.int64(0, 1) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old")
        w.abort()
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old")
        XCTAssertThrowsError(try w.appendRow { r in r.int64(0, 2) })
        XCTAssertThrowsError(try w.close())

        do {
            let dropped = try ParquetWriter(path: path, createdBy: parquetTestCreator, columns: [ParquetColumn("a", .int64)])
            try dropped.appendRow { r in r.int64(0, 1) }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp), "a discarded writer removes its temporary file")

        let w2 = try ParquetWriter(path: path, createdBy: parquetTestCreator, columns: [ParquetColumn("a", .int64)])
        try w2.appendRow { r in r.int64(0, 1) }
        try w2.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(Array(bytes.prefix(4)), Array("PAR1".utf8))
        XCTAssertEqual(Array(bytes.suffix(4)), Array("PAR1".utf8))
        XCTAssertThrowsError(try w2.close())

        // Aborting from inside a row.
        let w3 = try ParquetWriter(path: path, createdBy: parquetTestCreator, columns: [ParquetColumn("a", .int64)])
        XCTAssertThrowsError(try w3.appendRow { r in r.int64(0, 1); w3.abort() })
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp))
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(4)), Array("PAR1".utf8))

        XCTAssertThrowsError(try ParquetWriter(path: dir + "/missing/x.parquet", createdBy: parquetTestCreator, columns: [ParquetColumn("a", .int64)]))
        XCTAssertThrowsError(try ParquetWriter(path: dir + "/y.parquet", createdBy: parquetTestCreator, columns: []))
        XCTAssertThrowsError(try ParquetWriter(path: dir + "/y.parquet", createdBy: parquetTestCreator,
                                               columns: [ParquetColumn("a", .int64), ParquetColumn("a", .double)]))
        XCTAssertThrowsError(try ParquetWriter(path: dir + "/y.parquet", createdBy: parquetTestCreator,
                                               columns: [ParquetColumn("a", .int64, dictionary: true)]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/y.parquet"))
    }

    func testBadRowsAreRolledBack() throws {
        let dir = try makeTemporaryDirectory()
        let path = dir + "/rollback.parquet"
        let columns = [ParquetColumn("id", .int64), ParquetColumn("name", .string, optional: true, dictionary: true),
                       ParquetColumn("note", .string, optional: true), ParquetColumn("x", .double)]
        let w = try ParquetWriter(path: path, createdBy: parquetTestCreator, columns: columns, compression: .none)
        try w.appendRow { r in r.int64(0, 1); r.string(1, "a"); r.string(2, "n1"); r.double(3, 1.5) }
        // Type mismatch, set twice, required missing, null in a required column, bad index, a throwing body.
        XCTAssertThrowsError(try w.appendRow { r in r.int64(0, 2); r.string(1, "b"); r.string(2, "n2"); r.int64(3, 1) })
        XCTAssertThrowsError(try w.appendRow { r in r.int64(0, 2); r.string(1, "b"); r.string(1, "c"); r.double(3, 1) })
        XCTAssertThrowsError(try w.appendRow { r in r.int64(0, 2); r.string(1, "b"); r.string(2, "n2") })
        XCTAssertThrowsError(try w.appendRow { r in r.null(0); r.double(3, 1) })
        XCTAssertThrowsError(try w.appendRow { r in r.int64(0, 2); r.double(3, 1); r.int64(9, 1) })
        struct Boom: Error {}
        XCTAssertThrowsError(try w.appendRow { r in r.int64(0, 2); r.string(2, "n2"); throw Boom() })
        XCTAssertThrowsError(try w.appendRow([.int64(1)]))
        XCTAssertThrowsError(try w.appendRow { r in r.int64(0, 2); r.double(3, 1); try w.appendRow { _ in } })
        XCTAssertThrowsError(try w.appendRow { r in r.int64(0, 2); r.double(3, 1); try w.close() })
        try w.appendRow { r in r.int64(0, 3); r.double(3, 2.5) }
        XCTAssertEqual(w.rowCount, 2)
        try w.close()

        let report = try readBack(path)
        try assertTable(report, columns: columns, rows: [
            [.int64(1), .string("a"), .string("n1"), .double(1.5)],
            [.int64(3), .null, .null, .double(2.5)],
        ])
    }

    // MARK: Read back by pyarrow and DuckDB

    func testEveryTypeGzipAndUncompressed() throws {
        let columns = [
            ParquetColumn("i32", .int32),
            ParquetColumn("i64", .int64),
            ParquetColumn("f64", .double),
            ParquetColumn("flag", .boolean),
            ParquetColumn("text", .string),
            ParquetColumn("day", .date),
            ParquetColumn("at", .timestampMicrosUTC),
            ParquetColumn("o_i32", .int32, optional: true),
            ParquetColumn("o_i64", .int64, optional: true),
            ParquetColumn("o_f64", .double, optional: true),
            ParquetColumn("o_flag", .boolean, optional: true),
            ParquetColumn("o_text", .string, optional: true),
            ParquetColumn("o_day", .date, optional: true),
            ParquetColumn("o_at", .timestampMicrosUTC, optional: true),
            ParquetColumn("kind", .string, dictionary: true),
            ParquetColumn("o_kind", .string, optional: true, dictionary: true),
            ParquetColumn("all_null", .string, optional: true, dictionary: true),
        ]
        let texts = ["", "a", "Zürich", "日本語テキスト", "emoji 🫀❤️‍🔥", "tab\tnew\nline \"quoted\" \\", "\u{0}nul",
                     String(repeating: "long ", count: 30), "ä", "a\u{301}", "z"]
        let doubles: [Double] = [0, -0.0, 1.5, -2.25, .pi, Double(bitPattern: 1) /* smallest subnormal */,
                                 .greatestFiniteMagnitude, -.infinity, .infinity, 9_007_199_254_740_992, 0.1, 72, .nan]
        var rows: [[ParquetValue]] = []
        for i in 0..<200 {
            let n = Int64(i)
            let extreme: Int64 = i == 3 ? .min : i == 4 ? .max : n * 1_000_003 - 50_000
            let day = epochDay(2024, 1, 1) + Int32(i * 37 - 4000)
            let at: Int64 = i == 5 ? -1 : 1_704_882_600_000_000 + n * 1_234_567
            rows.append([
                .int32(i == 7 ? .min : i == 8 ? .max : Int32(i) - 100),
                .int64(extreme),
                .double(doubles[i % doubles.count]),
                .boolean(i % 3 == 0),
                .string(texts[i % texts.count]),
                .date(daysSinceEpoch: day),
                .timestamp(microsecondsSinceEpoch: at),
                i % 4 == 0 ? .null : .int32(Int32(i)),
                i % 5 == 1 ? .null : .int64(-n),
                i % 2 == 0 ? .null : .double(Double(i) / 7),
                i % 3 == 2 ? .null : .boolean(i % 2 == 0),
                i % 6 == 0 ? .null : .string(texts[(i * 7) % texts.count]),
                i < 190 ? .null : .date(daysSinceEpoch: day),
                i % 10 == 9 ? .null : .timestamp(microsecondsSinceEpoch: at),
                .string(["HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierStepCount", "Ω"][i % 3]),
                i % 7 == 3 ? .null : .string(["count/min", "count", "kg", "🫀"][i % 4]),
                .null,
            ])
        }
        for compression in [ParquetCompression.gzip, .none, .gzip(level: 9)] {
            let path = try makeTemporaryDirectory() + "/types.parquet"
            let w = try ParquetWriter(path: path, createdBy: parquetTestCreator, columns: columns, compression: compression,
                                      keyValueMetadata: ["healthetl.table": "types"])
            let report = try writeAndReadBack(w, path, columns: columns, rows: rows)
            let expectedCodec = compression == .none ? "UNCOMPRESSED" : "GZIP"
            XCTAssertEqual(report.pyarrow.row_groups.count, 1)
            for (j, c) in report.pyarrow.row_groups[0].columns.enumerated() {
                XCTAssertEqual(c.compression, expectedCodec)
                let dictionaryExpected = columns[j].dictionary && columns[j].name != "all_null"
                XCTAssertEqual(c.has_dictionary_page, dictionaryExpected, columns[j].name)
                if dictionaryExpected { XCTAssertTrue(c.encodings.contains("RLE_DICTIONARY"), columns[j].name) }
            }
            XCTAssertEqual(report.pyarrow.metadata["healthetl.table"], "types")
        }
    }

    func testMultipleRowGroupsPagesAndDictionaryFallback() throws {
        let columns = [
            ParquetColumn("start", .timestampMicrosUTC),
            ParquetColumn("type", .string, dictionary: true),
            ParquetColumn("unique", .string, optional: true, dictionary: true),
            ParquetColumn("value", .double, optional: true),
            ParquetColumn("note", .string, optional: true),
            ParquetColumn("day", .date),
            ParquetColumn("sparse", .string, optional: true, dictionary: true),
            ParquetColumn("wide", .string, dictionary: true),
        ]
        var rows: [[ParquetValue]] = []
        for i in 0..<25_000 {
            rows.append([
                .timestamp(microsecondsSinceEpoch: (1_700_000_000 + Int64(i) * 60) * 1_000_000),
                .string("HKQuantityTypeIdentifier\(["HeartRate", "StepCount", "BodyMass"][(i / 1000) % 3])"),
                i % 11 == 0 ? .null : .string("id-\(i)-ü"),
                i % 13 == 0 ? .null : .double(Double(i % 500) * 0.25),
                i % 2 == 0 ? .null : .string(String(repeating: "n", count: i % 50)),
                .date(daysSinceEpoch: epochDay(2023, 11, 14) + Int32(i / 1440)),
                i % 10_000 < 2_000 ? .string(i % 3 == 0 ? "x" : "y") : .null,  // all-null pages
                .string((i / 50) % 2 == 0 ? "w-run" : "w\((i * 7919) % 3001)"),   // 12-bit indices
            ])
        }
        let path = try makeTemporaryDirectory() + "/groups.parquet"
        // Small row groups and pages; a dictionary limit the "unique" column outgrows in the
        // first row group (it then stays PLAIN), while "type" keeps its dictionary.
        let w = try ParquetWriter(path: path, createdBy: parquetTestCreator, columns: columns, rowGroupRows: 10_000, compression: .gzip,
                                  keyValueMetadata: [:], pageSizeTarget: 4096, maxDictionaryEntries: 5000)
        let report = try writeAndReadBack(w, path, columns: columns, rows: rows)
        XCTAssertEqual(report.pyarrow.row_groups.map(\.num_rows), [10_000, 10_000, 5_000])
        for g in report.pyarrow.row_groups {
            XCTAssertTrue(g.columns[1].has_dictionary_page)
            XCTAssertFalse(g.columns[2].has_dictionary_page)
            XCTAssertFalse(g.columns[2].encodings.contains("RLE_DICTIONARY"))
            XCTAssertTrue(g.columns[6].has_dictionary_page)
            XCTAssertTrue(g.columns[7].has_dictionary_page)
        }
    }

    /// Repeated strings (`repeatedString`: the caller vouches the value equals the column's
    /// last) make the same file as strings looked up one by one, across row groups, nulls,
    /// and a column that overflows its dictionary and falls back to PLAIN.
    func testRepeatedStringsMakeTheSameFile() throws {
        let dir = try temporaryFolder(self).path
        let columns = [ParquetColumn("a", .string, optional: true, dictionary: true), ParquetColumn("b", .string, dictionary: true)]
        var expected: [[String?]] = [[], []]
        func write(_ name: String, repeating: Bool) throws -> Data {
            let path = dir + "/" + name
            expected = [[], []]
            let w = try ParquetWriter(path: path, createdBy: parquetTestCreator, columns: columns, rowGroupRows: 7, compression: .gzip,
                                      keyValueMetadata: [:], pageSizeTarget: 64, maxDictionaryEntries: 5)
            var last: [String?] = [nil, nil]
            for i in 0..<60 {
                let a: String? = i % 9 == 4 ? nil : "source \(i / 4)"        // runs of 4, a null now and then
                let b = i < 30 ? "unit \(i / 10)" : "varied \(i)"           // overflows the dictionary later
                try w.appendRow { r in
                    if let a {
                        repeating && last[0] == a ? r.repeatedString(0, a) : r.string(0, a)
                    }
                    repeating && last[1] == b ? r.repeatedString(1, b) : r.string(1, b)
                }
                if let a { last[0] = a }
                last[1] = b
                expected[0].append(a)
                expected[1].append(b)
            }
            try w.close()
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        XCTAssertEqual(try write("repeated.parquet", repeating: true), try write("looked-up.parquet", repeating: false))
        let report = try readBack(dir + "/repeated.parquet")
        XCTAssertEqual(report.pyarrow.columns, expected)
        XCTAssertEqual(report.pyarrow.row_groups.count, 9)
    }

    /// Row groups written on the writer's own thread while the next fills make the same file,
    /// byte for byte, as groups written in place: many groups, repeats across a group's end,
    /// nulls, a dictionary that overflows, numbers. Aborted with a group in flight, nothing is left.
    func testRowGroupsWrittenInBackgroundMakeTheSameFile() throws {
        let dir = try temporaryFolder(self).path
        let columns = [ParquetColumn("a", .string, optional: true, dictionary: true), ParquetColumn("b", .string, dictionary: true),
                       ParquetColumn("n", .int64), ParquetColumn("x", .double, optional: true)]
        func write(_ name: String, background: Bool, rows: Int = 200) throws -> (ParquetWriter, String) {
            let path = dir + "/" + name
            let w = try ParquetWriter(path: path, createdBy: parquetTestCreator, columns: columns, rowGroupRows: 7, compression: .gzip, keyValueMetadata: [:],
                                      pageSizeTarget: 64, maxDictionaryEntries: 5, writesGroupsInBackground: background)
            var last: [String?] = [nil, nil]
            for i in 0..<rows {
                let a: String? = i % 9 == 4 ? nil : "source \(i / 4)"
                let b = i < 100 ? "unit \(i / 10)" : "varied \(i)"
                try w.appendRow { r in
                    if let a { last[0] == a ? r.repeatedString(0, a) : r.string(0, a) }
                    last[1] == b ? r.repeatedString(1, b) : r.string(1, b)
                    r.int64(2, Int64(i * i))
                    if i % 5 != 0 { r.double(3, Double(i) / 7) }
                }
                if let a { last[0] = a }
                last[1] = b
            }
            return (w, path)
        }
        let (inPlace, inPlacePath) = try write("in-place.parquet", background: false)
        try inPlace.close()
        let (background, backgroundPath) = try write("background.parquet", background: true)
        try background.close()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: backgroundPath)),
                       try Data(contentsOf: URL(fileURLWithPath: inPlacePath)))
        let report = try readBack(backgroundPath)
        XCTAssertEqual(report.pyarrow.row_groups.count, 29)
        XCTAssertEqual(report.pyarrow.columns[2], (0..<200).map { String($0 * $0) })
        XCTAssertEqual(report.pyarrow.columns[3].compactMap { $0 }.count, 160)

        let (aborted, abortedPath) = try write("aborted.parquet", background: true, rows: 30)
        aborted.abort()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains("aborted") }, [])
        XCTAssertThrowsError(try aborted.close())
        XCTAssertFalse(FileManager.default.fileExists(atPath: abortedPath))
    }

    func testDeltaBinaryPackedEncoding() {
        func encode(_ values: [Int64]) -> [UInt8] {
            var out: [UInt8] = []
            values.withUnsafeBufferPointer { DeltaBinaryPackedEncoder.encode($0, into: &out) }
            return out
        }
        let header: [UInt8] = [0x80, 0x01, 0x04]   // 128 values per block, 4 miniblocks
        // Encodings.md, example 1: equal deltas of 1 need 0 bits.
        XCTAssertEqual(encode([1, 2, 3, 4, 5]), header + [0x05, 0x02, 0x02, 0, 0, 0, 0])
        // Example 2: deltas −2 −2 −2 1 1 1 1, min −2, so 0 0 0 3 3 3 3 at 2 bits, padded to 32.
        XCTAssertEqual(encode([7, 5, 3, 1, 2, 3, 4, 5]),
                       header + [0x08, 0x0E, 0x03, 0x02, 0, 0, 0, 0xC0, 0x3F] + [UInt8](repeating: 0, count: 6))
        XCTAssertEqual(encode([]), header + [0x00, 0x00])
        XCTAssertEqual(encode([-3]), header + [0x01, 0x05])
        // 0, max, −1: deltas max and min (wrapped), so 64-bit miniblocks.
        XCTAssertEqual(encode([0, .max, -1]).count, header.count + 1 + 1 + 10 + 4 + 32 * 8)
        // A second block.
        XCTAssertEqual(encode(Array(0..<200)).count, header.count + 2 + 1 + 2 * (1 + 4))
    }

    func testDeltaEncodedIntegersReadBack() throws {
        let columns = [
            ParquetColumn("start", .timestampMicrosUTC),
            ParquetColumn("count", .int64, optional: true),
            ParquetColumn("small", .int32, optional: true),
            ParquetColumn("day", .date),
        ]
        var rng: UInt64 = 7
        func next() -> UInt64 { rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return rng >> 11 }
        var rows: [[ParquetValue]] = []
        for i in 0..<5_003 {
            let count: ParquetValue = switch i % 7 {
            case 0: .null
            case 1: .int64(i % 2 == 0 ? .min : .max)           // deltas that wrap
            case 2: .int64(Int64(bitPattern: next() << 11))   // any 64-bit value
            default: .int64(Int64(i / 300))                   // runs: 0-bit miniblocks
            }
            let small: ParquetValue = i % 5 == 0 ? .null
                : .int32(i % 3 == 0 ? (i % 2 == 0 ? .min : .max) : Int32(truncatingIfNeeded: Int64(next()) - (1 << 51)))
            rows.append([.timestamp(microsecondsSinceEpoch: 1_700_000_000_000_000 + Int64(i) * 61_000_000 - Int64(next() % 5_000_000)),
                         count, small, .date(daysSinceEpoch: epochDay(1969, 12, 1) + Int32(i / 100))])
        }
        let path = try makeTemporaryDirectory() + "/delta.parquet"
        // Pages of a few hundred values: blocks and miniblocks end mid-page and mid-way.
        let w = try ParquetWriter(path: path, createdBy: parquetTestCreator, columns: columns, rowGroupRows: 2_000, compression: .gzip,
                                  keyValueMetadata: [:], pageSizeTarget: 3_000, maxDictionaryEntries: 1000)
        let report = try writeAndReadBack(w, path, columns: columns, rows: rows)
        for g in report.pyarrow.row_groups {
            for c in g.columns { XCTAssertTrue(c.encodings.contains("DELTA_BINARY_PACKED"), "\(c.encodings)") }
        }
    }

    func testEmptyFileAndValueArrays() throws {
        let columns = [ParquetColumn("a", .int64), ParquetColumn("b", .string, optional: true, dictionary: true)]
        let empty = try makeTemporaryDirectory() + "/empty.parquet"
        try ParquetWriter(path: empty, createdBy: parquetTestCreator, columns: columns).close()
        let report = try readBack(empty)
        try assertTable(report, columns: columns, rows: [])

        let path = try makeTemporaryDirectory() + "/values.parquet"
        let w = try ParquetWriter(path: path, createdBy: parquetTestCreator, columns: columns, rowGroupRows: 1)
        let rows: [[ParquetValue]] = [[.int64(5), .string("x")], [.int64(6), .null], [.int64(7), .string("x")],
                                      [.int64(8), .string(String(repeating: "y", count: 65))]]
        for row in rows { try w.appendRow(row) }
        try w.close()
        let r2 = try readBack(path)
        try assertTable(r2, columns: columns, rows: rows)
        XCTAssertEqual(r2.pyarrow.row_groups.count, 4)
        XCTAssertFalse(r2.pyarrow.row_groups[3].columns[1].has_min_max, "no statistics for strings over 64 bytes")
    }

    // MARK: Helpers

    /// Writes `rows` through `w` into `path`, reads the file back with pyarrow and DuckDB and
    /// checks every value against `rows`; the report is for the test's own checks.
    private func writeAndReadBack(_ w: ParquetWriter, _ path: String, columns: [ParquetColumn], rows: [[ParquetValue]],
                                  file: StaticString = #filePath, line: UInt = #line) throws -> ReadBack {
        for row in rows { try appendTyped(w, row) }
        try w.close()
        let report = try readBack(path)
        try assertTable(report, columns: columns, rows: rows, file: file, line: line)
        return report
    }

    private func appendTyped(_ w: ParquetWriter, _ row: [ParquetValue]) throws {
        try w.appendRow { r in
            for (i, v) in row.enumerated() {
                switch v {
                case .int32(let x): r.int32(i, x)
                case .int64(let x): r.int64(i, x)
                case .double(let x): r.double(i, x)
                case .boolean(let x): r.boolean(i, x)
                case .string(let x):
                    if i % 2 == 0 {
                        r.string(i, x)
                    } else {
                        Array(x.utf8).withUnsafeBytes { r.string(i, utf8: $0) }
                    }
                case .date(let x): r.date(i, daysSinceEpoch: Optional(x))
                case .timestamp(let x): r.timestamp(i, microsecondsSinceEpoch: Optional(x))
                case .null: if i % 2 == 0 { r.null(i) }   // unset optional columns are null too
                }
            }
        }
    }

    private func makeTemporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parquet-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    /// Values as the Python side prints them: integers in decimal, doubles as the decimal
    /// of their bit pattern (exact, NaN and -0 included), dates as days since 1970-01-01,
    /// timestamps as microseconds since 1970-01-01T00:00:00Z.
    private func canonical(_ v: ParquetValue) -> String? {
        switch v {
        case .int32(let x): String(x)
        case .int64(let x): String(x)
        case .double(let x): String(Int64(bitPattern: x.bitPattern))
        case .boolean(let x): x ? "true" : "false"
        case .string(let x): x
        case .date(let x): String(x)
        case .timestamp(let x): String(x)
        case .null: nil
        }
    }

    private static let arrowTypes: [ParquetType: String] = [
        .int32: "int32", .int64: "int64", .double: "double", .boolean: "bool", .string: "string",
        .date: "date32[day]", .timestampMicrosUTC: "timestamp[us, tz=UTC]",
    ]
    private static let duckTypes: [ParquetType: String] = [
        .int32: "INTEGER", .int64: "BIGINT", .double: "DOUBLE", .boolean: "BOOLEAN", .string: "VARCHAR",
        .date: "DATE", .timestampMicrosUTC: "TIMESTAMP WITH TIME ZONE",
    ]
    private static let physicalTypes: [ParquetType: String] = [
        .int32: "INT32", .int64: "INT64", .double: "DOUBLE", .boolean: "BOOLEAN", .string: "BYTE_ARRAY",
        .date: "INT32", .timestampMicrosUTC: "INT64",
    ]

    /// Compares what pyarrow and DuckDB read with what was written, exactly, and the
    /// statistics of every column chunk with those of the rows it holds.
    private func assertTable(_ report: ReadBack, columns: [ParquetColumn], rows: [[ParquetValue]],
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let pa = report.pyarrow
        XCTAssertEqual(pa.created_by, parquetTestCreator, file: file, line: line)   // the caller's, never a default
        XCTAssertEqual(pa.num_rows, rows.count, file: file, line: line)
        XCTAssertEqual(pa.schema.map { $0[0] }, columns.map(\.name), file: file, line: line)
        XCTAssertEqual(pa.schema.map { $0[1] }, columns.map { Self.arrowTypes[$0.type]! }, file: file, line: line)
        XCTAssertEqual(pa.schema.map { $0[2] }, columns.map { $0.optional ? "true" : "false" }, file: file, line: line)
        XCTAssertEqual(report.duckdb.types.map { $0[0] }, columns.map(\.name), file: file, line: line)
        XCTAssertEqual(report.duckdb.types.map { $0[1] }, columns.map { Self.duckTypes[$0.type]! },
                       file: file, line: line)
        for (j, c) in columns.enumerated() {
            let expected = rows.map { canonical($0[j]) }
            XCTAssertEqual(pa.columns[j], expected, "pyarrow, column \(c.name)", file: file, line: line)
            XCTAssertEqual(report.duckdb.columns[j], expected, "duckdb, column \(c.name)", file: file, line: line)
        }
        var first = 0
        XCTAssertEqual(pa.row_groups.reduce(0) { $0 + $1.num_rows }, rows.count, file: file, line: line)
        for (g, group) in pa.row_groups.enumerated() {
            let slice = rows[first..<(first + group.num_rows)]
            first += group.num_rows
            for (j, c) in columns.enumerated() {
                let st = group.columns[j]
                let values = slice.map { $0[j] }.filter { $0 != .null }
                let what = "row group \(g), column \(c.name)"
                XCTAssertEqual(st.physical_type, Self.physicalTypes[c.type]!, what, file: file, line: line)
                XCTAssertEqual(st.num_values, group.num_rows, what, file: file, line: line)
                XCTAssertEqual(st.null_count, slice.count - values.count, what, file: file, line: line)
                XCTAssertEqual(report.duckdb.null_counts[g][j], slice.count - values.count, what,
                               file: file, line: line)
                let (lo, hi) = expectedBounds(values)
                XCTAssertEqual(st.has_min_max, lo != nil, what, file: file, line: line)
                XCTAssertEqual(st.min, lo, what, file: file, line: line)
                XCTAssertEqual(st.max, hi, what, file: file, line: line)
            }
        }
    }

    /// Min and max the statistics should hold, or nil when none should be written.
    private func expectedBounds(_ values: [ParquetValue]) -> (String?, String?) {
        guard let first = values.first else { return (nil, nil) }
        switch first {
        case .string:
            let bytes = values.compactMap { v -> [UInt8]? in
                if case .string(let s) = v { Array(s.utf8) } else { nil }
            }
            let lo = bytes.min { $0.lexicographicallyPrecedes($1) }!
            let hi = bytes.max { $0.lexicographicallyPrecedes($1) }!
            guard lo.count <= 64 && hi.count <= 64 else { return (nil, nil) }
            return (String(decoding: lo, as: UTF8.self), String(decoding: hi, as: UTF8.self))
        case .double:
            let ds = values.compactMap { v -> Double? in if case .double(let d) = v, !d.isNaN { d } else { nil } }
            guard var lo = ds.min(), var hi = ds.max() else { return (nil, nil) }
            if lo == 0 { lo = -0.0 }
            if hi == 0 { hi = 0.0 }
            return (canonical(.double(lo)), canonical(.double(hi)))
        case .boolean:
            let bs = values.map { $0 == .boolean(true) }
            return (bs.contains(false) ? "false" : "true", bs.contains(true) ? "true" : "false")
        default:
            let ns = values.compactMap { v -> Int64? in
                switch v {
                case .int32(let x): Int64(x)
                case .int64(let x): x
                case .date(let d): Int64(d)
                case .timestamp(let t): t
                default: nil
                }
            }
            return (String(ns.min()!), String(ns.max()!))
        }
    }

    // MARK: Python

    struct ReadBack: Decodable {
        struct PyArrow: Decodable {
            var schema: [[String]]
            var num_rows: Int
            var columns: [[String?]]
            var row_groups: [RowGroup]
            var created_by: String
            var metadata: [String: String]
        }
        struct RowGroup: Decodable {
            var num_rows: Int
            var columns: [Chunk]
        }
        struct Chunk: Decodable {
            var physical_type: String
            var num_values: Int
            var null_count: Int?
            var has_min_max: Bool
            var min: String?
            var max: String?
            var encodings: [String]
            var compression: String
            var has_dictionary_page: Bool
        }
        struct DuckDB: Decodable {
            var types: [[String]]
            var columns: [[String?]]
            var null_counts: [[Int]]
        }
        var pyarrow: PyArrow
        var duckdb: DuckDB
    }

    private static let script = #"""
import json, struct, sys
import pyarrow as pa, pyarrow.parquet as pq, duckdb

path = sys.argv[1]

def canon(v, kind):
    if v is None: return None
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, float): return str(struct.unpack("<q", struct.pack("<d", v))[0])
    if isinstance(v, int): return str(v)
    if isinstance(v, bytes): return v.decode("utf-8")
    if isinstance(v, str): return v
    raise TypeError(f"{kind}: {type(v)}")

f = pq.ParquetFile(path)
table = f.read()
cols = []
for name in table.column_names:
    arr = table.column(name).combine_chunks()
    if pa.types.is_timestamp(arr.type): arr = arr.cast(pa.int64())
    elif pa.types.is_date32(arr.type): arr = arr.cast(pa.int32())
    cols.append([canon(v, name) for v in arr.to_pylist()])
md = f.metadata
groups = []
for i in range(md.num_row_groups):
    rg = md.row_group(i)
    chunks = []
    for j in range(rg.num_columns):
        c = rg.column(j)
        st = c.statistics
        chunks.append({
            "physical_type": c.physical_type, "num_values": c.num_values,
            "null_count": st.null_count if st is not None and st.has_null_count else None,
            "has_min_max": bool(st is not None and st.has_min_max),
            "min": canon(st.min_raw, "min") if st is not None and st.has_min_max else None,
            "max": canon(st.max_raw, "max") if st is not None and st.has_min_max else None,
            "encodings": list(c.encodings), "compression": c.compression,
            "has_dictionary_page": bool(c.has_dictionary_page)})
    groups.append({"num_rows": rg.num_rows, "columns": chunks})
kv = {k.decode(): v.decode() for k, v in (md.metadata or {}).items()}
out = {"pyarrow": {
    "schema": [[fl.name, str(fl.type), "true" if fl.nullable else "false"] for fl in table.schema],
    "num_rows": table.num_rows, "columns": cols, "row_groups": groups,
    "created_by": md.created_by, "metadata": kv}}

con = duckdb.connect()
q = "'" + path.replace("'", "''") + "'"
desc = con.execute(f"DESCRIBE SELECT * FROM read_parquet({q})").fetchall()
exprs = []
for name, typ, *_ in desc:
    col = '"' + name.replace('"', '""') + '"'
    if typ == "TIMESTAMP WITH TIME ZONE": exprs.append(f"epoch_us({col})")
    elif typ == "DATE": exprs.append(f"({col} - DATE '1970-01-01')")
    else: exprs.append(col)
rows = con.execute(f"SELECT {', '.join(exprs)} FROM read_parquet({q})").fetchall() if exprs else []
dcols = [[canon(r[j], desc[j][0]) for r in rows] for j in range(len(desc))]
nulls = [[0] * len(desc) for _ in range(md.num_row_groups)]
for g, p, n in con.execute(
        f"SELECT row_group_id, column_id, stats_null_count FROM parquet_metadata({q})").fetchall():
    nulls[g][p] = n
out["duckdb"] = {"types": [[d[0], d[1]] for d in desc], "columns": dcols, "null_counts": nulls}
print(json.dumps(out))
"""#

    private func readBack(_ path: String) throws -> ReadBack {
        let result = try runProcess(try TestTools.python(importing: ["pyarrow", "duckdb"]), ["-c", Self.script, path], timeout: 300)
        guard result.status == 0 else {
            XCTFail("python failed reading \(path): \(result.stderr)")
            throw CocoaError(.fileReadCorruptFile)
        }
        let data = Data(result.stdout.utf8)
        return try JSONDecoder().decode(ReadBack.self, from: data)
    }
}
