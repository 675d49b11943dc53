import Foundation
import XCTest
@testable import HealthEmit
@testable import SQLite
import TestSupport

/// An import SIGKILLed again and again, each time re-run with the same command, ends with
/// exactly what one uninterrupted run gives: the same stored rows (ids and line numbers
/// included), analytics and CSV files. Kills land all over the load (after each new
/// checkpoint commit, at once or a moment later) and after it (analytics, outputs). Exact
/// copies far from their records (at the end of the file) are counted once however often the
/// load is killed between a record and its copy (`duplicate_copies`, `duplicates_dropped`).
final class ResumeAfterKillTests: XCTestCase {
    struct Checkpoint: Decodable { var sequence: Int; var phase: String }

    func checkpoint(_ out: String) -> Checkpoint? {
        guard let data = FileManager.default.contents(atPath: out + "/.healthetl/checkpoint.json") else { return nil }
        return try? JSONDecoder().decode(Checkpoint.self, from: data)
    }

    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.binary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until `ready` holds or the process ends; then waits `delay` µs more and kills it.
    /// True if the process was still running and died by the signal.
    func kill(_ process: Process, after delay: useconds_t, when ready: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, !ready(), Date() < deadline { usleep(300) }
        if delay > 0 { usleep(delay) }
        let wasRunning = process.isRunning
        if wasRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return wasRunning && process.terminationReason == .uncaughtSignal
    }

    /// Every stored row that a run's work produces (not the run log or time stamps), in id order.
    func storedRows(_ store: String) throws -> [String] {
        let db = try Database(path: store, mode: .readOnly)
        var out: [String] = []
        for table in ["sample_data", "heartbeat_data", "workouts", "workout_routes", "workout_route_points", "correlations",
                      "correlation_members", "activity_summaries", "quarantine", "anchors", "types", "sources", "duplicate_copies",
                      "(SELECT date_of_birth, biological_sex, locale, export_date_utc, characteristics FROM profile)"] {
            for row in try db.rows("SELECT * FROM \(table) ORDER BY 1, 2") {
                out.append(table + ": " + row.map(\.description).joined(separator: "|"))
            }
        }
        return out
    }

    func files(_ out: String, _ sub: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: out + "/" + sub) {
            result[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + sub + "/" + name))
        }
        return result
    }

    func testKilledAgainAndAgainThenResumedEqualsOneUninterruptedRun() throws {
        let dir = try temporaryFolder(self)
        let export = dir.appendingPathComponent("export.xml").path
        try generateExport(["--out", export, "--days", "60", "--scale", "3", "--seed", "31", "--broken-dtd"])
        // A copy of every 9th one-line record, after all the others: checkpoints lie between.
        var text = try String(contentsOfFile: export, encoding: .utf8)
        let copies = text.split(separator: "\n").filter { $0.hasPrefix(" <Record ") && $0.hasSuffix("/>") }
            .enumerated().filter { $0.offset % 9 == 0 }.map(\.element)
        text = text.replacingOccurrences(of: "</HealthData>", with: copies.joined(separator: "\n") + "\n</HealthData>")
        try text.write(toFile: export, atomically: true, encoding: .utf8)
        let pipeline = try write(#"{"checkpointRecords": 1500}"#, to: "pipeline.json", in: dir)
        let straight = dir.appendingPathComponent("straight").path, killed = dir.appendingPathComponent("killed").path
        let args = { (out: String) in ["import", export, "--out", out, "--pipeline", pipeline, "--timezone", "Europe/Berlin", "--quiet"] }
        XCTAssertEqual(try healthetl(args(straight)).status, 0)

        var loadKills = 0, laterKills = 0, lastSequence = 0
        let laterDelays: [useconds_t] = [0, 2_000, 8_000, 20_000, 40_000]
        for attempt in 0..<60 where laterKills < laterDelays.count {
            let process = try start(args(killed))
            if let state = checkpoint(killed), state.phase == "loaded" {
                // The load is done: kill during analytics, outputs and publishing.
                if kill(process, after: laterDelays[laterKills], when: { true }) { laterKills += 1 } else { break }
                continue
            }
            // Kill once the run has committed something new: at once, or a moment later.
            let delay: useconds_t = attempt % 3 == 0 ? 0 : useconds_t(attempt % 3) * 3_000
            let progressed = kill(process, after: delay) { (checkpoint(killed)?.sequence ?? 0) > lastSequence }
            if progressed { loadKills += 1 } else if process.terminationStatus == 0 { break }
            let sequence = checkpoint(killed)?.sequence ?? 0
            XCTAssertGreaterThanOrEqual(sequence, lastSequence, "a resumed run never goes back")
            lastSequence = sequence
        }
        XCTAssertGreaterThanOrEqual(loadKills, 8, "kills during the load")
        XCTAssertGreaterThanOrEqual(loadKills + laterKills, 10)

        let status = try healthetl(["status", "--out", killed])
        let final = try healthetl(args(killed).filter { $0 != "--quiet" } + ["--json"])
        XCTAssertEqual(final.status, 0, final.stderr)
        XCTAssertTrue(status.stdout.contains("Pending resume") || final.stdout.contains("\"resumed_at_element\""),
                      "status: \(status.stdout)")

        XCTAssertFalse(FileManager.default.fileExists(atPath: killed + "/.healthetl/checkpoint.json"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: killed + "/.healthetl/load.sqlite"))
        let a = try storedRows(straight + "/health.sqlite"), b = try storedRows(killed + "/health.sqlite")
        XCTAssertGreaterThan(a.count, 20_000)
        XCTAssertEqual(a.count, b.count)
        for (x, y) in zip(a, b) where x != y { XCTFail("uninterrupted \(x)\n     resumed \(y)"); break }
        XCTAssertEqual(try analyticsSnapshot(straight + "/health.sqlite"), try analyticsSnapshot(killed + "/health.sqlite"))
        XCTAssertEqual(try files(straight, "csv"), try files(killed, "csv"))
        // The uninterrupted run computed analytics and samples from its sorted runs while the
        // store was indexed; the resumed one, which loaded part of the data in earlier processes,
        // read them back through the index. Both give the same files.
        XCTAssertEqual(try files(straight, "parquet"), try files(killed, "parquet"))
        XCTAssertEqual(try query(killed + "/health.sqlite", "SELECT count(*) FROM runs"), ["1"])
        // Every copy counted once: the run's total as the uninterrupted run's (the generator
        // writes a few copies of its own), the per-record table and the reconciliation.
        let total = try query(straight + "/health.sqlite", "SELECT duplicates FROM runs")
        XCTAssertGreaterThanOrEqual(Int(total.first ?? "") ?? 0, copies.count)
        XCTAssertEqual(try query(killed + "/health.sqlite", "SELECT duplicates FROM runs"), total)
        XCTAssertEqual(try query(killed + "/health.sqlite", "SELECT sum(copies) FROM duplicate_copies"), total)
        XCTAssertEqual(try query(killed + "/health.sqlite", "SELECT sum(duplicates_dropped) > 0 FROM reconciliation"), ["1"])
        XCTAssertEqual(try query(killed + "/health.sqlite", "SELECT count(*) FROM load_checkpoint"), ["0"])
    }

    /// A checkpoint of an unfinished run of another export is dropped, not resumed; so is a
    /// staged store that is not a store at all.
    func testCheckpointOfAnotherExportIsDiscarded() throws {
        let dir = try temporaryFolder(self)
        let first = dir.appendingPathComponent("a.xml").path, second = dir.appendingPathComponent("b.xml").path
        try generateExport(["--out", first, "--days", "40", "--scale", "3", "--seed", "41"])
        try generateExport(["--out", second, "--days", "12", "--seed", "42"])
        let pipeline = try write(#"{"checkpointRecords": 1000}"#, to: "pipeline.json", in: dir)
        let out = dir.appendingPathComponent("out").path, fresh = dir.appendingPathComponent("fresh").path
        let args = { (export: String, out: String) in
            ["import", export, "--out", out, "--pipeline", pipeline, "--timezone", "Europe/Berlin", "--quiet"]
        }
        let process = try start(args(first, out))
        XCTAssertTrue(kill(process, after: 0) { (checkpoint(out)?.sequence ?? 0) >= 2 }, "killed mid-load")
        XCTAssertTrue(try healthetl(["status", "--out", out]).stdout.contains("a.xml read to element"))

        XCTAssertEqual(try healthetl(args(second, out)).status, 0)
        XCTAssertEqual(try healthetl(args(second, fresh)).status, 0)
        XCTAssertEqual(try storedRows(out + "/health.sqlite"), try storedRows(fresh + "/health.sqlite"))

        // A broken staged store is removed and the load starts over.
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: out + "/.healthetl/delta.sqlite"))
        let next = try healthetl(args(second, out))
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/.healthetl/delta.sqlite"))
    }
}
