import Foundation
import XCTest
import TestSupport

/// Issue 60, part 2 (docs/cycles.md): the cycle scenario `mixed` of tools/cycle_scenarios.py — a
/// period across the export's first day, regular and irregular cycles, a skipped month, spotting
/// between periods, a day not logged inside a period — written by both generators and imported.
/// Its `cycles` rows must equal the hand count the scenario module prints from its own listed
/// days (`expect`), in every output, each read by a real reader: CSV here, Parquet (pyarrow),
/// the workbook (openpyxl) and the MCP server (the mcp SDK) in check_cycles.py, HealthQL, FHIR's
/// JSON, and the report's Cycles section in headless Chromium at a true 390 px. A person without
/// cycle data gets empty tables and no section; `reset` takes the cycles with everything else.
final class CycleTrackingTests: XCTestCase {
    static let start = "2025-01-06"
    static let scenarios = TestPaths.packageRoot.appendingPathComponent("tools/cycle_scenarios.py").path
    /// Days from 1970 to a `YYYY-MM-DD`.
    enum CivilDay {
        static func epochDays(_ text: String) -> Int {
            let f = DateFormatter(); f.locale = Locale(identifier: "en_US_POSIX"); f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = "yyyy-MM-dd"
            return Int(f.date(from: text)!.timeIntervalSince1970 / 86_400)
        }
    }
    static let healthConnectGenerator = TestPaths.packageRoot.appendingPathComponent("tools/health_connect/generate.py").path

    /// The rows the scenario's own listed days give (never the Swift code's), as JSON objects.
    private func expected(_ platform: String, into dir: URL) throws -> (rows: [[String: Any]], path: String) {
        let run = try runProcess(try TestTools.python(), [Self.scenarios, "expect", "mixed", "--platform", platform,
                                                          "--start", Self.start])
        XCTAssertEqual(run.status, 0, run.stderr)
        let path = dir.appendingPathComponent("expected-\(platform).json").path
        try run.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return (try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]), path)
    }

    private func importInto(_ dir: URL, _ export: String) throws -> String {
        let out = dir.appendingPathComponent("out").path
        let r = try healthetl(["import", export, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return out
    }

    /// `csv/cycles.csv` as rows of strings by column (empty cells "").
    private func csvRows(_ out: String, _ table: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: "\(out)/csv/\(table).csv", encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    private func assertCSV(_ out: String, equal expected: [[String: Any]], file: StaticString = #filePath, line: UInt = #line) throws {
        let rows = try csvRows(out, "cycles")
        XCTAssertEqual(rows.count, expected.count, file: file, line: line)
        for (got, want) in zip(rows, expected) {
            for (column, value) in want {
                let text = value is NSNull ? "" : "\(value)"
                XCTAssertEqual(got[column], text, "\(want["start_date"] ?? "") \(column)", file: file, line: line)
            }
        }
    }

    private func check(_ out: String, _ expectedPath: String, mcp: Bool) throws {
        let python = try TestTools.python(importing: mcp ? ["pyarrow", "openpyxl", "mcp"] : ["pyarrow", "openpyxl"])
        let run = try runProcess(python, [TestPaths.script("check_cycles.py"), out, expectedPath, TestPaths.binary]
                                 + (mcp ? ["--mcp"] : []), timeout: 120)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "OK")
    }

    func testAppleCyclesInEveryOutput() throws {
        let dir = try temporaryFolder(self)
        let export = dir.appendingPathComponent("export.xml").path
        try generateExport(["--out", export, "--days", "150", "--start", Self.start, "--scale", "0.05", "--cycles", "mixed"])
        let out = try importInto(dir, export)
        let (expected, path) = try expected("apple", into: dir)
        try assertCSV(out, equal: expected)
        try check(out, path, mcp: false)

        // HealthQL: the cycle lengths, the partial first and the open last one empty.
        let query = try healthetl(["query", "SELECT date, cycle_length, start_from FROM cycles", "--out", out, "--format", "json"])
        XCTAssertEqual(query.status, 0, query.stderr)
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(answer.map { $0["date"] as? String }, expected.map { $0["start_date"] as? String })
        XCTAssertEqual(answer.map { $0["cycle_length"] as? Int }, expected.map { $0["cycle_length_days"] as? Int })
        // Day numbers: the period across the first day has none (its first day is unknown).
        let days = try csvRows(out, "cycle_days")
        XCTAssertEqual(days.first { $0["date"] == Self.start }?["cycle_day"], "")
        XCTAssertEqual(days.first { $0["date"] == "2025-02-02" }?["in_period"], "1", "the day not logged inside a period")
        XCTAssertEqual(days.first { $0["date"] == "2025-02-02" }?["cycle_day"], "4")

        // FHIR: one Observation a cycle, LOINC 8665-2, the period's length 3144-3, no length where unknown.
        let fhir = try healthetl(["export-fhir", "--out", out])
        XCTAssertEqual(fhir.status, 0, fhir.stderr)
        let cycles = try String(contentsOfFile: out + "/fhir/Observation.ndjson", encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { (($0["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String == "8665-2" }
        XCTAssertEqual(cycles.map { $0["valueDateTime"] as? String }, expected.map { $0["start_date"] as? String })
        func component(_ o: [String: Any], _ code: String) -> Double? {
            (o["component"] as? [[String: Any]] ?? []).first { c in
                ((c["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.contains { $0["code"] as? String == code } ?? false
            }.flatMap { ($0["valueQuantity"] as? [String: Any])?["value"] as? Double }
        }
        XCTAssertEqual(cycles.map { component($0, "3144-3").map(Int.init) }, expected.map { $0["period_days"] as? Int })
        XCTAssertEqual(cycles.map { component($0, "HKMenstrualCycle.length").map(Int.init) },
                       expected.map { $0["cycle_length_days"] as? Int })
        // Every line (the cycles' among them) parses as an R4B resource; codes, systems, references.
        let valid = try runProcess(try TestTools.python(importing: ["fhir.resources.R4B.observation"]),
                                   [TestPaths.script("check_fhir.py"), out], timeout: 300)
        XCTAssertEqual(valid.status, 0, valid.stdout + valid.stderr)

        try checkReportAtPhoneWidth(out + "/report/index.html", in: dir)
    }

    func testHealthConnectCyclesEqualTheHandCount() throws {
        let dir = try temporaryFolder(self)
        let scenario = dir.appendingPathComponent("empty.json")
        try #"{"apps": [], "records": []}"#.write(to: scenario, atomically: true, encoding: .utf8)
        let export = dir.appendingPathComponent("health_connect_export.zip").path
        let gen = try runProcess(try TestTools.python(), [Self.healthConnectGenerator, scenario.path, export,
                                                          "--cycles", "mixed", "--start", Self.start])
        XCTAssertEqual(gen.status, 0, gen.stderr)
        let out = try importInto(dir, export)
        let (expected, path) = try expected("health-connect", into: dir)
        // Where the platforms differ: Health Connect has no start key (the rule, or its period record).
        XCTAssertEqual(expected.map { $0["start_from"] as? String },
                       ["rule", "rule", "Health Connect period", "rule", "rule"])
        try assertCSV(out, equal: expected)
        try check(out, path, mcp: true)
        // Every CSV and Parquet file, the cycle tables' among them, equal to the store (pyarrow, DuckDB).
        let files = try runProcess(try TestTools.python(importing: ["pyarrow", "duckdb"]),
                                   [TestPaths.script("check_outputs.py"), out], timeout: 120)
        XCTAssertEqual(files.status, 0, files.stdout + files.stderr)
    }

    /// A nightly run that adds the later records (the last period among them) gives the cycle
    /// tables of a full import: the cycle before the new one gets its length.
    func testANightlyRunGivesTheCyclesOfAFullImport() throws {
        let dir = try temporaryFolder(self)
        let scenario = dir.appendingPathComponent("empty.json")
        try #"{"apps": [], "records": []}"#.write(to: scenario, atomically: true, encoding: .utf8)
        let full = dir.appendingPathComponent("full.db").path, part = dir.appendingPathComponent("part.db").path
        let gen = try runProcess(try TestTools.python(), [Self.healthConnectGenerator, scenario.path, full,
                                                          "--cycles", "mixed", "--start", Self.start])
        XCTAssertEqual(gen.status, 0, gen.stderr)
        // The first export: everything before day 100 (the last period starts on day 139).
        let cut = try runProcess(try TestTools.python(), ["-c", """
            import shutil, sqlite3, sys
            shutil.copy(sys.argv[1], sys.argv[2]); db = sqlite3.connect(sys.argv[2]); cut = int(sys.argv[3])
            for t in ["menstruation_flow_record_table", "intermenstrual_bleeding_record_table", "ovulation_test_record_table",
                      "cervical_mucus_record_table", "basal_body_temperature_record_table", "sexual_activity_record_table"]:
                db.execute(f"DELETE FROM {t} WHERE time > ?", (cut,))
            db.execute("DELETE FROM menstruation_period_record_table WHERE start_time > ?", (cut,)); db.commit()
            """, full, part, String((CivilDay.epochDays(Self.start) + 100) * 86_400_000)])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        let nightly = dir.appendingPathComponent("nightly").path, fresh = dir.appendingPathComponent("fresh").path
        for (export, out) in [(part, nightly), (full, nightly), (full, fresh)] {
            let r = try healthetl(["import", export, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertEqual(try csvRows(nightly, "cycles").count, 5)
        for table in ["cycles", "cycle_days"] {
            XCTAssertEqual(try String(contentsOfFile: "\(nightly)/csv/\(table).csv", encoding: .utf8),
                           try String(contentsOfFile: "\(fresh)/csv/\(table).csv", encoding: .utf8), table)
        }
    }

    /// No cycle data: empty tables, no section, no sheet; and `reset` removes the cycles of a
    /// person who has them, with every other output (`--keep-profile` empties the tables).
    func testNoCycleDataAndReset() throws {
        let dir = try temporaryFolder(self)
        let out = try importInto(dir, TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path)
        XCTAssertEqual(try String(contentsOfFile: out + "/csv/cycles.csv", encoding: .utf8).split(whereSeparator: \.isNewline).count, 1)
        let page = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertFalse(page.contains(#"id="cycles""#))
        XCTAssertFalse(page.contains("#cycles"))
        let sheets = try runProcess(try TestTools.python(importing: ["openpyxl"]),
                                    ["-c", "import openpyxl,sys; print(openpyxl.load_workbook(sys.argv[1], read_only=True).sheetnames)",
                                     out + "/health.xlsx"])
        XCTAssertFalse(sheets.stdout.contains("Cycle"), sheets.stdout)

        let cycles = dir.appendingPathComponent("cycles")
        try FileManager.default.createDirectory(at: cycles, withIntermediateDirectories: true)
        let export = cycles.appendingPathComponent("export.xml").path
        try generateExport(["--out", export, "--days", "150", "--start", Self.start, "--scale", "0.02", "--cycles", "mixed"])
        let person = try importInto(cycles, export)
        func count(_ table: String) throws -> String {
            let r = try healthetl(["query", "SELECT count(*) AS n FROM \(table)", "--out", person, "--format", "csv"])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        }
        XCTAssertEqual(try count("cycles"), "5")
        XCTAssertEqual(try healthetl(["reset", "--out", person, "--keep-profile", "--yes"]).status, 0)
        XCTAssertEqual(try count("cycles"), "0")
        XCTAssertEqual(try count("cycle_days"), "0")
        let reset = try healthetl(["reset", "--out", person, "--yes"])
        XCTAssertEqual(reset.status, 0, reset.stderr)
        let left = (FileManager.default.enumerator(atPath: person)?.allObjects as? [String]) ?? []
        XCTAssertEqual(left.filter { $0.contains("cycle") || $0.hasSuffix(".sqlite") || $0.hasSuffix(".xlsx") }, [],
                       "nothing of the cycles left in \(left)")
    }

    /// The report's Cycles section inside a 390 px iframe (headless Chromium's smallest window is
    /// 500 px): laid out at 390, nothing wider, its period cells as many as the scenario's period
    /// days in the months shown, and no word of a prediction.
    private func checkReportAtPhoneWidth(_ page: String, in dir: URL) throws {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let section = try XCTUnwrap(html.range(of: #"<section id="cycles""#).map { start in
            html[start.lowerBound...].prefix { _ in true }.components(separatedBy: "</section>")[0]
        })
        for word in ["predict", "expected", "estimate", "fertile", "due", "likely"] {
            XCTAssertFalse(section.lowercased().contains(word), "the section says nothing forward-looking: \(word)")
        }
        let probe = """
            <script>window.addEventListener('load',function(){var W=window.innerWidth,s=document.getElementById('cycles');
            var r=s?s.getBoundingClientRect():null;var wide=s?[].filter.call(s.querySelectorAll('*'),function(e){
            return e.getClientRects().length&&!e.closest('.chart')&&e.getBoundingClientRect().right>W+0.5}).length:-1;
            console.log('PROBE '+JSON.stringify({width:W,scroll:document.documentElement.scrollWidth,section:!!s,
            right:r?r.right:0,wide:wide,period:s?s.querySelectorAll('i.cp').length:0,
            nav:[].some.call(document.querySelectorAll('nav a'),function(a){return a.textContent==='Cycles'}),
            rows:s?s.querySelectorAll('table.cycles tbody tr').length:0}))});</script>
            """
        let probed = dir.appendingPathComponent("probed.html")
        try html.replacingOccurrences(of: "</body>", with: probe + "</body>").write(to: probed, atomically: true, encoding: .utf8)
        let frame = dir.appendingPathComponent("frame.html")
        try #"<!doctype html><html><body style="margin:0"><iframe src="probed.html" width="390" height="3000" style="border:0;display:block"></iframe></body></html>"#
            .write(to: frame, atomically: true, encoding: .utf8)
        let r = try TestTools.headlessChromium(["--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=500,3000",
                                                "--screenshot=" + dir.appendingPathComponent("cycles-390.png").path, frame.absoluteString],
                                               profile: dir.appendingPathComponent("profile").path, timeout: 180)
        XCTAssertEqual(r.status, 0, r.stderr)
        let console = TestTools.consoleLines(r)
        guard let line = console.first(where: { $0.contains("PROBE ") }), let at = line.range(of: "PROBE "),
              let end = line.lastIndex(of: "}") else { return XCTFail("the probe did not report: \(console)") }
        let text = String(line[at.upperBound...end]).replacingOccurrences(of: #"\""#, with: "\"")
        let found = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
        XCTAssertEqual(found["width"] as? Int, 390, "laid out at a true 390 px")
        XCTAssertEqual(found["section"] as? Bool, true)
        XCTAssertEqual(found["nav"] as? Bool, true, "the navigation links the section")
        XCTAssertLessThanOrEqual(found["scroll"] as? Int ?? 9999, 390, "no sideways scrolling")
        XCTAssertEqual(found["wide"] as? Int, 0, "nothing of the section wider than the screen")
        // Period days in the five months shown: 3 (across the first day) + 5 (one not logged) + 4 + 4 + 3.
        XCTAssertEqual(found["period"] as? Int, 19)
        XCTAssertEqual(found["rows"] as? Int, 5, "one table row a cycle")
    }
}
