import Foundation
@testable import CSV
import XCTest
import TestSupport

/// Issue 56, item 6: a text cell that a spreadsheet would read as a formula (`=`, `+`, `-`,
/// `@`, tab or CR first) is written `'`-prefixed and quoted, as OWASP advises; numbers, lone
/// signed constants and other text are written as before. The LibreOffice side:
/// HealthETLEndToEndTests' FormulaInjectionTests.
final class CSVFormulaGuardTests: XCTestCase {
    /// The cells of one text column, as the writer writes them in `dialect` (header dropped).
    private func written(_ texts: [String], dialect: CSVDialect = .rfc4180) throws -> [String] {
        let path = try temporaryFolder(self).appendingPathComponent("t.csv").path
        let w = try CSVWriter(path: path, columns: [CSVColumn("name", .text), CSVColumn("n", .integer)], dialect: dialect)
        for t in texts { try w.appendRow { r in r.text(0, t); r.integer(1, 1) } }
        try w.close()
        var text = try String(contentsOfFile: path, encoding: .utf8)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let separator = String(UnicodeScalar(dialect.separator))
        let header = "name" + separator + "n\r\n"
        XCTAssertTrue(text.hasPrefix(header))
        // Each row ends with the separator, the integer 1 and CRLF: the cell is what comes before.
        return Array(text.dropFirst(header.count).components(separatedBy: separator + "1\r\n").dropLast())
    }

    func testEachFormulaStartIsPrefixedWithAQuoteAndQuoted() throws {
        let hostile = ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(1+1)", "\t=1+1", "\r=1+1",
                       "=HYPERLINK(\"http://x\",\"y\")", "-", "+", "@", "-A1", "-1e5", "+01:00+1", "-2.5.", "\tplain"]
        XCTAssertEqual(try written(hostile), [
            "\"'=cmd|' /C calc'!A0\"", "\"'+1+1\"", "\"'-2+3\"", "\"'@SUM(1+1)\"", "\"'\t=1+1\"", "\"'\r=1+1\"",
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"", "\"'-\"", "\"'+\"", "\"'@\"", "\"'-A1\"", "\"'-1e5\"",
            "\"'+01:00+1\"", "\"'-2.5.\"", "\"'\tplain\"",
        ])
        XCTAssertEqual(try written(["=1;2", "-x,y"], dialect: .excelSemicolon), ["\"'=1;2\"", "\"'-x,y\""],
                       "the semicolon dialect is guarded alike")
    }

    func testNumbersLoneSignedConstantsAndOtherTextAreUnchanged() throws {
        let path = try temporaryFolder(self).appendingPathComponent("n.csv").path
        let w = try CSVWriter(path: path, columns: [CSVColumn("i", .integer), CSVColumn("d", .decimal(places: 2))])
        try w.appendRow { r in r.integer(0, -5); r.decimal(1, -2.5) }
        try w.appendRow { r in r.integer(0, Int64.min); r.decimal(1, -0.004) }
        try w.close()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "i,d\r\n-5,-2.50\r\n-9223372036854775808,0.00\r\n",
                       "number cells are numbers: never guarded")

        let plain = ["-5", "-2.50", "+3", "+01:00", "-05:30", "-1:02:03", "12", "Alex’s Apple Watch", "HKWorkoutActivityTypeRunning",
                     " =1+1", "a=b", "'s Phone", "'", "x@y", "", "2024-04-01"]
        XCTAssertEqual(try written(plain), plain, "a lone signed number or time reads as itself; other text is as it was")
        XCTAssertEqual(try written(["-5, or so", "say \"hi\""]), ["\"'-5, or so\"", "\"say \"\"hi\"\"\""])
    }

    /// The mark comes off again: every text, quotes and marks included, is read back exactly.
    func testQuotingAndTheMarkRoundTrip() throws {
        let texts = ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(1+1)", "\t=1+1", "\r=1+1", "-5", "+01:00", "plain",
                     "'=x", "''=x", "'-5", "'-2+3", "'", "''", "'s Phone", "=\"a\",\"b\"\r\n", "", "-"]
        let cells = try written(texts)
        for (text, cell) in zip(texts, cells) {
            XCTAssertEqual(CSVField.text(text), cell, "query --format csv writes \(text.debugDescription) as the files do")
            XCTAssertEqual(CSVFormulaGuard.original(ofCell: Self.unquoted(cell)), text, "\(cell.debugDescription)")
        }
        XCTAssertEqual(cells[9], "\"''=x\"", "a text already marked gets one more mark, so it reads back as itself")
        XCTAssertEqual(cells[11], "'-5", "a quote in front of a constant is ordinary text")
    }

    /// An RFC 4180 field's value: outer quotes off, doubled quotes single.
    private static func unquoted(_ field: String) -> String {
        guard field.hasPrefix("\""), field.hasSuffix("\""), field.count >= 2 else { return field }
        return String(field.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }
}
