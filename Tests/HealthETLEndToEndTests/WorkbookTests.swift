import Foundation
import XCTest
import TestSupport

/// Issue 25: `health.xlsx`, units and the CSV dialects, checked by real readers through
/// `Scripts/check_workbook.py`: openpyxl (every sheet and value against the store, date cells,
/// frozen header), LibreOffice (the workbook back to CSV; the semicolon CSV with a German
/// locale), and an imperial run against a metric one over the same store.
final class WorkbookTests: XCTestCase {
    private static let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path

    /// The sample export as a folder with two ECG recordings beside it (for the ECG sheet).
    private func sampleWithECG(in dir: URL) throws -> String {
        let root = dir.appendingPathComponent("apple_health_export")
        let ecg = root.appendingPathComponent("electrocardiograms")
        try FileManager.default.createDirectory(at: ecg, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.sample, toPath: root.appendingPathComponent("export.xml").path)
        try write(ECGText.english(voltages: ECGText.voltageTexts(600, seed: 3)), to: "ecg_2020-03-15.csv", in: ecg)
        try write(ECGText.english(recorded: "2020-04-02 21:05:10 +0200", classification: "Inconclusive", device: "Watch6,2",
                                   voltages: ECGText.voltageTexts(300, seed: 4)), to: "ecg_2020-04-02.csv", in: ecg)
        return root.path
    }

    private func importSample(into dir: URL, _ name: String, _ settings: [String: Any]) throws -> String {
        var pipeline: [String: Any] = ["outputs": ["sqlite", "csv", "xlsx"]]
        pipeline.merge(settings) { $1 }
        let path = dir.appendingPathComponent("\(name).json").path
        try JSONSerialization.data(withJSONObject: pipeline).write(to: URL(fileURLWithPath: path))
        let out = dir.appendingPathComponent(name).path
        let export = try sampleWithECG(in: dir.appendingPathComponent("export-\(name)"))
        let r = try healthetl(["import", export, "--out", out, "--pipeline", path, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return out
    }

    func testTheWorkbookUnitsAndDialectsReadBackInRealSpreadsheets() throws {
        let dir = try temporaryFolder(self)
        let metric = try importSample(into: dir, "metric", [:])
        let imperial = try importSample(into: dir, "imperial", ["units": "imperial"])
        let semicolon = try importSample(into: dir, "semicolon", ["csvDialect": "excel-semicolon"])
        let python = try TestTools.python(importing: ["openpyxl"])
        let script = TestPaths.script("check_workbook.py")
        let r = try runProcess(python, [script, metric, imperial, semicolon, dir.appendingPathComponent("work").path], timeout: 600,
                               environment: try TestTools.libreOfficeEnvironment())
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
