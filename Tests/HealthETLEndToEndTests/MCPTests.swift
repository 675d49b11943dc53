import XCTest
@testable import HealthQL
import TestSupport

/// `healthetl mcp` with a real client: the official `mcp` Python SDK (test tooling, in the test
/// venv: TestTools.python) drives the handshake, tools/list, every tool, the resources and each
/// bad input; the rows must be the ones `healthetl query --format json` prints. The raw
/// JSON-RPC errors are also checked without Python, by piping lines into the server.
final class MCPTests: XCTestCase {
    private static func clientReport(_ store: SharedStore) throws -> [String: Any] {
        let script = TestPaths.script("mcp_client.py")
        let run = try runProcess(try TestTools.python(importing: ["mcp"]), [script, TestPaths.binary, store.out], timeout: 240)
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout + run.stderr)
    }

    private static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    private func cli(_ store: SharedStore, _ query: String) throws -> String {
        let run = try runProcess(TestPaths.binary, ["query", query, "--out", store.out, "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.trimmingCharacters(in: .newlines)
    }

    /// Two JSON answers hold the same rows: equal keys, equal text, numbers within 1e-9 relative.
    private func assertSameRows(_ served: String, _ printed: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let a = try XCTUnwrap(Self.json(served) as? [[String: Any]]), b = try XCTUnwrap(Self.json(printed) as? [[String: Any]])
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for (x, y) in zip(a, b) {
            XCTAssertEqual(Set(x.keys), Set(y.keys), file: file, line: line)
            for (key, value) in x {
                if let n = value as? NSNumber, let m = y[key] as? NSNumber {
                    XCTAssertEqual(n.doubleValue, m.doubleValue, accuracy: abs(m.doubleValue) * 1e-9, key, file: file, line: line)
                } else {
                    XCTAssertEqual("\(value)", "\(y[key] ?? "missing")", key, file: file, line: line)
                }
            }
        }
    }

    func testTheSDKClientGetsTheRowsOfTheQueryCommandAndEveryFailureAsAnError() throws {
        let store = try SharedStore.get()
        let report = try Self.clientReport(store)

        let initialize = try XCTUnwrap(report["initialize"] as? [String: Any])
        XCTAssertTrue(MCPVersions.all.contains(initialize["protocolVersion"] as? String ?? ""), "\(initialize)")
        XCTAssertEqual(initialize["serverName"] as? String, "healthetl")
        XCTAssertEqual(initialize["tools"] as? Bool, true)
        XCTAssertEqual(initialize["resources"] as? Bool, true)

        let tools = try XCTUnwrap(report["tools"] as? [String: [String]])
        XCTAssertEqual(Set(tools.keys), ["query", "list_metrics", "describe_person", "daily_summary"])
        XCTAssertEqual(tools["daily_summary"], ["from", "person", "to"])

        // The same rows, to the byte, as `healthetl query --format json`.
        let query = try XCTUnwrap(report["query"] as? [String: Any])
        XCTAssertEqual(query["isError"] as? Bool, false)
        let texts = try XCTUnwrap(query["texts"] as? [String])
        let expected = try cli(store, "SELECT day, sum(value) FROM steps GROUP BY day")
        XCTAssertEqual(texts.first, expected)
        let rows = try XCTUnwrap(Self.json(texts[0]) as? [[String: Any]])
        let days = try store.sql("SELECT count(*) FROM daily_metrics WHERE type = 'HKQuantityTypeIdentifierStepCount'")[0][0].int ?? -1
        XCTAssertEqual(Int64(rows.count), days)

        // Issue 44: the MCP server counts each workout once, as the store's counted_workouts: the
        // generated export's Strava copies of Watch rides are left out.
        let workouts = try XCTUnwrap((report["workouts"] as? [String: Any])?["texts"] as? [String])
        let byType = try XCTUnwrap(Self.json(workouts[0]) as? [[String: Any]])
        let cycling = (byType.first { $0["type"] as? String == "cycling" }?["n"] as? NSNumber)?.int64Value
        XCTAssertEqual(cycling, try store.sql("SELECT count(*) FROM counted_workouts WHERE activity_type = 'HKWorkoutActivityTypeCycling'")[0][0].int)
        XCTAssertLessThan(cycling ?? 0, try store.sql("SELECT count(*) FROM workouts WHERE activity_type = 'HKWorkoutActivityTypeCycling'")[0][0].int ?? 0,
                          "the store holds Strava's copies; the answer counts each ride once")

                // Issue 45: an answer an assistant can hold. SELECT * FROM heart_rate: 500 rows at most, within
        // 64 KiB, and a note with the rows left out and the total.
        let unbounded = try XCTUnwrap(report["unbounded"] as? [String: Any])
        let heartRates = try store.sql("SELECT count(*) FROM sample_data WHERE type_id = (SELECT id FROM types WHERE identifier = 'HKQuantityTypeIdentifierHeartRate')")[0][0].int ?? 0
        XCTAssertGreaterThan(heartRates, 500, "the store holds more heart-rate samples than an answer")
        let unboundedTexts = try XCTUnwrap(unbounded["texts"] as? [String])
        let shownRows = try XCTUnwrap(Self.json(unboundedTexts[0]) as? [[String: Any]])
        XCTAssertLessThanOrEqual(shownRows.count, 500)
        XCTAssertLessThanOrEqual(unboundedTexts[0].utf8.count, 64 << 10)
        XCTAssertTrue(unboundedTexts.contains("note: \(Int(heartRates) - shownRows.count) more rows not shown (\(heartRates) in all): "
                                              + "aggregate them (GROUP BY day, week or month) or add LIMIT"), "\(unboundedTexts.dropFirst())")
        // An error about a 200 KB query sends back 2,000 characters of it, not all.
        let long = try XCTUnwrap(report["long_query"] as? [String: Any])
        XCTAssertEqual(long["isError"] as? Bool, true)
        XCTAssertLessThan(long["bytes"] as? Int ?? .max, 4_000)
        // Numbers rounded for reading: ten significant digits at most, no float noise.
        let rounded = try XCTUnwrap((report["rounded"] as? [String: Any])?["texts"] as? [String])
        let mean = try XCTUnwrap((Self.json(rounded[0]) as? [[String: Any]])?.first?["mean"] as? NSNumber).doubleValue
        let exact = try store.sql("SELECT avg(value) FROM sample_data WHERE type_id = (SELECT id FROM types WHERE identifier = 'HKQuantityTypeIdentifierHeartRate')")[0][0].double ?? 0
        XCTAssertEqual(mean, exact, accuracy: abs(exact) * 1e-9)
        let digits = rounded[0].filter(\.isNumber).count
        XCTAssertLessThanOrEqual(digits, 10, rounded[0])

                // Relative periods count from the data's last complete day, and the answer says so.
        let relative = try XCTUnwrap((report["relative"] as? [String: Any])?["texts"] as? [String])
        XCTAssertEqual(relative.first, try cli(store, "SELECT count(*) FROM daily WHERE date IN LAST 7 DAYS"))
        XCTAssertTrue(relative.dropFirst().contains { $0.hasPrefix("note: today() is ") }, "\(relative)")

        let metrics = try XCTUnwrap(Self.json(((report["list_metrics"] as? [String: Any])?["texts"] as? [String])?.first ?? "")
                                    as? [String: Any])
        let types = try XCTUnwrap(metrics["types"] as? [[String: Any]])
        let steps = try XCTUnwrap(types.first { $0["alias"] as? String == "steps" })
        let stepSamples = try store.sql("SELECT count(*) FROM sample_data WHERE type_id = (SELECT id FROM types WHERE identifier = 'HKQuantityTypeIdentifierStepCount')")[0][0].int
        XCTAssertEqual((steps["samples"] as? NSNumber)?.int64Value, stepSamples)
        XCTAssertEqual(steps["unit"] as? String, "count")
        let first = try store.sql("SELECT min(date) FROM daily_analytics")[0][0].string
        XCTAssertEqual((metrics["tables"] as? [[String: Any]])?.first { $0["name"] as? String == "daily" }?["first"] as? String, first)

        let person = try XCTUnwrap(Self.json(((report["describe_person"] as? [String: Any])?["texts"] as? [String])?.first ?? "")
                                   as? [String: Any])
        XCTAssertEqual(person["time_zone"] as? String, "Europe/Berlin")
        XCTAssertEqual(person["date_of_birth"] as? String, try store.sql("SELECT date_of_birth FROM profile")[0][0].string)

        let summary = try XCTUnwrap((report["daily_summary"] as? [String: Any])?["texts"] as? [String])
        // The CLI's rows, with the server's numbers rounded to ten significant digits (issue 45).
        try assertSameRows(summary[0], try cli(store, "SELECT * FROM daily WHERE date >= '2024-03-05' AND date <= '2024-03-11'"))
        XCTAssertEqual((try Self.json(summary[0]) as? [Any])?.count, 7)

        let resources = try XCTUnwrap(report["resources"] as? [String])
        XCTAssertTrue(resources.contains("healthql://schema") && resources.contains("healthql://sources/sleep"), "\(resources)")
        XCTAssertTrue((report["schema"] as? [String])?.first?.contains("| asleep | number | yes |") == true)

        // Tool failures come back as results with isError, with the reason.
        let failures = try XCTUnwrap(report["tool_failures"] as? [String: [String: Any]])
        XCTAssertEqual(failures.count, 6)
        for (call, result) in failures { XCTAssertEqual(result["isError"] as? Bool, true, call) }
        func message(_ prefix: String) -> String {
            ((failures.first { $0.key.hasPrefix(prefix) }?.value["texts"] as? [String]) ?? []).joined()
        }
        XCTAssertTrue(message("query {\"query\": \"DELETE").contains("read-only"))
        XCTAssertTrue(message("query {\"query\": \"SELECT * FROM stepz").contains("Did you mean 'steps'?"))
        XCTAssertTrue(message("query {\"query\": \"SELECT * FROM resting_hr").contains("Did you mean 'resting_heart_rate'?"))
        XCTAssertTrue(message("query {\"query\": \"SELECT 1 FROM steps; DROP").contains("Unexpected 'DROP'"))
        XCTAssertTrue(message("describe_person").contains("no person 'nobody'"))
        XCTAssertTrue(message("daily_summary").contains("2024-02-30"))

        // Calls the protocol refuses are JSON-RPC errors (-32602), and the session goes on.
        let protocolErrors = try XCTUnwrap(report["protocol_errors"] as? [String: [String: Any]])
        XCTAssertEqual(protocolErrors.count, 3)
        for (call, error) in protocolErrors { XCTAssertEqual(error["code"] as? Int, -32602, call) }
        XCTAssertEqual(report["ping_after_errors"] as? Bool, true)

        // A query past the time limit is stopped and reported; the server answers the next request.
        let limited = try XCTUnwrap(report["time_limit"] as? [String: Any])
        XCTAssertEqual(limited["isError"] as? Bool, true)
        XCTAssertTrue((limited["texts"] as? [String])?.first?.contains("ran longer than") == true, "\(limited)")
        XCTAssertEqual(report["ping_after_time_limit"] as? Bool, true)

        XCTAssertEqual(report["store_unchanged"] as? Bool, true, "the store's bytes are the same after every call")
    }

    /// Lines no SDK would send, piped in: each gets its JSON-RPC error and the server reads on.
    func testBadLinesGetJSONRPCErrorsAndTheServerKeepsRunning() throws {
        let store = try SharedStore.get()
        let lines = [
            "{not json",
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/delete"}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[1]}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"healthql://nothing"}}"#,
            #"{"jsonrpc":"1.0","id":6,"method":"ping"}"#,
            #"[{"jsonrpc":"2.0","id":7,"method":"ping"}]"#,
            #"{"jsonrpc":"2.0","id":"last","method":"ping"}"#,
        ]
        let input = store.folder.appendingPathComponent("mcp-lines-\(UUID().uuidString).txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let run = try runProcess("/bin/sh", ["-c", "'\(TestPaths.binary)' mcp --out '\(store.out)' < '\(input.path)'"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let answers = try run.stdout.split(separator: "\n").map { try XCTUnwrap(Self.json(String($0)) as? [String: Any]) }
        XCTAssertEqual(answers.count, lines.count - 1, "every line but the notification answered: \(run.stdout)")
        func code(_ i: Int) -> Int? { (answers[i]["error"] as? [String: Any])?["code"] as? Int }
        XCTAssertEqual(code(0), -32700)
        XCTAssertTrue(answers[0]["id"] is NSNull)
        let initialize = try XCTUnwrap(answers[1]["result"] as? [String: Any])
        XCTAssertEqual(initialize["protocolVersion"] as? String, MCPVersions.all[0], "an unknown version gets the newest")
        XCTAssertEqual(code(2), -32601)
        XCTAssertEqual(code(3), -32602)
        XCTAssertEqual(code(4), -32602)
        XCTAssertEqual(code(5), -32002)
        XCTAssertEqual(code(6), -32600)
        XCTAssertEqual(code(7), -32600)
        XCTAssertEqual(answers[8]["id"] as? String, "last")
        XCTAssertNotNil(answers[8]["result"] as? [String: Any], "still answering after nine bad lines")
    }

    func testAPersonThatDoesNotExistStopsTheServerAtStart() throws {
        let store = try SharedStore.get()
        let run = try runProcess(TestPaths.binary, ["mcp", "--out", store.out, "--person", "ghost"])
        XCTAssertEqual(run.status, 66, run.stderr)
        XCTAssertTrue(run.stderr.contains("no person 'ghost'"), run.stderr)
        let now = try runProcess(TestPaths.binary, ["mcp", "--out", store.out, "--now", "yesterday"])
        XCTAssertEqual(now.status, 64, "an unreadable --now fails at start, not at the first question: " + now.stderr)
        let limit = try runProcess(TestPaths.binary, ["mcp", "--out", store.out, "--time-limit", "forever"])
        XCTAssertEqual(limit.status, 64, limit.stderr)
        XCTAssertEqual(now.stdout + limit.stdout, "", "nothing but JSON-RPC ever goes to stdout")
    }

    /// `--now` reaches the tools: relative periods count from it, and no note says otherwise.
    func testNowGivenToTheServerAnchorsItsQueries() throws {
        let store = try SharedStore.get()
        let line = #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"query","arguments":{"query":"SELECT min(date), max(date) FROM daily WHERE date IN LAST 3 DAYS"}}}"#
        let input = store.folder.appendingPathComponent("mcp-now-\(UUID().uuidString).txt")
        try Data((line + "\n").utf8).write(to: input)
        let run = try runProcess("/bin/sh", ["-c", "'\(TestPaths.binary)' mcp --out '\(store.out)' --now 2024-03-20 < '\(input.path)'"])
        let answer = try XCTUnwrap(Self.json(run.stdout) as? [String: Any], run.stdout + run.stderr)
        let content = try XCTUnwrap((answer["result"] as? [String: Any])?["content"] as? [[String: Any]])
        XCTAssertEqual(content.compactMap { $0["text"] as? String }, [#"[{"min(date)":"2024-03-18","max(date)":"2024-03-20"}]"#])
    }
}

/// The protocol revisions the server speaks, newest first (kept in step with MCPServer.protocolVersions).
enum MCPVersions {
    static let all = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
}
