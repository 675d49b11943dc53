import Foundation
import XCTest
import TestSupport
@testable import Spreadsheet

/// The xlsx writer alone (no health types): every part is a valid zip entry (CRC checked by
/// Python's zipfile), openpyxl reads every value, type and format back, the header is frozen
/// and filtered, and text that XML must escape survives.
final class WorkbookWriterTests: XCTestCase {
    func testAWorkbookReadsBackInOpenpyxl() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("xlsx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("book.xlsx").path
        let writer = try WorkbookWriter(path: path)
        let texts = ["plain", "a & b < c > \"d\"", "Zürich 日本 🫀", "tab\there", "ctrl\u{1}dropped"]
        try writer.addSheet("Numbers: [first]", columns: [SheetColumn("Date", .date), SheetColumn("Count", .number(places: 0)),
                                                          SheetColumn("Value (km)", .number(places: 2)), SheetColumn("Name", .text),
                                                          SheetColumn("At", .dateTime)]) { emit in
            for i in 0..<3000 {
                try emit([.date(19_800 + i), .number(Double(i * 7)), i % 10 == 0 ? .empty : .number(Double(i) / 3),
                          .text(texts[i % texts.count]), .dateTime(1_710_000_000 + Double(i) * 90)])
            }
        }
        try writer.addSheet("Empty", columns: [SheetColumn("Only", .text)]) { _ in }
        try writer.close()
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasPrefix(".") }, "no temporary left")
        let script = """
            import sys, zipfile, json, datetime, openpyxl
            z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None, 'bad CRC'
            wb = openpyxl.load_workbook(sys.argv[1])
            out = {'sheets': wb.sheetnames}
            ws = wb[wb.sheetnames[0]]
            out['freeze'] = ws.freeze_panes; out['filter'] = ws.auto_filter.ref; out['max_row'] = ws.max_row
            out['header'] = [c.value for c in ws[1]]
            r = ws[12]
            out['row12'] = [r[0].value.isoformat(), r[1].value, r[2].value, r[3].value, r[4].value.isoformat()]
            f = ws[13]
            out['formats'] = [f[0].number_format, f[1].number_format, f[2].number_format, f[4].number_format]
            out['blank'] = ws['C2'].value
            out['texts'] = [ws.cell(row=2 + i, column=4).value for i in range(5)]
            out['empty_rows'] = wb['Empty'].max_row
            print(json.dumps(out))
            """
        let python = try TestTools.python(importing: ["openpyxl"])
        let result = try runProcess(python, ["-c", script, path], timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        let data = Data(result.stdout.utf8)
        let out = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(out["sheets"] as? [String], ["Numbers_ _first_", "Empty"])
        XCTAssertEqual(out["freeze"] as? String, "A2")
        XCTAssertEqual(out["filter"] as? String, "A1:E3001")
        XCTAssertEqual(out["max_row"] as? Int, 3001)
        XCTAssertEqual(out["header"] as? [String], ["Date", "Count", "Value (km)", "Name", "At"])
        let row = try XCTUnwrap(out["row12"] as? [Any])   // i = 10
        XCTAssertEqual(row[0] as? String, "2024-03-28T00:00:00")   // day 19,810 since 1970
        XCTAssertEqual(row[1] as? Int, 70)
        XCTAssertTrue(row[2] is NSNull, "i = 10 is empty")
        XCTAssertEqual(row[3] as? String, "plain")
        XCTAssertEqual(row[4] as? String, "2024-03-09T16:15:00")
        XCTAssertEqual(out["formats"] as? [String], ["yyyy-mm-dd", "0", "0.00", "yyyy-mm-dd hh:mm:ss"])
        XCTAssertEqual(out["texts"] as? [String], ["plain", "a & b < c > \"d\"", "Zürich 日本 🫀", "tab\there", "ctrldropped"])
        XCTAssertEqual(out["empty_rows"] as? Int, 1)
    }

    /// Headers wrap at their column's width, words whole; a column is as wide as its longest
    /// header word (and its kind's values), not its whole header.
    func testHeadersWrapAndColumnsFitTheirLongestWord() {
        let distance = SheetColumn("Walking distance (km)", .grouped(places: 2))
        XCTAssertEqual(distance.shownWidth, 10, "the longest word 'distance' and room for numbers")
        XCTAssertEqual(distance.headerLines, 3, "Walking / distance / (km)")
        XCTAssertEqual(SheetColumn("Steps", .number(places: 0)).headerLines, 1)
        XCTAssertEqual(SheetColumn("Date", .date).shownWidth, 12)
        XCTAssertEqual(SheetColumn("Respiratory", .text, width: 30).headerLines, 1)
    }

    /// The print titles repeat the header row and the key columns, quoted as spreadsheets quote.
    func testPrintTitlesRepeatTheHeaderRowAndTheKeyColumns() {
        XCTAssertEqual(PageSetup.shareable.printTitles(sheet: "'Daily'", columns: 19), "'Daily'!$A:$A,'Daily'!$1:$1")
        XCTAssertEqual(PageSetup(repeatedColumns: 2).printTitles(sheet: "'M'", columns: 5), "'M'!$A:$B,'M'!$1:$1")
        XCTAssertEqual(PageSetup(repeatedColumns: 3).printTitles(sheet: "'M'", columns: 2), "'M'!$A:$B,'M'!$1:$1", "never past the last column")
        XCTAssertNil(PageSetup(repeatHeaderRow: false, repeatedColumns: 0).printTitles(sheet: "'M'", columns: 2))
    }
}
