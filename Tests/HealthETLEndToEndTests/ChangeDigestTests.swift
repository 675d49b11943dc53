import Foundation
import XCTest
@testable import HealthCore
import HealthPipeline
@testable import HealthStore
import SQLite
import TestSupport

/// Issue 33 item 6: every import says what changed (new complete days, a new best, the step-goal
/// streak, resting heart rate away from its 90-day baseline, gaps that started) in its summary,
/// its `--json` (`changes`) and at the top of the report. An incremental run that adds days, a
/// best and a gap, end to end; the rules on hand-made days.
final class ChangeDigestTests: XCTestCase {
    /// An export of the days of May 2024 in `days`: steps (`steps(day)`) and resting heart rate
    /// (`rhr(day)`) each day, taken at 20:00 on `exportDay`.
    private func export(_ days: [Int], exportDay: Int, steps: (Int) -> Int, rhr: (Int) -> Int) -> String {
        let records = days.flatMap { d in
            let day = "2024-05-\(two(d))", created = "\(day) 12:00:00 +0200"
            return [ExportXML.record("StepCount", source: "Watch", unit: "count", value: "\(steps(d))",
                                     start: "\(day) 10:00:00 +0200", end: "\(day) 11:00:00 +0200", created: created),
                    ExportXML.record("RestingHeartRate", source: "Watch", unit: "count/min", value: "\(rhr(d))",
                                     start: "\(day) 06:00:00 +0200", end: "\(day) 06:00:00 +0200", created: created)]
        }
        return ExportXML.document(records, exportDate: "2024-05-\(two(exportDay)) 20:00:00 +0200")
    }

    private func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    func testAnIncrementalRunThatAddsDaysABestAndAGapSaysSo() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        let steps = { (d: Int) in d == 22 ? 21_000 : d >= 21 ? 12_000 : 6_000 + d * 100 }
        let rhr = { (d: Int) in d >= 21 ? 64 : 55 }
        // First import: 1–20 May, taken on the 20th at 20:00 (the first day partial; the store's
        // rule, docs/days-and-averages.md, decides which days are).
        let first = try importJSON(try write(export(Array(1...20), exportDay: 20, steps: steps, rhr: rhr), to: "first.xml", in: dir), out)
        XCTAssertEqual(first["changes"] as? [String], ["19 new complete days: 2 May 2024 – 20 May 2024"],
                       "a first import: its days, nothing to beat yet")
        // The next export: the 21st, the 22nd (a best), a gap of three days, the 26th to 28th.
        let days = Array(1...22) + [26, 27, 28]
        let second = try importJSON(try write(export(days, exportDay: 28, steps: steps, rhr: rhr), to: "second.xml", in: dir), out)
        XCTAssertEqual(second["mode"] as? String, "incremental")
        let changes = try XCTUnwrap(second["changes"] as? [String])
        XCTAssertEqual(changes, [
            "5 new complete days: 21 May 2024 – 28 May 2024",
            "New best: 21,000 steps on 22 May 2024 (before: 8,000)",
            "Step goal (10,000) reached 3 days in a row",
            "Resting heart rate 64 bpm over the last 7 days, up from a 90-day baseline of 55 bpm",
            "No data from 23 May 2024 to 25 May 2024 (3 days)",
        ])
        // The report shows the same at its top.
        let page = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        let top = try XCTUnwrap(page.range(of: #"<section id="changes""#))
        XCTAssertLessThan(top.lowerBound, try XCTUnwrap(page.range(of: #"<section id="dashboard""#)).lowerBound)
        for line in changes { XCTAssertTrue(page.contains(line.replacingOccurrences(of: ",", with: ",")), line) }
        // And the text summary (a cron mail) lists them.
        let again = dir.appendingPathComponent("again.xml").path
        try export(days + [29], exportDay: 29, steps: steps, rhr: rhr).write(toFile: again, atomically: true, encoding: .utf8)
        let text = try healthetl(["import", again, "--out", out, "--timezone", "Europe/Berlin"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stderr.contains("what changed:\n    1 new complete day: 29 May 2024"), text.stderr)
    }

    func testTheRulesOnHandMadeDays() {
        let start = CivilDate(iso: "2024-01-01")!
        let before = (0..<40).map { DigestDay(date: start.adding(days: $0), steps: 8000, sleepMinutes: 450) }
        // Nothing new: nothing said.
        XCTAssertEqual(ChangeDigest.changes(before: before, after: before), [])
        // Seven new days of short sleep: the sleep baseline line, no best (8,000 is not above 8,000).
        let after = before + (40..<47).map { DigestDay(date: start.adding(days: $0), steps: 8000, sleepMinutes: 360) }
        XCTAssertEqual(ChangeDigest.changes(before: before, after: after).map(\.text), [
            "7 new complete days: 10 Feb 2024 – 16 Feb 2024",
            "Sleep 6 h 00 min over the last 7 days, down from a 90-day baseline of 7 h 30 min",
        ])
        // A partial day is never new, and a one-day hole is not a gap.
        var holed = before + [DigestDay(date: start.adding(days: 41), steps: 9000), DigestDay(date: start.adding(days: 42), steps: 9000, partial: true)]
        XCTAssertEqual(ChangeDigest.changes(before: before, after: holed).map(\.kind), ["new-days", "best"])
        holed.append(DigestDay(date: start.adding(days: 45), steps: 100))
        XCTAssertEqual(ChangeDigest.changes(before: before, after: holed).last?.text, "No data from 13 Feb 2024 to 14 Feb 2024 (2 days)")
    }

    /// The stored changes are the same bytes in every run: keys sorted (a byte comparison of an
    /// incremental store with a full one must not depend on a dictionary's order).
    func testStoredChangesHaveSortedKeys() throws {
        let dir = try temporaryFolder(self)
        let database = try Database(path: dir.appendingPathComponent("s.sqlite").path, mode: .create)
        try database.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT)")
        let store = HealthStore(database: database)
        let changes = [DigestChange(kind: "best", text: "Best day"), DigestChange(kind: "gap", text: "No data")]
        try store.saveChanges(changes)
        XCTAssertEqual(try database.scalar("SELECT value FROM settings WHERE key = 'changes'").string,
                       #"[{"kind":"best","text":"Best day"},{"kind":"gap","text":"No data"}]"#)
        XCTAssertEqual(try store.latestChanges(), changes)
    }
}
