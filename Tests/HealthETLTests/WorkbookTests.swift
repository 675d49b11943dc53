import Foundation
import XCTest

/// Issue 25: `health.xlsx`, units and the CSV dialects, checked by real readers through
/// `Scripts/check_workbook.py`: openpyxl (every sheet and value against the store, date cells,
/// frozen header), LibreOffice (the workbook back to CSV; the semicolon CSV with a German
/// locale), and an imperial run against a metric one over the same store.
final class WorkbookTests: XCTestCase {
    private static let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path

    private func importSample(into dir: URL, _ name: String, _ settings: [String: Any]) throws -> String {
        var pipeline: [String: Any] = ["outputs": ["sqlite", "csv", "xlsx"]]
        pipeline.merge(settings) { $1 }
        let path = dir.appendingPathComponent("\(name).json").path
        try JSONSerialization.data(withJSONObject: pipeline).write(to: URL(fileURLWithPath: path))
        let out = dir.appendingPathComponent(name).path
        let r = try healthetl(["import", Self.sample, "--out", out, "--pipeline", path, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return out
    }

    func testTheWorkbookUnitsAndDialectsReadBackInRealSpreadsheets() throws {
        let dir = try temporaryFolder(self)
        let metric = try importSample(into: dir, "metric", [:])
        let imperial = try importSample(into: dir, "imperial", ["units": "imperial"])
        let semicolon = try importSample(into: dir, "semicolon", ["csvDialect": "excel-semicolon"])
        let python = ProcessInfo.processInfo.environment["HEALTHETL_PYTHON"]
            ?? TestPaths.packageRoot.appendingPathComponent(".venv/bin/python").path
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/HealthETLTests/Scripts/check_workbook.py").path
        let r = try runProcess(python, [script, metric, imperial, semicolon, dir.appendingPathComponent("work").path], timeout: 600)
        XCTAssertEqual(r.status, 0, String(r.stdout.suffix(3000)) + String(r.stderr.suffix(2000)))
        XCTAssertTrue(r.stdout.contains("workbook checks passed"), String(r.stdout.suffix(2000)))
    }

    func testUnknownUnitsAndDialectsAreUsageErrors() throws {
        let dir = try temporaryFolder(self)
        for (key, value) in [("units", "furlongs"), ("csvDialect", "tabs")] {
            let path = dir.appendingPathComponent("\(key).json").path
            try JSONSerialization.data(withJSONObject: [key: value]).write(to: URL(fileURLWithPath: path))
            let r = try healthetl(["import", Self.sample, "--out", dir.appendingPathComponent(key).path, "--pipeline", path])
            XCTAssertEqual(r.status, 64, r.stderr)
            XCTAssertTrue(r.stderr.contains(value), r.stderr)
        }
    }
}
