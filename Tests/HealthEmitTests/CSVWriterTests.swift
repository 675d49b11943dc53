import Foundation
import HealthCore
@testable import CSV
@testable import HealthEmit
@testable import PrivateFiles
import XCTest
import TestSupport

/// The CSV writer: cell encoders checked in-process, whole files read back by Python's `csv`
/// module and converted to xlsx by LibreOffice (headless), read back with openpyxl (Python and
/// LibreOffice from TestTools, which says what a missing one means).
final class CSVWriterTests: XCTestCase {

    // MARK: Cell encoders

    private func decimal(_ x: Double, _ places: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CSVCellEncoding.maxDecimalBytes) { buf in
            let n = CSVCellEncoding.writeDecimal(x, places: places, to: buf.baseAddress!)
            return String(decoding: UnsafeBufferPointer(rebasing: buf[0..<n]), as: UTF8.self)
        }
    }

    private func integer(_ v: Int64, _ places: Int = 0) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buf in
            let n = CSVCellEncoding.writeInteger(v, places: places, to: buf.baseAddress!)
            return String(decoding: UnsafeBufferPointer(rebasing: buf[0..<n]), as: UTF8.self)
        }
    }

    func testDecimalPlainNotationAndFixedPlaces() {
        XCTAssertEqual(decimal(0.1 + 0.2, 2), "0.30")
        XCTAssertEqual(decimal(0.1 + 0.2, 17), "0.30000000000000004")
        XCTAssertEqual(decimal(1e-7, 6), "0.000000")
        XCTAssertEqual(decimal(1e-7, 7), "0.0000001")
        XCTAssertEqual(decimal(-1e-7, 7), "-0.0000001")
        XCTAssertEqual(decimal(12_345_678_901.5, 1), "12345678901.5")
        XCTAssertEqual(decimal(1e20, 0), "100000000000000000000")
        XCTAssertEqual(decimal(1e20, 2), "100000000000000000000.00")
        XCTAssertEqual(decimal(1e22, 0), "10000000000000000000000")
        XCTAssertEqual(decimal(1e23, 0), "99999999999999991611392")   // the Double nearest 1e23
        XCTAssertEqual(decimal(Double(Int64.max), 2), "9223372036854775808.00")
        XCTAssertEqual(decimal(1234.5, 3), "1234.500")                     // fixed, not trimmed
        XCTAssertEqual(decimal(42, 0), "42")
        XCTAssertEqual(decimal(-42, 1), "-42.0")
        XCTAssertEqual(decimal(0, 0), "0")
        XCTAssertEqual(decimal(0, 3), "0.000")
        XCTAssertEqual(decimal(0.5, 3), "0.500")
        XCTAssertEqual(decimal(9.9999, 2), "10.00")
        XCTAssertEqual(decimal(-9.9999, 2), "-10.00")
        XCTAssertEqual(decimal(0.000_123, 18), "0.000123000000000000")   // exact: 0.000123000000000000008…
        XCTAssertEqual(decimal(Double.leastNonzeroMagnitude, 18), "0.000000000000000000")
        XCTAssertEqual(decimal(-Double.leastNonzeroMagnitude, 18), "0.000000000000000000")
        XCTAssertEqual(decimal(Double.leastNormalMagnitude, 0), "0")
        // Values beyond 128 bits go through the big-integer path: compare with glibc's exact %f.
        for x in [Double.greatestFiniteMagnitude, 1e300, -1e300, 3.0e38, 1.7e308, 2e100, 0x1p200, -0x1p127, 0x1p128] {
            XCTAssertEqual(decimal(x, 0), String(format: "%.0f", x), "\(x)")
            XCTAssertEqual(decimal(x, 2), String(format: "%.2f", x), "\(x)")
        }
        XCTAssertEqual(decimal(Double.greatestFiniteMagnitude, 0).count, 309)
        XCTAssertFalse(decimal(Double.greatestFiniteMagnitude, 18).contains("e"))
    }

    func testDecimalNegativeZeroNaNAndInfinity() {
        XCTAssertEqual(decimal(-0.0, 0), "0")
        XCTAssertEqual(decimal(-0.0, 2), "0.00")
        XCTAssertEqual(decimal(-0.001, 2), "0.00")      // rounds to zero: no sign
        XCTAssertEqual(decimal(-0.4, 0), "0")
        XCTAssertEqual(decimal(-1e-300, 5), "0.00000")
        XCTAssertEqual(decimal(.nan, 2), "")
        XCTAssertEqual(decimal(-.nan, 2), "")
        XCTAssertEqual(decimal(.infinity, 0), "")
        XCTAssertEqual(decimal(-.infinity, 3), "")
    }

    /// The rule: the exact binary value is rounded, exact ties away from zero.
    func testDecimalRoundingRule() {
        // Exact binary ties (k/2, k/4, k/8…) go away from zero.
        XCTAssertEqual(decimal(0.5, 0), "1")
        XCTAssertEqual(decimal(1.5, 0), "2")
        XCTAssertEqual(decimal(2.5, 0), "3")            // not banker's rounding
        XCTAssertEqual(decimal(-2.5, 0), "-3")
        XCTAssertEqual(decimal(0.125, 2), "0.13")
        XCTAssertEqual(decimal(-0.125, 2), "-0.13")
        XCTAssertEqual(decimal(0.375, 2), "0.38")
        XCTAssertEqual(decimal(1.0625, 3), "1.063")
        // Decimal-looking "ties" are not ties in binary: 2.675 is stored as
        // 2.67499999999999982236431605997495353221893310546875, so it rounds down — like
        // Python's round(2.675, 2), printf("%.2f") and pandas, unlike Excel's ROUND.
        XCTAssertEqual(decimal(2.675, 2), "2.67")
        XCTAssertEqual(decimal(1.005, 2), "1.00")       // 1.00499999999999989…
        XCTAssertEqual(decimal(1.015, 2), "1.01")       // 1.01499999999999990…
        XCTAssertEqual(decimal(1.025, 2), "1.02")       // 1.02499999999999991…
        XCTAssertEqual(decimal(1.035, 2), "1.03")       // 1.03499999999999992…
        XCTAssertEqual(decimal(1.045, 2), "1.04")       // 1.04499999999999992…
        XCTAssertEqual(decimal(1.055, 2), "1.05")       // 1.05499999999999993…
        XCTAssertEqual(decimal(0.615, 2), "0.61")       // 0.61499999999999999…
        XCTAssertEqual(decimal(0.045, 2), "0.04")       // 0.04499999999999999…
        XCTAssertEqual(decimal(-0.005, 2), "-0.01")     // -0.00500000000000000010…: above the tie
        XCTAssertEqual(decimal(0.035, 2), "0.04")       // 0.03500000000000000333…: above the tie
        XCTAssertEqual(decimal(72.345, 2), "72.34")     // 72.34499999999999886…
        XCTAssertEqual(decimal(72.355, 2), "72.36")     // 72.35500000000000397…
    }

    func testIntegers() {
        XCTAssertEqual(integer(0), "0")
        XCTAssertEqual(integer(7), "7")
        XCTAssertEqual(integer(-12), "-12")
        XCTAssertEqual(integer(Int64.max), "9223372036854775807")
        XCTAssertEqual(integer(Int64.min), "-9223372036854775808")
        XCTAssertEqual(integer(5, 2), "5.00")
        XCTAssertEqual(integer(-5, 1), "-5.0")
        XCTAssertEqual(integer(0, 2), "0.00")
    }

    func testDatesAndTimestampsMatchISO8601() throws {
        let dates = [CivilDate(year: 2024, month: 1, day: 10), CivilDate(year: 1970, month: 1, day: 1),
                     CivilDate(year: 1, month: 12, day: 31), CivilDate(year: 9999, month: 12, day: 31),
                     CivilDate(year: 2000, month: 2, day: 29), CivilDate(year: 0, month: 3, day: 1),
                     CivilDate(year: 10_000, month: 1, day: 1), CivilDate(year: -44, month: 3, day: 15)]
        var stamps = [Timestamp(seconds: 0), Timestamp(microseconds: -1), Timestamp(microseconds: 1),
                      Timestamp(seconds: 1_704_882_600), Timestamp(microseconds: 1_704_882_600_250_000),
                      Timestamp(microseconds: 1_704_882_600_000_010), Timestamp(microseconds: -86_400_000_001),
                      Timestamp(seconds: 253_402_300_799), Timestamp(seconds: 253_402_300_800),  // 9999-12-31T23:59:59, 10000-01-01
                      Timestamp(seconds: -62_167_219_200), Timestamp(seconds: -62_167_219_201)]   // 0000-01-01, just before
        var rng: UInt64 = 7
        for _ in 0..<2000 {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            stamps.append(Timestamp(microseconds: Int64(bitPattern: rng >> 6) % 4_000_000_000_000_000))
        }
        let folder = try temporaryFolder(self)
        let path = folder.appendingPathComponent("dates.csv").path
        let w = try CSVWriter(path: path, columns: [CSVColumn(name: "d", format: .date),
                                                    CSVColumn(name: "t", format: .timestamp)])
        for i in 0..<max(dates.count, stamps.count) {
            try w.appendRow { r in
                if i < dates.count { r.date(0, dates[i]) }
                r.timestamp(1, i < stamps.count ? stamps[i] : nil)
            }
        }
        try w.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\r\n")
        XCTAssertEqual(lines.first, "d,t")
        for i in 0..<max(dates.count, stamps.count) {
            let expected = (i < dates.count ? dates[i].iso8601 : "") + "," + (i < stamps.count ? stamps[i].iso8601 : "")
            XCTAssertEqual(lines[i + 1], expected)
        }
        XCTAssertEqual(lines[1], "2024-01-10,1970-01-01T00:00:00Z")
        XCTAssertEqual(lines[5], "2000-02-29,2024-01-10T10:30:00.25Z")
    }

    // MARK: Files

    private func readBytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testHeaderQuotingCRLFAndNoBOM() throws {
        let folder = try temporaryFolder(self)
        let path = folder.appendingPathComponent("daily.csv").path
        let w = try CSVWriter(path: path, columns: [
            CSVColumn(name: "date", format: .date),
            CSVColumn(name: "source, name", format: .text),
            CSVColumn(name: "steps", format: .integer),
            CSVColumn(name: "distance_m", format: .decimal(places: 2)),
            CSVColumn(name: "start", format: .timestamp),
        ])
        XCTAssertEqual(w.columnIndex("steps"), 2)
        let texts = ["plain", "a,b", "say \"hi\"", "line1\nline2", "cr\rx", "crlf\r\nx", "Alex’s Apple Watch",
                     "步数 心率", "", " lead and trail ", "\"", "emoji 🫀, yes", "tab\tok"]
        for (i, t) in texts.enumerated() {
            try w.appendRow { r in
                r.date(0, CivilDate(year: 2024, month: 1, day: 1 + i))
                r.text(1, t)
                r.integer(2, i * 1000)
                r.decimal(3, Double(i) + 0.5)
                r.timestamp(4, Timestamp(seconds: 1_704_067_200 + Int64(i) * 86_400))
            }
        }
        XCTAssertEqual(w.rowCount, texts.count)
        try w.close()
        let quoted = ["plain", "\"a,b\"", "\"say \"\"hi\"\"\"", "\"line1\nline2\"", "\"cr\rx\"", "\"crlf\r\nx\"",
                      "Alex’s Apple Watch", "步数 心率", "", " lead and trail ", "\"\"\"\"", "\"emoji 🫀, yes\"",
                      "tab\tok"]
        var expected = "date,\"source, name\",steps,distance_m,start\r\n"
        for (i, q) in quoted.enumerated() {
            let day = i + 1 < 10 ? "0\(i + 1)" : "\(i + 1)"
            expected += "2024-01-\(day),\(q),\(i * 1000),\(i).50,2024-01-\(day)T00:00:00Z\r\n"
        }
        let bytes = try readBytes(path)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), expected)
        XCTAssertEqual(bytes, Array(expected.utf8))
        XCTAssertNotEqual(Array(bytes.prefix(3)), [0xEF, 0xBB, 0xBF], "no BOM")
    }

    func testNilUnsetNaNAndNullAreEmptyCells() throws {
        let folder = try temporaryFolder(self)
        let path = folder.appendingPathComponent("sparse.csv").path
        let w = try CSVWriter(path: path, columns: [
            CSVColumn("a", .text), CSVColumn("b", .integer), CSVColumn("c", .decimal(places: 1)),
            CSVColumn("d", .date), CSVColumn("e", .timestamp),
        ])
        try w.appendRow { _ in }
        try w.appendRow { r in
            r.text(0, nil); r.integer(1, Optional<Int>.none); r.decimal(2, nil); r.date(3, nil); r.timestamp(4, nil)
        }
        try w.appendRow { r in r.null(0); r.null(4); r.decimal(2, .nan) }
        try w.appendRow { r in r.decimal(2, -.infinity); r.integer(1, Int64(3)) }
        try w.appendRow { r in r.timestamp(4, Timestamp(seconds: 0)) }
        try w.close()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8),
                       "a,b,c,d,e\r\n,,,,\r\n,,,,\r\n,,,,\r\n,3,,,\r\n,,,,1970-01-01T00:00:00Z\r\n")

        // One column: an empty cell is written "" so the row is not a blank line.
        let one = folder.appendingPathComponent("one.csv").path
        let w1 = try CSVWriter(path: one, columns: [CSVColumn("x", .decimal(places: 0))])
        try w1.appendRow { r in r.decimal(0, 1) }
        try w1.appendRow { r in r.decimal(0, nil) }
        try w1.close()
        XCTAssertEqual(try String(contentsOfFile: one, encoding: .utf8), "x\r\n1\r\n\"\"\r\n")
    }

    func testCrossFormatSettersAndRowErrors() throws {
        let folder = try temporaryFolder(self)
        let path = folder.appendingPathComponent("errors.csv").path
        let w = try CSVWriter(path: path, columns: [CSVColumn("n", .integer), CSVColumn("x", .decimal(places: 2)),
                                                    CSVColumn("s", .text)])
        try w.appendRow { r in r.decimal(0, 2.5); r.integer(1, 5); r.text(2, "ok") }
        try w.appendRow { r in r.decimal(0, -2.5); r.integer(1, Int64(-7)) }
        try w.appendRow { r in r.decimal(0, 1e20) }
        // Misuse: nothing of the row is written, the writer goes on.
        XCTAssertThrowsError(try w.appendRow { r in r.integer(0, 1); r.text(1, "x") }) { error in
            XCTAssertTrue("\(error)".contains("'x'"), "\(error)")
        }
        XCTAssertThrowsError(try w.appendRow { r in r.integer(0, 1); r.integer(0, 2) }) { error in
            XCTAssertTrue("\(error)".contains("twice"), "\(error)")
        }
        XCTAssertThrowsError(try w.appendRow { r in r.integer(3, 1) })
        XCTAssertThrowsError(try w.appendRow { r in r.integer(-1, 1) })
        XCTAssertThrowsError(try w.appendRow { r in r.date(2, CivilDate(year: 2024, month: 1, day: 1)) })
        struct Stop: Error {}
        XCTAssertThrowsError(try w.appendRow { r in r.integer(0, 9); throw Stop() }) { XCTAssertTrue($0 is Stop) }
        try w.appendRow { r in r.text(2, "after") }
        XCTAssertEqual(w.rowCount, 4)
        try w.close()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8),
                       "n,x,s\r\n3,5.00,ok\r\n-3,-7.00,\r\n100000000000000000000,,\r\n,,after\r\n")
        XCTAssertThrowsError(try w.appendRow { _ in })
        XCTAssertThrowsError(try w.close())

        XCTAssertThrowsError(try CSVWriter(path: folder.appendingPathComponent("bad.csv").path,
                                           columns: [CSVColumn("x", .decimal(places: 19))]))
        XCTAssertThrowsError(try CSVWriter(path: folder.appendingPathComponent("bad.csv").path, columns: []))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["errors.csv"])
    }

    func testCannotCreateOutputNamesThePath() throws {
        let folder = try temporaryFolder(self)
        let path = folder.appendingPathComponent("missing/daily.csv").path
        XCTAssertThrowsError(try CSVWriter(path: path, columns: [CSVColumn("x", .text)])) { error in
            guard let error = error as? FileError, error.kind == .cannotCreate else {
                return XCTFail("expected FileError.cannotCreate, got \(error)")
            }
            XCTAssertTrue(error.description.contains(path), error.description)
            XCTAssertEqual((error as any SysexitsError).exitCode, 73)
        }
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testAtomicReplaceMode0600AndAbort() throws {
        let folder = try temporaryFolder(self)
        let path = folder.appendingPathComponent("daily.csv").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let temporary = folder.appendingPathComponent(".daily.csv.tmp-\(getpid())").path
        XCTAssertEqual(AtomicOutputFile.temporaryPath(for: path), temporary)

        // Until close, `path` is the old file; the new one is a hidden 0600 temporary beside it.
        let w = try CSVWriter(path: path, columns: [CSVColumn("n", .integer)], bufferSize: 4096)
        for i in 0..<5000 { try w.appendRow { r in r.integer(0, i) } }   // more than one buffer
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: temporary))
        XCTAssertEqual(try mode(temporary), 0o600)
        try w.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporary))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("n\r\n0\r\n1\r\n"))
        XCTAssertTrue(text.hasSuffix("\r\n4999\r\n"))
        XCTAssertEqual(text.components(separatedBy: "\r\n").count, 5002)
        XCTAssertEqual(try mode(path), 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["daily.csv"])

        // abort: the published file is untouched, the temporary removed.
        let published = try readBytes(path)
        let a = try CSVWriter(path: path, columns: [CSVColumn("n", .integer)], bufferSize: 4096)
        for i in 0..<5000 { try a.appendRow { r in r.integer(0, -i) } }
        a.abort()
        a.abort()   // idempotent
        XCTAssertThrowsError(try a.appendRow { _ in })
        XCTAssertThrowsError(try a.close())
        XCTAssertEqual(try readBytes(path), published)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["daily.csv"])

        // Released without close: the same as abort.
        do {
            let d = try CSVWriter(path: path, columns: [CSVColumn("n", .integer)])
            try d.appendRow { r in r.integer(0, 1) }
            XCTAssertTrue(FileManager.default.fileExists(atPath: temporary))
        }
        XCTAssertEqual(try readBytes(path), published)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["daily.csv"])

        // A new file (no previous one) is created 0600 too, under a permissive umask.
        let fresh = folder.appendingPathComponent("weekly.csv").path
        let old = umask(0)
        defer { umask(old) }
        let f = try CSVWriter(path: fresh, columns: [CSVColumn("n", .integer)])
        try f.close()
        XCTAssertEqual(try mode(fresh), 0o600)
        XCTAssertEqual(try String(contentsOfFile: fresh, encoding: .utf8), "n\r\n")
    }

    func testLongCellsAcrossBufferBoundaries() throws {
        let folder = try temporaryFolder(self)
        let path = folder.appendingPathComponent("long.csv").path
        let long = String(repeating: "ab,\"c\"\n", count: 20_000)       // 140 KB, 200 KB quoted
        let w = try CSVWriter(path: path, columns: [CSVColumn("i", .integer), CSVColumn("s", .text)], bufferSize: 4096)
        for i in 0..<3 { try w.appendRow { r in r.integer(0, i); r.text(1, i == 1 ? long : "x") } }
        try w.close()
        let quoted = "\"" + long.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "i,s\r\n0,x\r\n1,\(quoted)\r\n2,x\r\n")
    }

    // MARK: Read back by other programs

    /// Runs the tests' Python (TestTools.python) with a script and arguments.
    private func python(_ script: String, _ arguments: [String]) throws -> ProcessResult {
        try runProcess(try TestTools.python(), ["-c", script] + arguments, timeout: 300)
    }

    private static let readCSVScript = #"""
import csv, json, sys
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    raw = f.read()
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f, strict=True))
print(json.dumps({"bom": raw.startswith("\ufeff"), "rows": rows}))
"""#

    func testPythonCSVModuleRoundTrip() throws {
        let folder = try temporaryFolder(self)
        let path = folder.appendingPathComponent("daily.csv").path
        let texts = ["plain", "a,b", "say \"hi\"", "line1\nline2", "cr\rx", "crlf\r\nx", "Alex’s Apple Watch",
                     "步数 心率", "", " lead ", "\"", "\"\"", ",", "\n", "🫀,\"\r\n", "x\u{0}y", "=1+1", "trailing\r"]
        var expected: [[String]] = [["text", "n", "x", "day", "at"]]
        let w = try CSVWriter(path: path, columns: [
            CSVColumn("text", .text), CSVColumn("n", .integer), CSVColumn("x", .decimal(places: 3)),
            CSVColumn("day", .date), CSVColumn("at", .timestamp),
        ], bufferSize: 4096)
        for i in 0..<600 {
            let t = texts[i % texts.count] + (i >= texts.count ? " \(i)" : "")
            let n: Int64? = i % 7 == 3 ? nil : Int64(i) * 1_000_003 - 300_000_000
            let x: Double? = i % 5 == 4 ? nil : Double(i) / 7 - 40
            let day = CivilDate(year: 2020, month: 1, day: 1).adding(days: i)
            let at = Timestamp(microseconds: 1_577_836_800_000_000 + Int64(i) * 3_600_123_457)
            try w.appendRow { r in
                r.text(0, t); r.integer(1, n); r.decimal(2, x); r.date(3, day); r.timestamp(4, at)
            }
            // A text that starts a spreadsheet formula ("=1+1") reads back with the guard's quote in front.
            let cell = t.hasPrefix("=") ? "'" + t : t
            expected.append([cell, n.map { String($0) } ?? "", x.map { decimal($0, 3) } ?? "", day.iso8601, at.iso8601])
        }
        try w.close()
        let result = try python(Self.readCSVScript, [path])
        XCTAssertEqual(result.status, 0, result.stderr)
        struct Read: Decodable { var bom: Bool; var rows: [[String]] }
        let read = try JSONDecoder().decode(Read.self, from: Data(result.stdout.utf8))
        XCTAssertFalse(read.bom)
        XCTAssertEqual(read.rows.count, expected.count)
        for (i, (got, want)) in zip(read.rows, expected).enumerated() where got != want {
            XCTFail("row \(i): \(got) != \(want)")
            break
        }
        XCTAssertEqual(read.rows[2], ["a,b", "-298999997", "-39.857", "2020-01-02", "2020-01-01T01:00:00.123457Z"])
    }

    private static let decimalOracleScript = #"""
import csv, json, struct, sys
from decimal import Decimal, ROUND_HALF_UP, getcontext
getcontext().prec = 1000
def oracle(x, p):
    if x != x or x in (float("inf"), float("-inf")):
        return ""
    q = Decimal(x).quantize(Decimal(1).scaleb(-p), rounding=ROUND_HALF_UP)
    s = format(q, "f")
    return s.lstrip("-") if q == 0 else s
bad, checked = [], 0
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = csv.reader(f)
    header = next(rows)
    places = [int(h[1:]) for h in header[1:]]
    for row in rows:
        x = struct.unpack("<d", bytes.fromhex(row[0]))[0]
        for p, cell in zip(places, row[1:]):
            checked += 1
            want = oracle(x, p)
            if cell != want and len(bad) < 10:
                bad.append([repr(x), p, cell, want])
print(json.dumps({"checked": checked, "bad": bad}))
"""#

    /// Every rounding decision against Python's `decimal` (exact value, ROUND_HALF_UP).
    func testDecimalFormattingMatchesPythonDecimal() throws {
        var values: [Double] = [0, -0.0, 0.5, 2.5, -2.5, 0.125, 2.675, 1.005, 0.1 + 0.2, 1e-7, 1e20, 1e22, 1e23,
                                12_345_678_901.5, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
                                .leastNormalMagnitude, .nan, .infinity, -.infinity, 5e-19, 4.9999999999999996e-19,
                                0x1p-113, 0x1p-114, 0x1.fffffffffffffp63, 0x1p64, 0x1p127, 0x1p128, 9.5e18]
        var rng: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17
            return rng
        }
        for i in 0..<12_000 {
            let r = next()
            switch i % 6 {
            case 0: values.append(Double(bitPattern: r))                                    // anything
            case 1: values.append(Double(bitPattern: (r & 0x800F_FFFF_FFFF_FFFF) | (UInt64(1023 - 70 + Int(r >> 52 & 127)) << 52)))  // 2^-70…2^57
            case 2: values.append(Double(Int64(bitPattern: r) % 100_000_000) / 1000)          // "typed" decimals, x.yyy
            case 3: values.append((Double(Int64(bitPattern: r) % 1_000_000) + 0.5) / Double(1 << (r >> 60)))  // binary ties
            case 4: values.append(Double(Int64(bitPattern: r) % 10_000_000) * 0.005)           // near-ties at 2 places
            default: values.append(Double(bitPattern: r & 0x3FFF_FFFF_FFFF_FFFF) * (r >> 63 == 0 ? 1 : -1))  // small exponents
            }
        }
        let folder = try temporaryFolder(self)
        let path = folder.appendingPathComponent("numbers.csv").path
        let places = Array(0...CSVCellEncoding.maxPlaces)
        let w = try CSVWriter(path: path, columns: [CSVColumn("bits", .text)]
                                + places.map { CSVColumn("p\($0)", .decimal(places: $0)) })
        for x in values {
            var le = x.bitPattern.littleEndian
            let hex = withUnsafeBytes(of: &le) { $0.map { String(format: "%02x", $0) }.joined() }
            try w.appendRow { r in
                r.text(0, hex)
                for p in places { r.decimal(1 + p, x) }
            }
        }
        try w.close()
        let result = try python(Self.decimalOracleScript, [path])
        XCTAssertEqual(result.status, 0, result.stderr)
        struct Report: Decodable { var checked: Int; var bad: [[CSVTestJSONValue]] }
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(report.checked, values.count * places.count)
        XCTAssertTrue(report.bad.isEmpty, "mismatches (x, places, ours, Python's): \(report.bad)")
    }

    /// LibreOffice Calc (headless) opens the file as UTF-8 CSV; openpyxl reads the xlsx it saves.
    func testLibreOfficeOpensTheCSV() throws {
        let openpyxlPython = try TestTools.python(importing: ["openpyxl"])

        let folder = try temporaryFolder(self)
        let path = folder.appendingPathComponent("daily.csv").path
        let w = try CSVWriter(path: path, columns: [
            CSVColumn("source", .text), CSVColumn("steps", .integer), CSVColumn("distance_m", .decimal(places: 2)),
            CSVColumn("date", .date), CSVColumn("start", .timestamp),
        ])
        try w.appendRow { r in
            r.text(0, "Alex’s Apple Watch, \"Series 9\""); r.integer(1, 12_345); r.decimal(2, 12_345_678_901.5)
            r.date(3, CivilDate(year: 2024, month: 1, day: 10)); r.timestamp(4, Timestamp(seconds: 1_704_882_600))
        }
        try w.appendRow { r in
            r.text(0, "步数\n第二行"); r.decimal(2, 0.1 + 0.2)
            r.date(3, CivilDate(year: 2024, month: 2, day: 29))
        }
        try w.close()

        let convert = try TestTools.convertCSVToXLSX([path], into: folder.path, profileIn: folder)
        let xlsx = folder.appendingPathComponent("daily.xlsx").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: xlsx), "soffice: \(convert.stdout) \(convert.stderr)")

        let script = #"""
import json, sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1]).active
rows = [[c.isoformat() if hasattr(c, "isoformat") else c for c in r] for r in ws.iter_rows(values_only=True)]
print(json.dumps(rows))
"""#
        let read = try runProcess(openpyxlPython, ["-c", script, xlsx])
        XCTAssertEqual(read.status, 0, read.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [[Any]])
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual(rows[0] as? [String], ["source", "steps", "distance_m", "date", "start"])
        XCTAssertEqual(rows[1][0] as? String, "Alex’s Apple Watch, \"Series 9\"")
        XCTAssertEqual((rows[1][1] as? NSNumber)?.doubleValue, 12_345)
        XCTAssertEqual((rows[1][2] as? NSNumber)?.doubleValue, 12_345_678_901.5)
        XCTAssertEqual((rows[1][3] as? String)?.prefix(10), "2024-01-10")     // recognised as a date
        XCTAssertEqual(rows[1][4] as? String, "2024-01-10T10:30:00Z")         // kept as text by Calc
        XCTAssertEqual(rows[2][0] as? String, "步数\n第二行")
        XCTAssertTrue(rows[2][1] is NSNull)
        XCTAssertEqual((rows[2][2] as? NSNumber)?.doubleValue, 0.3)
        XCTAssertEqual((rows[2][3] as? String)?.prefix(10), "2024-02-29")
    }
}

/// Any JSON value (for reports whose cells mix strings and numbers).
private enum CSVTestJSONValue: Decodable, CustomStringConvertible {
    case string(String), number(Double), other
    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let s = try? c.decode(String.self) { self = .string(s) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else { self = .other }
    }
    var description: String {
        switch self {
        case .string(let s): "\"\(s)\""
        case .number(let d): "\(d)"
        case .other: "?"
        }
    }
}
