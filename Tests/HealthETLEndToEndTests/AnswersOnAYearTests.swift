import Foundation
import XCTest
import TestSupport

/// Issues 45 and 46 on a generated year of data (~118,000 records): the MCP server's answers,
/// driven by the `mcp` Python SDK, stay within 500 rows and 64 KiB with a note of the total,
/// whatever is asked; `--time-limit` covers the whole request and `query` has one too; a
/// request larger than 4 MiB is refused without being kept, and the server reads on.
final class AnswersOnAYearTests: XCTestCase {
    private static let year: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("healthetl-year-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        return dir
    }()

    /// The year's output folder, imported once for the class.
    private func store() throws -> String {
        let out = Self.year + "/out"
        if FileManager.default.fileExists(atPath: out + "/health.sqlite") { return out }
        try FileManager.default.createDirectory(atPath: Self.year, withIntermediateDirectories: true)
        try generateExport(["--out", Self.year + "/export.xml", "--days", "365", "--start", "2024-01-01", "--seed", "3"])
        let r = try healthetl(["import", Self.year + "/export.xml", "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return out
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: year)
        super.tearDown()
    }

    func testTheMCPServersAnswersAreBoundedOnAYear() throws {
        let out = try store()
        let python = try TestTools.python(importing: ["mcp"])
        let script = TestPaths.script("mcp_client.py")
        let run = try runProcess(python, [script, TestPaths.binary, out, "--year"], timeout: 300)
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
        for name in ["active_energy", "heart_rate", "steps"] {
            let answer = try XCTUnwrap(report[name] as? [String: Any], name)
            let texts = try XCTUnwrap(answer["texts"] as? [String])
            XCTAssertEqual(answer["isError"] as? Bool, false, "\(name): \(texts.prefix(1))")
            let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(texts[0].utf8)) as? [[String: Any]])
            XCTAssertLessThanOrEqual(rows.count, 500, name)
            XCTAssertLessThanOrEqual(texts.joined().utf8.count, 66 << 10, "\(name): the whole answer within 64 KiB and its notes")
            // The total the note gives is every row `query` prints (CSV lines end in CR LF).
            let all = try healthetl(["query", "SELECT * FROM \(name)", "--out", out, "--format", "csv"])
            let count = all.stdout.split(whereSeparator: \.isNewline).count - 1
            XCTAssertGreaterThan(count, 5_000, "\(name): a year holds thousands of rows")
            XCTAssertTrue(texts.contains { $0.hasPrefix("note: \(count - rows.count) more rows not shown (\(count) in all)") },
                          "\(name): the note gives what was left out and the total: \(texts.dropFirst())")
            XCTAssertLessThan(answer["seconds"] as? Double ?? .infinity, 20, "\(name): answered in seconds")
        }
        // A millisecond's limit: the query is stopped and said so; the server answers the next request.
        let limited = try XCTUnwrap(report["time_limit"] as? [String: Any])
        XCTAssertEqual(limited["isError"] as? Bool, true)
        XCTAssertTrue((limited["texts"] as? [String])?.first?.contains("ran longer than 0.001 s and was stopped") == true, "\(limited)")
        XCTAssertEqual(report["ping_after_time_limit"] as? Bool, true)
        // 9 MiB on one line: refused as too large, then the ping is answered.
        let huge = try XCTUnwrap(report["huge_line"] as? [String: Any])
        let answers = try XCTUnwrap(huge["answers"] as? [[String: Any]])
        XCTAssertEqual(answers.count, 2, "\(answers)")
        let error = answers.first?["error"] as? [String: Any]
        XCTAssertEqual(error?["code"] as? Int, -32600)
        XCTAssertTrue((error?["message"] as? String)?.contains("more than the 4 MiB a request may have") == true, "\(answers)")
        XCTAssertEqual(answers.last?["id"] as? Int, 7, "the server read on after the refused line")
    }

    /// `query --time-limit`: the whole year's heart rate in a millisecond is stopped with a
    /// usage error (64) that says what to do; without the limit the same query answers.
    func testQueryHasATimeLimit() throws {
        let out = try store()
        let started = Date()
        let limited = try healthetl(["query", "SELECT * FROM heart_rate", "--out", out, "--format", "csv", "--time-limit", "0.001"])
        XCTAssertEqual(limited.status, 64, limited.stderr)
        XCTAssertTrue(limited.stderr.contains("ran longer than 0.001 s and was stopped") && limited.stderr.contains("raise --time-limit"),
                      limited.stderr)
        XCTAssertEqual(limited.stdout, "", "no partial result")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        let whole = try healthetl(["query", "SELECT * FROM heart_rate", "--out", out, "--format", "csv"])
        XCTAssertEqual(whole.status, 0, whole.stderr)
        XCTAssertGreaterThan(whole.stdout.split(whereSeparator: \.isNewline).count, 5_000)
        for bad in ["0", "-1", "soon", "3601"] {
            let r = try healthetl(["query", "SELECT 1 FROM daily", "--out", out, "--time-limit", bad])
            XCTAssertEqual(r.status, 64, "--time-limit \(bad): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--time-limit must be a number of seconds"), r.stderr)
        }
    }
}
