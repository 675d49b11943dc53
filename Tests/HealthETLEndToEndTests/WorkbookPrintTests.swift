import Foundation
import XCTest
import TestSupport

/// Issues 33 and 45: `health.xlsx` as a person shares it, checked by `Scripts/check_workbook_print.py`:
/// openpyxl reads the page setup (landscape at full size, the header row and key columns on
/// every page, the sheet's name and page number), wrapped headers, the number formats (`#,##0`,
/// `[h]:mm`, years without separators), the local bedtimes, wakes and workout starts against the
/// store, the workout names, no always-empty column and no ECG sheet without recordings;
/// LibreOffice prints it to PDF and pypdf reads each page: its sheet, its page number, the key
/// columns, and a wide sheet split over pages rather than shrunk.
final class WorkbookPrintTests: XCTestCase {
    private static let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path

    func testTheWorkbookPrintsSplitAcrossPagesWithKeyColumnsLocalTimesAndFormats() throws {
        let dir = try temporaryFolder(self)
        let pipeline = dir.appendingPathComponent("p.json").path
        try JSONSerialization.data(withJSONObject: ["outputs": ["sqlite", "xlsx"]]).write(to: URL(fileURLWithPath: pipeline))
        let out = dir.appendingPathComponent("out").path
        let r = try healthetl(["import", Self.sample, "--out", out, "--pipeline", pipeline, "--quiet", "--timezone", "America/New_York"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let python = try TestTools.python(importing: ["openpyxl", "pypdf"])
        let script = TestPaths.script("check_workbook_print.py")
        let check = try runProcess(python, [script, out, "America/New_York", dir.appendingPathComponent("work").path, "--no-ecg"],
                                   timeout: 600, environment: try TestTools.libreOfficeEnvironment())
        XCTAssertEqual(check.status, 0, String(check.stdout.suffix(3000)) + String(check.stderr.suffix(2000)))
        XCTAssertTrue(check.stdout.contains("workbook print checks passed"), String(check.stdout.suffix(2000)))
        print(check.stdout.split(separator: "\n").filter { $0.hasPrefix("pages") }.joined())
    }
}
