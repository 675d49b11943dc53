import XCTest
@testable import HealthStore

/// A run's rows as written to its file (`CompactRow`): each row read back field for field and
/// text for text as it was held, whatever its values, and far smaller than the fixed layout
/// for rows like an export's.
final class CompactRowTests: XCTestCase {
    struct Row: Equatable {
        var type: Int32, rowID: Int64, source: Int32, start: Int64, end: Int64, created: Int64?
        var localDay: Int32, value: Double?, unit: String?, rawValue: String?, rawUnit: String?
        var categoryValue: String?, userEntered: Bool

        static func == (a: Row, b: Row) -> Bool {
            a.type == b.type && a.rowID == b.rowID && a.source == b.source && a.start == b.start && a.end == b.end
                && a.created == b.created && a.localDay == b.localDay && a.value?.bitPattern == b.value?.bitPattern
                && a.unit == b.unit && a.rawValue == b.rawValue && a.rawUnit == b.rawUnit
                && a.categoryValue == b.categoryValue && a.userEntered == b.userEntered
        }
    }

    /// Encodes `rows` as one run, decodes it back; returns the rows read and the run's bytes.
    func roundTrip(_ rows: [Row]) throws -> ([Row], [UInt8]) {
        var encoder = CompactRowEncoder()
        defer { encoder.deallocate() }
        var run: [UInt8] = []
        for row in rows {
            var fixed: [UInt8] = []
            SpilledRow.append(to: &fixed, type: row.type, rowID: row.rowID, source: row.source, start: row.start, end: row.end,
                              created: row.created, localDay: row.localDay, value: row.value, unit: row.unit,
                              rawValue: row.rawValue, rawUnit: row.rawUnit, categoryValue: row.categoryValue,
                              userEntered: row.userEntered)
            fixed.withUnsafeBytes { encoder.append($0.baseAddress!, to: &run) }
        }
        var decoder = CompactRowDecoder()
        defer { decoder.deallocate() }
        var read: [Row] = []
        try run.withUnsafeBytes { bytes in
            var at = 0
            while at < bytes.count {
                let length = try XCTUnwrap(CompactRowDecoder.length(at: bytes.baseAddress! + at, available: bytes.count - at))
                XCTAssertTrue(decoder.decode(bytes.baseAddress! + at + length.prefix, count: length.body))
                read.append(Self.row(decoder.row.baseAddress!))
                at += length.prefix + length.body
            }
        }
        return (read, run)
    }

    /// The row in the fixed layout at `p`, through the merger's own decoding.
    static func row(_ p: UnsafeRawPointer) -> Row {
        var texts = RepeatedRowTexts()
        let decoded = SpilledRow.decode(p, texts: &texts)
        return Row(type: p.loadUnaligned(fromByteOffset: 40, as: Int32.self), rowID: decoded.id,
                   source: Int32(decoded.sourceID), start: decoded.start, end: decoded.end, created: decoded.created,
                   localDay: Int32(decoded.localDay), value: decoded.value, unit: decoded.unit, rawValue: decoded.rawValue,
                   rawUnit: decoded.rawUnit, categoryValue: decoded.categoryValue, userEntered: decoded.userEntered)
    }

    func testEveryFieldRoundTripsWhateverItsValue() throws {
        let rows = [
            Row(type: 3, rowID: 10, source: 2, start: 1_700_000_000_000_000, end: 1_700_000_060_000_000,
                created: 1_700_000_061_000_000, localDay: 19_675, value: 72, unit: "count/min", rawValue: "72",
                rawUnit: "count/min", categoryValue: nil, userEntered: false),
            // The units repeated; a fraction; no creation instant; entered by hand.
            Row(type: 3, rowID: 9, source: 2, start: 1_700_000_000_000_000, end: 1_700_000_000_000_000, created: nil,
                localDay: 19_675, value: 72.5, unit: "count/min", rawValue: "72.5", rawUnit: "count/min",
                categoryValue: nil, userEntered: true),
            // -0.0 is not the integer 0; a huge integer; a unit that changes to one of the same length.
            Row(type: 3, rowID: 11, source: 5, start: 1_700_000_120_000_000, end: 1_700_000_180_000_000, created: 0,
                localDay: 19_676, value: -0.0, unit: "count/mi", rawValue: "-0", rawUnit: "count/mi", categoryValue: nil,
                userEntered: false),
            Row(type: 3, rowID: 12, source: 5, start: 1_700_000_180_000_000, end: 1_700_000_180_000_001, created: nil,
                localDay: 19_676, value: 9_007_199_254_740_992, unit: "count/mi", rawValue: nil, rawUnit: nil,
                categoryValue: nil, userEntered: false),
            // A new type: a category series, no value, an empty unit, then a row with no texts at all.
            Row(type: 9, rowID: 2, source: 1, start: 1_600_000_000_000_000, end: 1_600_000_900_000_000, created: nil,
                localDay: 18_520, value: nil, unit: "", rawValue: "HKCategoryValueSleepAnalysisAsleepCore", rawUnit: nil,
                categoryValue: "HKCategoryValueSleepAnalysisAsleepCore", userEntered: false),
            Row(type: 9, rowID: 3, source: 1, start: 1_600_000_900_000_000, end: 1_600_000_900_000_000, created: nil,
                localDay: 18_520, value: nil, unit: nil, rawValue: nil, rawUnit: nil, categoryValue: nil, userEntered: false),
            // A category value again after a row without one: written out, not taken as a repeat.
            Row(type: 9, rowID: 4, source: 1, start: 1_600_001_000_000_000, end: 1_600_001_000_000_000, created: nil,
                localDay: 18_520, value: nil, unit: nil, rawValue: nil, rawUnit: nil,
                categoryValue: "HKCategoryValueSleepAnalysisAsleepCore", userEntered: false),
            // Instants at both ends of the range (a hostile export): the steps wrap and come back.
            Row(type: Int32.max, rowID: Int64.min, source: Int32.min, start: Int64.max, end: Int64.min, created: Int64.max,
                localDay: Int32.min, value: Double.greatestFiniteMagnitude, unit: "é", rawValue: String(repeating: "9", count: 70_000),
                rawUnit: "ü", categoryValue: "x", userEntered: true),
            Row(type: Int32.min, rowID: Int64.max, source: Int32.max, start: Int64.min, end: Int64.max, created: Int64.min,
                localDay: Int32.max, value: -1e-300, unit: "é", rawValue: "", rawUnit: "ü", categoryValue: "x", userEntered: false),
        ]
        let (read, _) = try roundTrip(rows)
        XCTAssertEqual(read.count, rows.count)
        for (r, w) in zip(read, rows) { XCTAssertEqual(r, w) }
    }

    /// A heart-rate series as exports hold it: a few bytes a row, not the fixed layout's 92.
    func testASeriesTakesAQuarterOfTheFixedLayout() throws {
        let rows = (0..<1000).map { i in
            let start = 1_700_000_000_000_000 + Int64(i) * 297_000_000
            return Row(type: 4, rowID: Int64(i + 1), source: 2, start: start, end: start, created: start + 4_000_000,
                       localDay: 19_675 + Int32(i / 290), value: Double(60 + i % 40), unit: "count/min",
                       rawValue: "\(60 + i % 40)", rawUnit: "count/min", categoryValue: nil, userEntered: false)
        }
        let (read, run) = try roundTrip(rows)
        XCTAssertEqual(read, rows)
        let fixed = SpilledRow.headerSize + 9 + 2 + 9
        XCTAssertLessThan(run.count, rows.count * fixed / 4, "\(run.count) bytes for \(rows.count) rows")
    }

    /// A row cut short or with a length past its end reads as damaged, never past its bytes.
    func testADamagedRowIsRefused() throws {
        let row = Row(type: 1, rowID: 1, source: 1, start: 5, end: 6, created: 7, localDay: 1, value: 1.5, unit: "kg",
                      rawValue: "1.5", rawUnit: "kg", categoryValue: nil, userEntered: false)
        let (_, run) = try roundTrip([row])
        try run.withUnsafeBytes { bytes in
            let length = try XCTUnwrap(CompactRowDecoder.length(at: bytes.baseAddress!, available: bytes.count))
            var decoder = CompactRowDecoder()
            defer { decoder.deallocate() }
            for cut in 0..<length.body {
                XCTAssertFalse(decoder.decode(bytes.baseAddress! + length.prefix, count: cut), "cut at \(cut)")
            }
            // A repeat of a text the last row did not have (the first row of a run has none).
            var repeated = Array(bytes[length.prefix...])
            repeated[1] |= CompactRow.Changed.sameUnit.rawValue
            XCTAssertFalse(repeated.withUnsafeBytes { decoder.decode($0.baseAddress!, count: $0.count) })
        }
        XCTAssertNil([UInt8](repeating: 0x80, count: 10).withUnsafeBytes { CompactRowDecoder.length(at: $0.baseAddress!, available: 10) })
    }
}
