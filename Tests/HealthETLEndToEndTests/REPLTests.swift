import XCTest
@testable import HealthQL
import TestSupport

/// `healthetl repl` through a pseudo-terminal (Python's `pty`, test tooling): the raw-mode line
/// editor, a statement over two lines, Tab completion, arrow-up, backspace, `.export csv`, and
/// history kept across sessions.
final class REPLTests: XCTestCase {
    func testReplThroughAPseudoTerminal() throws {
        let store = try SharedStore.get()
        let history = store.out + "/.healthetl/repl_history"
        try? FileManager.default.removeItem(atPath: history)
        let csv = store.folder.appendingPathComponent("repl-\(UUID().uuidString).csv").path
        let script = TestPaths.script("drive_repl.py")
        let run = try runProcess(try TestTools.python(), [script, TestPaths.binary, store.out, csv], timeout: 180)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["exit1"] as? Int, 0)
        XCTAssertEqual(report["exit2"] as? Int, 0)
        // Issue 45: Home, End, Delete in every form, the Emacs keys, and SIGINT that stops a
        // statement, not the session.
        XCTAssertEqual(report["exit3"] as? Int, 0)
        let third = try XCTUnwrap(report["session3"] as? String)
        XCTAssertFalse(third.contains("error"), third)
        XCTAssertEqual((report["keys"] as? [String: String])?.count, 10)
        let first = try XCTUnwrap(report["session1"] as? String)
        XCTAssertTrue(first.contains(Repl.continuation), "a continuation prompt for the unfinished statement")
        XCTAssertTrue(first.contains("heart_rate_variability_sdnn"), "Tab completed the type")

        // The exported file is the last result, as CSV.
        let steps = try store.sql("SELECT count(*) FROM samples WHERE type = 'HKQuantityTypeIdentifierStepCount'")[0][0].int ?? -1
        XCTAssertEqual(try String(contentsOfFile: csv, encoding: .utf8), "count(*)\r\n\(steps)\r\n")

        // History: one line per statement (the two-line one joined), private, read by the next session.
        let lines = try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, ["SELECT count(*) FROM steps ;", "SELECT count(*) FROM heart_rate_variability_sdnn ;",
                               "SELECT count(*) FROM steps;", "SELECT * FROM stepz;",
                               // The third session's statements, all the same once edited (repeats kept once).
                               "SELECT count(*) FROM steps;"])
        let mode = try FileManager.default.attributesOfItem(atPath: history)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        let second = try XCTUnwrap(report["session2"] as? String)
        XCTAssertTrue(second.contains("   2  SELECT count(*) FROM heart_rate_variability_sdnn"), second)
    }

    /// A hostile mode of the pty driver (issue 56) on a copy of the shared store (its own history).
    private func drive(_ mode: String) throws -> [String: Any] {
        let store = try SharedStore.get()
        let out = store.folder.appendingPathComponent("repl-\(mode)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: store.storePath, toPath: out + "/health.sqlite")
        let run = try runProcess(try TestTools.python(), [TestPaths.script("drive_repl.py"), mode, TestPaths.binary, out], timeout: 180)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
    }

    /// Issue 56: a pasted `ESC[99999999999999999999~` overflowed the escape parser's parameter
    /// (SIGILL, a 30 s backtrace, the terminal left without echo). The session now reads it as
    /// no key, and one longer than any key's too, answers the queries after them, and ends
    /// with the terminal as it found it.
    func testAnEscapeWhoseParameterOverflowsLeavesTheSessionWorking() throws {
        let report = try drive("escape")
        let transcript = try XCTUnwrap(report["transcript"] as? String)
        XCTAssertEqual(report["exit"] as? Int, 0, transcript)
        XCTAssertEqual(transcript.components(separatedBy: "1 row (").count - 1, 2, transcript)
        XCTAssertFalse(transcript.contains("error"), transcript)
        XCTAssertEqual(report["raw_at_prompt"] as? Bool, true, "raw mode while a line is read")
        XCTAssertEqual(report["echo_after"] as? Bool, true, "echo and line reading back at the end")
    }

    /// Issue 56: pasting a 20,000-character statement wrote 201 MB to the terminal and took
    /// 15 s (the whole line again after every character). Its echo now takes well under a
    /// second and writes about one byte a character; the statement arrives whole.
    func testATwentyThousandCharacterPasteIsEchoedAtOnceInLinearBytes() throws {
        let report = try drive("paste")
        let characters = try XCTUnwrap(report["characters"] as? Int)
        XCTAssertEqual(characters, 20_000)
        let seconds = try XCTUnwrap(report["seconds"] as? Double)
        XCTAssertLessThan(seconds, 1, "the paste's echo took \(seconds) s")
        let bytes = try XCTUnwrap(report["bytes"] as? Int)
        XCTAssertLessThan(bytes, 2 * characters + 1_000, "the paste wrote \(bytes) bytes to the terminal")
        XCTAssertGreaterThanOrEqual(bytes, characters, "every character echoed")
        let steps = try SharedStore.get().sql("SELECT count(*) FROM samples WHERE type = 'HKQuantityTypeIdentifierStepCount'")[0][0].int ?? -1
        let answer = try XCTUnwrap(report["answer"] as? String)
        XCTAssertTrue(answer.contains("\(ResultFormatter.grouped(steps))\r\n1 row ("), "none of the values is a step count: every one counted: " + answer.debugDescription)
        XCTAssertTrue(answer.contains("1 row (") && answer.components(separatedBy: "1 row (").count == 3,
                      "and a two-line statement pasted in one piece ran once: " + answer.debugDescription)
        XCTAssertEqual(report["exit"] as? Int, 0)
        XCTAssertEqual(report["echo_after"] as? Bool, true)
    }

    /// Issue 56: a signal that ends the session while a line is read (here SIGTERM) leaves the
    /// terminal with echo and line reading back; the signal still ends it.
    func testTheTerminalGetsItsSettingsBackWhenTheSessionIsKilled() throws {
        let report = try drive("terminate")
        XCTAssertEqual(report["exit"] as? Int, -Int(SIGTERM), "ended by the signal, as before")
        XCTAssertEqual(report["raw_at_prompt"] as? Bool, true)
        XCTAssertEqual(report["echo_after"] as? Bool, true, "echo back after the signal")
    }

    /// psql's rule: a statement ends at ';' or a blank line, not when what was typed so far parses.
    func testStatementsEndAtASemicolonNotWhenTheyParse() {
        var buffer = StatementBuffer()
        XCTAssertEqual(buffer.add("SELECT type, count(*)"), [])
        XCTAssertEqual(buffer.add("FROM workouts"), [], "parses already, but waits for ';'")
        XCTAssertEqual(buffer.add("GROUP BY type;"), ["SELECT type, count(*)\nFROM workouts\nGROUP BY type;"])
        XCTAssertTrue(buffer.isEmpty)

        XCTAssertEqual(buffer.add("SELECT * FROM steps; SELECT * FROM sleep; SELECT date"),
                       ["SELECT * FROM steps;", "SELECT * FROM sleep;"], "several on a line; the rest waits")
        XCTAssertEqual(buffer.add("FROM daily"), [])
        XCTAssertEqual(buffer.finish(), " SELECT date\nFROM daily", "a blank line (or the end of input) ends it")
        XCTAssertNil(buffer.finish())

        XCTAssertEqual(buffer.add("SELECT * FROM steps WHERE source = 'a;b'"), [], "a ';' in quotes ends nothing")
        XCTAssertEqual(buffer.add("AND source != \"x;y\""), [], "nor in double quotes")
        XCTAssertEqual(buffer.add("-- a comment; still nothing"), [])
        XCTAssertEqual(buffer.add(";").count, 1)

        XCTAssertEqual(buffer.add("SELEC * FROM steps"), ["SELEC * FROM steps"], "a mistake more text cannot fix is reported at once")
        XCTAssertEqual(buffer.add("SELECT * FROM steps WHERE value IN (1,"), [])
    }

    func testCompletionCandidates() {
        XCTAssertEqual(Completion.candidates(before: "SELEC"), ["SELECT"])
        // Apple's SDNN and Health Connect's RMSSD share the prefix; one more letter decides.
        XCTAssertEqual(Completion.candidates(before: "SELECT * FROM heart_rate_v"),
                       ["heart_rate_variability_sdnn", "heart_rate_variability_rmssd"])
        XCTAssertEqual(Completion.candidates(before: "SELECT * FROM heart_rate_variability_s"), ["heart_rate_variability_sdnn"])
        XCTAssertTrue(Completion.candidates(before: "SELECT * FROM sle").contains("sleep"))
        XCTAssertTrue(Completion.candidates(before: "SELECT * FROM sleep WHERE de").contains("deep"))
        XCTAssertEqual(Completion.candidates(before: ".exp"), [".export"])
        XCTAssertEqual(Completion.candidates(before: ".exa"), [".examples"])
        XCTAssertEqual(Completion.candidates(before: "SELECT * FROM daily WHERE date IN LAST 4 WEE").first, "WEEKS")
        XCTAssertEqual(Completion.candidates(before: "SELECT * FROM daily WHERE steps BETW"), ["BETWEEN"])
    }

    /// Without a terminal the REPL reads plain lines (scripts can pipe statements in): the
    /// issue's three-line statement runs once, after its ';', as one history entry.
    func testReplOverAPipe() throws {
        let store = try SharedStore.get()
        let out = store.folder.appendingPathComponent("repl-pipe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: store.storePath, toPath: out + "/health.sqlite")
        let input = store.folder.appendingPathComponent("repl-input.txt")
        try Data("""
            SELECT type, count(*)
            FROM workouts
            GROUP BY type;
            SELECT count(*)
            FROM workouts

            .schema workouts
            .bogus
            SELECT count(*) FROM sleep; SELECT count(*)
            FROM daily
            """.utf8).write(to: input)
        let run = try runProcess("/bin/sh", ["-c", "'\(TestPaths.binary)' repl --out '\(out)' < '\(input.path)'"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stdout.contains("error"), run.stdout)
        let types = try store.sql("SELECT count(DISTINCT activity_type) FROM workouts")[0][0].int ?? -1
        XCTAssertTrue(run.stdout.contains("\(types) row\(types == 1 ? "" : "s") ("), "the grouped statement ran whole: " + run.stdout)
        let workouts = try store.sql("SELECT count(*) FROM counted_workouts")[0][0].int ?? -1
        XCTAssertTrue(run.stdout.contains("\(workouts)\n1 row ("), "the blank line ended the second: " + run.stdout)
        XCTAssertTrue(run.stdout.contains(Repl.continuation), run.stdout)
        XCTAssertTrue(run.stdout.contains("  type "), run.stdout)
        XCTAssertTrue(run.stdout.contains("unknown command .bogus"), run.stdout)
        let days = try store.sql("SELECT count(*) FROM daily_analytics")[0][0].int ?? -1
        XCTAssertTrue(run.stdout.contains("\(days)\n1 row ("), "the end of input ended the last: " + run.stdout)
        XCTAssertEqual(run.stdout.components(separatedBy: " row").count - 1, 4, run.stdout)

        let history = try String(contentsOfFile: out + "/.healthetl/repl_history", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(history.first, "SELECT type, count(*) FROM workouts GROUP BY type;", "one entry for three lines")
        XCTAssertEqual(history.count, 4)
    }

    /// `.examples` prints a dozen questions with their queries; each runs, without an error and
    /// with rows, on the bundled sample export (sample-data/export.xml).
    func testEveryExampleRunsOnTheBundledSample() throws {
        XCTAssertGreaterThanOrEqual(Examples.all.count, 12)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthql-sample-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
        let imported = try runProcess(TestPaths.binary, ["import", sample, "--out", folder, "--quiet"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let engine = try QueryEngine(storePath: folder + "/health.sqlite")
        for example in Examples.all {
            let result = try engine.run(example.query)
            XCTAssertFalse(result.rows.isEmpty, "\(example.question): \(example.query) returned no rows")
        }
        let input = "\(folder)/input.txt"
        try Data(".examples\n.examples 3\n".utf8).write(to: URL(fileURLWithPath: input))
        let run = try runProcess("/bin/sh", ["-c", "'\(TestPaths.binary)' repl --out '\(folder)' < '\(input)'"])
        for example in Examples.all {
            XCTAssertTrue(run.stdout.contains(example.query), "listed with its query: \(example.question)")
        }
        XCTAssertTrue(run.stdout.contains("-- Days over 10,000 steps\n" + Examples.all[2].query), run.stdout)
        let over = try engine.store.database.scalar("SELECT count(*) FROM daily_analytics WHERE steps > 10000").int ?? -1
        XCTAssertTrue(run.stdout.contains("\(over) row"), "example 3 ran: " + run.stdout)
    }
}
