import XCTest
@testable import HealthQL

/// `healthetl repl` through a pseudo-terminal (Python's `pty`, test tooling): the raw-mode line
/// editor, a statement over two lines, Tab completion, arrow-up, backspace, `.export csv`, and
/// history kept across sessions.
final class REPLTests: XCTestCase {
    func testReplThroughAPseudoTerminal() throws {
        let store = try SharedStore.get()
        let history = store.out + "/.healthetl/repl_history"
        try? FileManager.default.removeItem(atPath: history)
        let csv = store.folder.appendingPathComponent("repl-\(UUID().uuidString).csv").path
        let script = QLPaths.scripts + "/drive_repl.py"
        let run = try runQLProcess(QLPaths.python, [script, QLPaths.binary, store.out, csv], timeout: 180)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["exit1"] as? Int, 0)
        XCTAssertEqual(report["exit2"] as? Int, 0)
        let first = try XCTUnwrap(report["session1"] as? String)
        XCTAssertTrue(first.contains(Repl.continuation), "a continuation prompt for the unfinished statement")
        XCTAssertTrue(first.contains("heart_rate_variability_sdnn"), "Tab completed the type")

        // The exported file is the last result, as CSV.
        let steps = try store.sql("SELECT count(*) FROM samples WHERE type = 'HKQuantityTypeIdentifierStepCount'")[0][0].int ?? -1
        XCTAssertEqual(try String(contentsOfFile: csv, encoding: .utf8), "count(*)\r\n\(steps)\r\n")

        // History: one line per statement (the two-line one joined), private, read by the next session.
        let lines = try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, ["SELECT count(*) FROM steps", "SELECT count(*) FROM heart_rate_variability_sdnn",
                               "SELECT count(*) FROM steps", "SELECT * FROM stepz;"])
        let mode = try FileManager.default.attributesOfItem(atPath: history)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        let second = try XCTUnwrap(report["session2"] as? String)
        XCTAssertTrue(second.contains("   2  SELECT count(*) FROM heart_rate_variability_sdnn"), second)
    }

    func testStatementsAreCompleteWhenTheyParseOrEndWithASemicolon() {
        XCTAssertFalse(Repl.isComplete("SELECT count(*)"))
        XCTAssertFalse(Repl.isComplete("SELECT * FROM steps WHERE value IN (1,"))
        XCTAssertFalse(Repl.isComplete("SELECT * FROM steps WHERE source = 'Apple"))
        XCTAssertTrue(Repl.isComplete("SELECT * FROM steps"))
        XCTAssertTrue(Repl.isComplete("SELECT count(*);"))
        XCTAssertTrue(Repl.isComplete("SELEC * FROM steps"), "a mistake more text cannot fix is reported at once")
    }

    func testCompletionCandidates() {
        XCTAssertEqual(Completion.candidates(before: "SELEC"), ["SELECT"])
        XCTAssertEqual(Completion.candidates(before: "SELECT * FROM heart_rate_v"), ["heart_rate_variability_sdnn"])
        XCTAssertTrue(Completion.candidates(before: "SELECT * FROM sle").contains("sleep"))
        XCTAssertTrue(Completion.candidates(before: "SELECT * FROM sleep WHERE de").contains("deep"))
        XCTAssertEqual(Completion.candidates(before: ".exp"), [".export"])
    }

    /// Without a terminal the REPL reads plain lines (scripts can pipe statements in).
    func testReplOverAPipe() throws {
        let store = try SharedStore.get()
        let input = store.folder.appendingPathComponent("repl-input.txt")
        try Data("SELECT count(*)\nFROM workouts\n.schema workouts\n.bogus\n".utf8).write(to: input)
        let run = try runQLProcess("/bin/sh", ["-c", "'\(QLPaths.binary)' repl --out '\(store.out)' < '\(input.path)'"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let workouts = try store.sql("SELECT count(*) FROM workouts")[0][0].int ?? -1
        XCTAssertTrue(run.stdout.contains("\(workouts)\n1 row ("), run.stdout)
        XCTAssertTrue(run.stdout.contains("  type "), run.stdout)
        XCTAssertTrue(run.stdout.contains("unknown command .bogus"), run.stdout)
    }
}
