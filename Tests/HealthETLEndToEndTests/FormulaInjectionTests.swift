import Foundation
import XCTest
import TestSupport

/// Issue 56, item 6: source names, device models and workout activity types come from the
/// person's export and reach `sources.csv`, `reconciliation_sources.csv`, `workouts.csv`,
/// `workout_details.csv` and `healthetl query --format csv`. A text that a spreadsheet would
/// read as a formula is written with a `'` in front (Sources/CSV/CSVFormulaGuard.swift):
/// LibreOffice shows it as text and evaluates nothing; numbers stay numbers. Python (the
/// `csv` module, pyarrow and DuckDB through Scripts/check_outputs.py, openpyxl) and LibreOffice
/// come from TestTools; without them the tests fail (run `make venv`).
final class FormulaInjectionTests: XCTestCase {
    /// OWASP's formula starts, each one as a source name, a device model and an activity type.
    static let hostile = ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(1+1)", "\t=1+1", "\r=1+1"]

    /// How the writer shows a hostile text: the guard's quote in front.
    static func marked(_ text: String) -> String { "'" + text }

    struct Failure: LocalizedError {
        var errorDescription: String?
        init(_ message: String) { errorDescription = message }
    }

    /// Text for an XML attribute: tab and CR as character references (an attribute's literal
    /// tab or CR would be read as a space).
    private static func attribute(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "\t", with: "&#9;").replacingOccurrences(of: "\r", with: "&#13;")
    }

    /// Source `i` is `hostile[i]`, its device model `hostile[i + 1]`, its workout's activity
    /// type `hostile[i + 2]` (modulo the count): each text in each role, one day each.
    private static func role(_ i: Int, _ shift: Int) -> String { hostile[(i + shift) % hostile.count] }

    private static var export: String {
        let elements = hostile.indices.flatMap { i -> [String] in
            let day = "2024-04-\(10 + i)"
            let device = attribute("<<HKDevice: 0x\(i)>, name:Watch, manufacturer:Apple Inc., model:\(role(i, 1)), "
                                   + "hardware:Watch6,2, software:10.0>")
            let record = ExportXML.record("StepCount", source: attribute(role(i, 0)), unit: "count", value: "\(1000 + i)",
                                          start: "\(day) 10:00:00 +0200", end: "\(day) 11:00:00 +0200",
                                          created: "\(day) 11:00:00 +0200", attributes: #" device="\#(device)""#)
            let workout = #"<Workout workoutActivityType="\#(attribute(role(i, 2)))" duration="45" durationUnit="min" "#
                + #"totalEnergyBurned="300" totalEnergyBurnedUnit="kcal" sourceName="\#(attribute(role(i, 0)))" "#
                + #"device="\#(device)" startDate="\#(day) 18:00:00 +0200" endDate="\#(day) 18:45:00 +0200"/>"#
            return [record, workout]
        }
        return ExportXML.document(elements, exportDate: "2024-04-19 09:00:00 +0200")
    }

    /// The hostile export imported with every output; the query results as CSV beside it.
    private func importHostileExport() throws -> (out: String, csv: [String: String]) {
        let folder = try temporaryFolder(self)
        let export = try write(Self.export, to: "export.xml", in: folder)
        let out = folder.appendingPathComponent("out").path
        let run = try healthetl(["import", export, "--out", out, "--timezone", "Europe/Berlin", "--quiet"])
        guard run.status == 0 else { throw Failure("import exited \(run.status): \(run.stderr)") }
        var files: [String: String] = [:]
        for name in ["sources", "reconciliation_sources", "workouts", "workout_details"] { files[name] = out + "/csv/\(name).csv" }
        for (name, query) in Self.queries {
            let result = try healthetl(["query", query, "--out", out, "--format", "csv"])
            guard result.status == 0 else { throw Failure("query \(query) exited \(result.status): \(result.stderr)") }
            files[name] = try write(result.stdout, to: name + ".csv", in: folder)
        }
        return (out, files)
    }

    static let queries = ["query_sources": "SELECT source, device, records FROM sources",
                          "query_workouts": "SELECT source, device, type, duration FROM workouts"]

    /// Every file's records as Python's csv module reads them.
    private func records(_ files: [String: String]) throws -> [String: [[String]]] {
        let script = #"""
import csv, json, sys
files = json.loads(sys.argv[1])
out = {}
for name, path in files.items():
    with open(path, newline="", encoding="utf-8") as f:
        out[name] = list(csv.reader(f, strict=True))
print(json.dumps(out))
"""#
        let read = try runProcess(try TestTools.python(), ["-c", script, String(decoding: try JSONEncoder().encode(files), as: UTF8.self)])
        guard read.status == 0 else { throw Failure("csv: \(read.stderr)") }
        return try JSONDecoder().decode([String: [[String]]].self, from: Data(read.stdout.utf8))
    }

    /// The cells of `columns`, each record's, in the file's order.
    private func cells(_ rows: [[String]], _ columns: [String], file: StaticString = #filePath, line: UInt = #line) -> [[String]] {
        guard let header = rows.first else { XCTFail("no header", file: file, line: line); return [] }
        let indices = columns.map { name in header.firstIndex(of: name) }
        XCTAssertFalse(indices.contains(nil), "\(columns) in \(header)", file: file, line: line)
        return rows.dropFirst().map { row in indices.map { $0.map { row[$0] } ?? "" } }
    }

    func testEveryCSVWritesHostileTextWithTheQuoteAndNumbersAsNumbers() throws {
        let (out, files) = try importHostileExport()
        let read = try records(files)
        let n = Self.hostile.count
        let sources = Set(Self.hostile.indices.map { [Self.marked(Self.role($0, 0)), Self.marked(Self.role($0, 1))] })

        XCTAssertEqual(Set(cells(read["sources"] ?? [], ["source_name", "device_model"])), sources, "sources.csv")
        XCTAssertEqual(cells(read["sources"] ?? [], ["records"]), Array(repeating: ["1"], count: n), "sources.csv: records")
        XCTAssertEqual(Set(cells(read["reconciliation_sources"] ?? [], ["source_name", "device_model", "total"])),
                       Set(Self.hostile.indices.map { [Self.marked(Self.role($0, 0)), Self.marked(Self.role($0, 1)), "\(1000 + $0).00"] }),
                       "reconciliation_sources.csv: the text marked, each source's steps as they were")
        XCTAssertEqual(Set(cells(read["workouts"] ?? [], ["activity_type", "source_name", "device_model", "duration_min"])),
                       Set(Self.hostile.indices.map { i in [Self.role(i, 2), Self.role(i, 0), Self.role(i, 1)].map(Self.marked) + ["45.00"] }),
                       "workouts.csv")
        XCTAssertEqual(Set(cells(read["workout_details"] ?? [], ["activity", "energy_kcal"])),
                       Set(Self.hostile.map { [Self.marked($0), "300.0"] }), "workout_details.csv")
        XCTAssertEqual(Set(cells(read["query_sources"] ?? [], ["source", "device", "records"])),
                       Set(sources.map { $0 + ["1"] }), "query --format csv")
        XCTAssertEqual(Set(cells(read["query_workouts"] ?? [], ["source", "device", "duration"])),
                       Set(sources.map { $0 + ["45"] }), "query --format csv")
        // The activity type as a query label (lower-cased, `_` for `-` and spaces): still no formula.
        for type in cells(read["query_workouts"] ?? [], ["type"]).map({ $0[0] }) {
            XCTAssertFalse(["=", "+", "-", "@", "\t", "\r"].contains(type.prefix(1)), "query type \(type.debugDescription)")
        }

        // Every other cell of every CSV file equals the store's value (the mark taken off), and no
        // text cell of any of them starts a formula unmarked.
        let check = try runProcess(try TestTools.python(importing: ["pyarrow", "duckdb"]), [TestPaths.script("check_outputs.py"), out], timeout: 300)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }

    /// LibreOffice Calc (headless) opens each CSV, saves it as xlsx, and openpyxl reads it back:
    /// no cell is a formula, every hostile text shows as itself behind the quote, and the
    /// numbers are numbers.
    func testLibreOfficeShowsTheTextAndEvaluatesNoFormula() throws {
        let python = try TestTools.python(importing: ["openpyxl"])
        let (_, files) = try importHostileExport()
        let folder = try temporaryFolder(self)
        let sheets = folder.appendingPathComponent("xlsx")
        try FileManager.default.createDirectory(at: sheets, withIntermediateDirectories: true)
        let convert = try TestTools.convertCSVToXLSX(files.values.sorted(), into: sheets.path, profileIn: folder, timeout: 300)
        let books = files.keys.map { ($0, sheets.appendingPathComponent($0 + ".xlsx").path) }
        for (name, path) in books where !FileManager.default.fileExists(atPath: path) {
            return XCTFail("soffice made no \(name).xlsx (exit \(convert.status)): \(convert.stdout) \(convert.stderr)")
        }
        // Each cell as [its value as text, openpyxl's data type: s text, n number, f formula…].
        let script = #"""
import json, sys, openpyxl
out = {}
for name, path in json.loads(sys.argv[1]).items():
    sheet = openpyxl.load_workbook(path).active
    out[name] = [[[str(c.value) if c.value is not None else "", c.data_type] for c in row] for row in sheet.iter_rows()]
print(json.dumps(out))
"""#
        let paths = Dictionary(uniqueKeysWithValues: books)
        let read = try runProcess(python, ["-c", script, String(decoding: try JSONEncoder().encode(paths), as: UTF8.self)])
        XCTAssertEqual(read.status, 0, read.stderr)
        let opened = try JSONDecoder().decode([String: [[[String]]]].self, from: Data(read.stdout.utf8))
        let written = try records(files)

        for (name, rows) in opened.sorted(by: { $0.key < $1.key }) {
            var shown: Set<String> = []
            let formulas = rows.joined().filter { $0[1] == "f" }.map { $0[0] }
            XCTAssertEqual(formulas, [], "\(name): LibreOffice read formulas")
            let csv = try XCTUnwrap(written[name])
            XCTAssertEqual(rows.count, csv.count, name)
            for (sheetRow, csvRow) in zip(rows, csv) {
                for (cell, text) in zip(sheetRow, csvRow) where Self.hostile.contains(where: { Self.marked($0) == text }) {
                    // LibreOffice keeps a line break in a cell as LF.
                    XCTAssertEqual(cell, [text.replacingOccurrences(of: "\r", with: "\n"), "s"], "\(name): \(text.debugDescription)")
                    shown.insert(text)
                }
            }
            XCTAssertEqual(shown, Set(Self.hostile.map(Self.marked)), "\(name): every hostile text, marked")
        }
        let records = opened["sources"].map { rows in rows.dropFirst().map { $0[3] } } ?? []
        XCTAssertEqual(records, Array(repeating: ["1", "n"], count: Self.hostile.count), "sources.csv: records are numbers")
    }
}
