import Foundation
@testable import HealthEmit
@testable import SQLite
import XCTest
import TestSupport

/// The CSV and Parquet files of whole imports, checked against the store by
/// `Scripts/check_outputs.py`: every Parquet file read by pyarrow and by DuckDB, every CSV file
/// by Python's `csv` module, each value compared with the SQLite tables (see the script).
/// Python and LibreOffice come from TestTools (without pyarrow and duckdb the tests fail: run
/// `make venv`).
final class OutputFilesTests: XCTestCase {
    static let checker = TestPaths.script("check_outputs.py")
    static let sampleExport = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path

    struct Failure: LocalizedError, CustomStringConvertible {
        var description: String
        var errorDescription: String? { description }
        init(_ message: String) { description = message }
    }

    // MARK: Helpers

    /// Imports `export` into `folder/name` with the settings the checker's expectations assume.
    @discardableResult
    private func importExport(_ export: String, into folder: URL, name: String = "out") throws -> String {
        let out = folder.appendingPathComponent(name).path
        let result = try healthetl(["import", export, "--out", out, "--timezone", "Europe/Berlin", "--quiet"])
        guard result.status == 0 else { throw Failure("import \(export) exited \(result.status): \(result.stderr)") }
        return out
    }

    private func check(_ out: String) throws -> ProcessResult {
        try runProcess(try TestTools.python(importing: ["pyarrow", "duckdb"]), [Self.checker, out], timeout: 300)
    }

    private func assertChecks(_ out: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try check(out)
        XCTAssertEqual(result.status, 0, "check_outputs.py \(out):\n\(result.stdout)\(result.stderr)", file: file, line: line)
        // Every file was really looked at, not just found.
        for name in ["samples", "daily", "weekly", "monthly", "yearly", "workouts", "sleep", "activity_summaries",
                     "ecg_recordings", "ecg_samples"] {
            XCTAssertTrue(result.stdout.contains("parquet/\(name).parquet: "), "\(name).parquet not checked:\n\(result.stdout)",
                          file: file, line: line)
            if !["samples", "ecg_samples"].contains(name) {
                XCTAssertTrue(result.stdout.contains("csv/\(name).csv: "), "\(name).csv not checked:\n\(result.stdout)",
                              file: file, line: line)
            }
        }
    }

    /// Replaces a file's bytes keeping it 0600, as the exporter leaves it.
    private func overwrite(_ path: String, with data: Data) throws {
        try data.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }

    // MARK: Whole imports

    func testSampleExportFilesMatchTheStore() throws {
        let folder = try temporaryFolder(self)
        try assertChecks(try importExport(Self.sampleExport, into: folder))
    }

    func testGeneratedZipExportFilesMatchTheStore() throws {
        let folder = try temporaryFolder(self)
        let export = folder.appendingPathComponent("export.zip").path
        try generateExport(["--out", export, "--layout", "zip", "--days", "20", "--seed", "5", "--zone", "Europe/Berlin"])
        try assertChecks(try importExport(export, into: folder))
    }

    /// Every samples file is written by `SeriesSamplesWriter` (from the rows a full import's
    /// analytics read, or read here for an incremental run and the dataset's years); the export
    /// of `OutputTable.samples` by SQL (`TableExporter`) is the reference it must equal, byte for byte.
    func testSamplesFromTheSeriesEqualTheSQLExport() throws {
        let folder = try temporaryFolder(self)
        let generated = folder.appendingPathComponent("export.xml").path
        try generateExport(["--out", generated, "--days", "30", "--seed", "11", "--zone", "Europe/Berlin"])
        for (index, export) in [Self.sampleExport, generated].enumerated() {
            let out = try importExport(export, into: folder, name: "out\(index)")
            let database = try Database(path: out + "/health.sqlite", mode: .readOnly)
            let again = folder.appendingPathComponent("samples-\(index).parquet").path
            let rows = try TableExporter(database: database).export(.samples, csv: nil, parquet: again)
            XCTAssertGreaterThan(rows, 5_000, export)
            let written = try Data(contentsOf: URL(fileURLWithPath: out + "/parquet/samples.parquet"))
            XCTAssertEqual(written, try Data(contentsOf: URL(fileURLWithPath: again)), export)
        }
    }

    /// The checker is not a rubber stamp: one edited CSV cell, a Parquet file from another
    /// import, a file left 0644 each make it fail, naming the file.
    func testCheckerReportsCorruptedFiles() throws {
        let folder = try temporaryFolder(self)
        let out = try importExport(Self.sampleExport, into: folder)
        let other = folder.appendingPathComponent("other.xml").path
        try generateExport(["--out", other, "--days", "5", "--seed", "9"])
        let otherOut = try importExport(other, into: folder, name: "other-out")
        let baseline = try check(out)
        XCTAssertEqual(baseline.status, 0, baseline.stdout + baseline.stderr)

        // 1. One CSV cell: the steps of the first day, plus one.
        let csvPath = out + "/csv/daily.csv"
        let original = try Data(contentsOf: URL(fileURLWithPath: csvPath))
        var lines = String(decoding: original, as: UTF8.self).components(separatedBy: "\r\n")
        var cells = lines[1].components(separatedBy: ",")
        let stepsIndex = try XCTUnwrap(lines[0].components(separatedBy: ",").firstIndex(of: "steps"))
        let steps = try XCTUnwrap(Int(cells[stepsIndex]), "first day has steps: \(lines[1])")
        cells[stepsIndex] = String(steps + 1)
        lines[1] = cells.joined(separator: ",")
        try overwrite(csvPath, with: Data(lines.joined(separator: "\r\n").utf8))
        var result = try check(out)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("csv/daily.csv") && result.stderr.contains("column steps: file \(steps + 1) != store \(steps)"),
                      result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("  ") }.count, 1,
                       "exactly one problem expected:\n\(result.stderr)")

        // 2. A decimal cell printed with one more place than its column.
        let distanceIndex = try XCTUnwrap(lines[0].components(separatedBy: ",").firstIndex(of: "walking_distance_m"))
        cells[stepsIndex] = String(steps)
        cells[distanceIndex] += "0"
        lines[1] = cells.joined(separator: ",")
        try overwrite(csvPath, with: Data(lines.joined(separator: "\r\n").utf8))
        result = try check(out)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("csv/daily.csv: column walking_distance_m: cells print [2, 3] decimals"), result.stderr)
        try overwrite(csvPath, with: original)

        // 3. A Parquet file from another import (same schema, other rows).
        let parquetPath = out + "/parquet/daily.parquet"
        let parquet = try Data(contentsOf: URL(fileURLWithPath: parquetPath))
        try overwrite(parquetPath, with: try Data(contentsOf: URL(fileURLWithPath: otherOut + "/parquet/daily.parquet")))
        result = try check(out)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("parquet/daily.parquet: pyarrow: "), result.stderr)
        XCTAssertTrue(result.stderr.contains("parquet/daily.parquet: DuckDB: "), result.stderr)
        XCTAssertFalse(result.stderr.contains("csv/daily.csv"), result.stderr)
        try overwrite(parquetPath, with: parquet)

        // 4. A file readable by others.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: out + "/csv/weekly.csv")
        result = try check(out)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("csv/weekly.csv: file mode 0644, want 0600"), result.stderr)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: out + "/csv/weekly.csv")

        // Restored: clean again.
        result = try check(out)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    // MARK: Spreadsheet

    /// `csv/daily.csv` opened by LibreOffice Calc (headless, converted to xlsx) and read back
    /// with openpyxl: the header, a real date, a real number equal to the store's.
    func testDailyCSVOpensAsASpreadsheet() throws {
        let python = try TestTools.python(importing: ["openpyxl"])

        let folder = try temporaryFolder(self)
        let out = try importExport(Self.sampleExport, into: folder)
        let csvPath = out + "/csv/daily.csv"
        let header = try XCTUnwrap(String(contentsOfFile: csvPath, encoding: .utf8).components(separatedBy: "\r\n").first)
            .components(separatedBy: ",")
        let stored = try queryRows(out + "/health.sqlite", "SELECT date, steps, (SELECT count(*) FROM daily_analytics) "
                                   + "FROM daily_analytics ORDER BY date LIMIT 1")
        let firstDate = try XCTUnwrap(stored.first?[0].string)
        let firstSteps = try XCTUnwrap(stored.first?[1].int, "the sample's first day has steps")
        let days = try XCTUnwrap(stored.first?[2].int)

        let sheets = folder.appendingPathComponent("xlsx")
        try FileManager.default.createDirectory(at: sheets, withIntermediateDirectories: true)
        let convert = try TestTools.convertCSVToXLSX([csvPath], into: sheets.path, profileIn: folder)
        let xlsx = sheets.appendingPathComponent("daily.xlsx").path
        guard FileManager.default.fileExists(atPath: xlsx) else {
            return XCTFail("soffice made no xlsx (exit \(convert.status)): \(convert.stdout) \(convert.stderr)")
        }

        let script = #"""
import datetime, json, sys, openpyxl
rows = list(openpyxl.load_workbook(sys.argv[1]).active.iter_rows(values_only=True))
header, first = rows[0], rows[1]
steps = first[header.index("steps")]
print(json.dumps({
    "rows": len(rows), "header": list(header),
    "dateType": type(first[0]).__name__, "date": first[0].isoformat() if hasattr(first[0], "isoformat") else first[0],
    "stepsType": type(steps).__name__, "steps": steps,
}))
"""#
        let read = try runProcess(python, ["-c", script, xlsx])
        XCTAssertEqual(read.status, 0, read.stderr)
        struct Sheet: Decodable {
            var rows: Int; var header: [String]; var dateType: String; var date: String; var stepsType: String; var steps: Double
        }
        let sheet = try JSONDecoder().decode(Sheet.self, from: Data(read.stdout.utf8))
        XCTAssertEqual(sheet.header, header)
        XCTAssertEqual(sheet.rows, Int(days) + 1)
        XCTAssertTrue(["datetime", "date"].contains(sheet.dateType), "date cell read as \(sheet.dateType): \(sheet.date)")
        XCTAssertEqual(String(sheet.date.prefix(10)), firstDate)
        XCTAssertTrue(["int", "float"].contains(sheet.stepsType), "steps cell read as \(sheet.stepsType)")
        XCTAssertEqual(sheet.steps, Double(firstSteps))
    }
}
