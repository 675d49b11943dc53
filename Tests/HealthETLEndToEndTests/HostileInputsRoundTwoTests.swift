import Foundation
import XCTest
import TestSupport

/// Issue 46 (first round): inputs that hung the import or crashed HealthQL end within seconds,
/// with the documented exit code and nothing written outside `--out`.
final class HostileInputsRoundTwoTests: XCTestCase {
    /// A FIFO given as the export, inside an export folder, or named `.zip`, was opened with a
    /// blocking `open` and the import never ended. Refused on the opened descriptor: 65, at once.
    func testAFIFOIsRefusedAtOnceAndNothingIsWritten() throws {
        let dir = try temporaryFolder(self)
        let folder = dir.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let decoy = dir.appendingPathComponent("decoy")
        try FileManager.default.createDirectory(at: decoy, withIntermediateDirectories: true)
        _ = try write("keep", to: "keep.txt", in: decoy)
        let fifos = [dir.appendingPathComponent("export.xml").path, folder.appendingPathComponent("export.xml").path,
                     dir.appendingPathComponent("export.zip").path]
        for fifo in fifos { XCTAssertEqual(mkfifo(fifo, 0o600), 0, fifo) }
        for (input, named) in [(fifos[0], fifos[0]), (folder.path, fifos[1]), (fifos[2], fifos[2])] {
            let out = dir.appendingPathComponent("out-\(UUID().uuidString)").path
            try assertImportRefused(input, into: out, options: ["--timezone", "Europe/Berlin"],
                                    saying: ["\(named) is a FIFO (named pipe), not a file"], within: 10, timeout: 20)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing created at --out for \(input)")
        }
        XCTAssertEqual(relativePaths(under: decoy.path), ["keep.txt"])
    }

    /// A 10,000-term expression overflowed the stack (`query` and `repl` exit 139, the MCP
    /// server died); a 200,000-value IN list ran for a minute. Both are usage errors now, in
    /// `query` (64), `repl` (the session goes on) and `mcp` (a tool error, the server answers on).
    func testLongExpressionsAndListsAreUsageErrorsInQueryReplAndMCP() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
        XCTAssertEqual(try healthetl(["import", sample, "--out", out, "--timezone", "Europe/Berlin", "--quiet"]).status, 0)
        let long = "SELECT " + Array(repeating: "value", count: 10_000).joined(separator: "+") + " FROM steps"
        let list = "SELECT count(*) FROM steps WHERE value IN (" + (0..<200_000).map(String.init).joined(separator: ",") + ")"
        // A chain SQLite digests (its parser stack overflowed near 60 terms of compiled parentheses).
        let chain = "SELECT count(*) FROM steps WHERE " + (0..<100).map { "value = \($0)" }.joined(separator: " OR ")

        // (A command line holds at most 128 KiB an argument: the 200,000 values go through the REPL and MCP.)
        let shortList = "SELECT count(*) FROM steps WHERE value IN (" + (0..<15_000).map(String.init).joined(separator: ",") + ")"
        for (query, says) in [(long, "Expression too long (more than 100 operators)"), (shortList, "IN list too long")] {
            let started = Date()
            let r = try healthetl(["query", query, "--out", out], timeout: 60)
            XCTAssertLessThan(Date().timeIntervalSince(started), 10)
            XCTAssertEqual(r.status, 64, String(r.stderr.prefix(300)))
            XCTAssertTrue(r.stderr.contains(says), String(r.stderr.prefix(300)))
        }
        let fine = try healthetl(["query", chain, "--out", out])
        XCTAssertEqual(fine.status, 0, String(fine.stderr.prefix(300)))
        let pattern = try healthetl(["query", "SELECT count(*) FROM steps WHERE source LIKE '" + String(repeating: "%a", count: 30_000) + "'",
                                     "--out", out])
        XCTAssertEqual(pattern.status, 64, "SQLite's LIKE limit is the query's mistake, not an internal error: \(pattern.stderr.prefix(300))")

        // The REPL (statements from a pipe): the error, then the next statement answered.
        let script = try write(long + ";\n" + list + ";\nSELECT count(*) FROM steps;\n", to: "statements.sql", in: dir)
        let repl = try runProcess("/bin/sh", ["-c", "'\(TestPaths.binary)' repl --out '\(out)' < '\(script)'"], timeout: 60)
        XCTAssertEqual(repl.status, 0, String(repl.stderr.prefix(300)))
        // (200,000 values are 1.3 MB: past the 1 MiB a query's text may have, refused before it is parsed.)
        XCTAssertTrue(repl.stdout.contains("Expression too long") && repl.stdout.contains("longer than 1 MiB")
                      && repl.stdout.contains("1 row ("), String(repl.stdout.suffix(500)))

        // The MCP server: a tool error (cut short), then a ping answered.
        let request = try JSONSerialization.data(withJSONObject: [
            "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": ["name": "query", "arguments": ["query": long]],
        ] as [String: Any])
        let listRequest = try JSONSerialization.data(withJSONObject: [
            "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": ["name": "query", "arguments": ["query": list]],
        ] as [String: Any])
        let lines = [#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#,
                     String(decoding: request, as: UTF8.self), String(decoding: listRequest, as: UTF8.self),
                     #"{"jsonrpc":"2.0","id":4,"method":"ping"}"#]
        let input = try write(lines.joined(separator: "\n") + "\n", to: "mcp.jsonl", in: dir)
        let mcp = try runProcess("/bin/sh", ["-c", "'\(TestPaths.binary)' mcp --out '\(out)' < '\(input)'"], timeout: 60)
        XCTAssertEqual(mcp.status, 0, mcp.stderr)
        let answers = try mcp.stdout.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(answers.count, 4)
        let call = try XCTUnwrap(answers[1]["result"] as? [String: Any])
        XCTAssertEqual(call["isError"] as? Bool, true)
        let text = try XCTUnwrap((call["content"] as? [[String: Any]])?.first?["text"] as? String)
        XCTAssertTrue(text.contains("Expression too long"), String(text.prefix(300)))
        XCTAssertLessThan(text.count, 3_000, "the query is not echoed whole")
        let listCall = try XCTUnwrap(answers[2]["result"] as? [String: Any])
        XCTAssertEqual(listCall["isError"] as? Bool, true)
        XCTAssertNotNil(answers[3]["result"], "the server answered the next line")
    }
}
