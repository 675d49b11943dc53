import Foundation
import XCTest
@testable import SQLite
import TestSupport

/// Issue 58: a Health Connect import SIGKILLed after its first checkpoint publishes nothing; the
/// same command then resumes where the checkpoint says (the table and the row after which it
/// goes on, `resumed_at_element` in its summary) and ends with the store an uninterrupted run
/// gives; the nightly run of the same export afterwards changes nothing. The export is
/// `generate.py --synthetic` (Android's own schema): 60 days of a phone and a watch.
final class HealthConnectResumeTests: XCTestCase {
    struct Checkpoint: Decodable { var sequence: Int; var phase: String }

    func checkpoint(_ out: String) -> Checkpoint? {
        guard let data = FileManager.default.contents(atPath: out + "/.healthetl/checkpoint.json") else { return nil }
        return try? JSONDecoder().decode(Checkpoint.self, from: data)
    }

    /// A synthetic export of `days` days as the phone writes it (a zip holding the database).
    func generate(days: Int, seed: Int, into dir: URL) throws -> String {
        let zip = dir.appendingPathComponent("health_connect_export.zip").path
        let result = try runProcess(try TestTools.python(), [HealthConnectScenario.generator, "--synthetic", "--days", "\(days)",
                                                             "--seed", "\(seed)", "--start", "2025-03-01", zip])
        guard result.status == 0 else { throw TestFailure("generate.py failed: \(result.stderr)") }
        return zip
    }

    func summary(_ result: ProcessResult) -> [String: Any] {
        let line = result.stdout.split(separator: "\n").last { $0.hasPrefix("{") } ?? ""
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    /// Every table of a store but the run log, row by row in the order of all its columns, the
    /// run time stamps blanked: what scripts/compare-outputs.sh compares.
    func dump(_ store: String) throws -> [String] {
        let db = try Database(path: store, mode: .readOnly)
        var out: [String] = []
        let tables = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('runs') ORDER BY name")
            .compactMap { $0[0].string }
        for table in tables {
            let columns = try db.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0[0].string }
            let select = columns.map { ["recorded_at", "updated_at"].contains($0) ? "NULL" : "\"\($0)\"" }.joined(separator: ", ")
            let order = (1...columns.count).map(String.init).joined(separator: ", ")
            out.append("## \(table) \(columns)")
            for row in try db.rows("SELECT \(select) FROM \"\(table)\" ORDER BY \(order)") {
                out.append(table + ": " + row.map(\.description).joined(separator: "|"))
            }
        }
        return out
    }

    func assertSameStore(_ a: String, _ b: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let x = try dump(a), y = try dump(b)
        XCTAssertEqual(x.count, y.count, "rows: \(message)", file: file, line: line)
        for (p, q) in zip(x, y) where p != q {
            XCTFail("\(message)\n  one: \(p)\nother: \(q)", file: file, line: line)
            break
        }
    }

    /// The files a run publishes beside the store (CSV, Parquet, the report, the workbook).
    func outputs(_ out: String) throws -> [String: Data] {
        try publishedOutputs(out).filter { !$0.key.hasPrefix("health.sqlite") }
    }

    func testKilledAfterTheFirstCheckpointResumesToTheStraightRunsStoreAndTheNightlyRunChangesNothing() throws {
        let dir = try temporaryFolder(self)
        let zip = try generate(days: 60, seed: 58, into: dir)
        let pipeline = try write(#"{"checkpointRecords": 1000}"#, to: "pipeline.json", in: dir)
        let straight = dir.appendingPathComponent("straight").path, killed = dir.appendingPathComponent("killed").path
        let args = { (out: String) in ["import", zip, "--out", out, "--pipeline", pipeline, "--json"] }
        let uninterrupted = try healthetl(args(straight))
        XCTAssertEqual(uninterrupted.status, 0, uninterrupted.stderr)
        let elements = summary(uninterrupted)["elements"] as? Int ?? 0
        XCTAssertGreaterThan(elements, 15_000, "60 days of a phone and a watch")

        // Killed once the first checkpoint is committed.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.binary)
        process.arguments = args(killed).filter { $0 != "--json" } + ["--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, (checkpoint(killed)?.sequence ?? 0) < 1, Date() < deadline { usleep(200) }
        let wasRunning = process.isRunning
        if wasRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        XCTAssertTrue(wasRunning && process.terminationReason == .uncaughtSignal, "the run ended before its kill")
        let state = try XCTUnwrap(checkpoint(killed), "the kill left the checkpoint")
        XCTAssertEqual(state.phase, "loading")
        XCTAssertEqual(try publishedOutputs(killed), [:], "a killed first run publishes nothing")
        XCTAssertFalse(FileManager.default.fileExists(atPath: killed + "/health.sqlite"))
        let pending = try healthetl(["status", "--out", killed])
        XCTAssertTrue(pending.stdout.contains("Pending resume"), pending.stdout + pending.stderr)

        // The same command resumes, after the first rows, and ends where the straight run did.
        let resumed = try healthetl(args(killed))
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let resumedSummary = summary(resumed)
        let at = try XCTUnwrap(resumedSummary["resumed_at_element"] as? Int, "the summary says where it resumed: \(resumed.stdout)")
        XCTAssertGreaterThan(at, 0)
        XCTAssertLessThan(at, elements)
        XCTAssertEqual(resumedSummary["elements"] as? Int, elements)
        XCTAssertEqual(resumedSummary["platform"] as? String, "health-connect")
        XCTAssertFalse(FileManager.default.fileExists(atPath: killed + "/.healthetl/checkpoint.json"))
        try assertSameStore(straight + "/health.sqlite", killed + "/health.sqlite", "uninterrupted and resumed")
        XCTAssertEqual(try query(killed + "/health.sqlite", "SELECT count(*) FROM runs"), ["1"])
        // The run's own counts too (the dump leaves the run log out): every row read once.
        let counts = "SELECT elements, records_read, samples, duplicates, quarantined, workouts, route_points FROM runs"
        XCTAssertEqual(try query(killed + "/health.sqlite", counts), try query(straight + "/health.sqlite", counts))
        XCTAssertGreaterThan(Int(try query(killed + "/health.sqlite", "SELECT count(*) FROM sample_data").first ?? "") ?? 0, 30_000)
        XCTAssertEqual(try fileContents(under: straight + "/csv"), try fileContents(under: killed + "/csv"))
        XCTAssertEqual(try fileContents(under: straight + "/parquet"), try fileContents(under: killed + "/parquet"))

        // The nightly run of the same export, the very file and then the same database in a new
        // zip: nothing read, or everything skipped by its anchor; the store as it was.
        let published = try dump(killed + "/health.sqlite"), files = try outputs(killed)
        let same = try healthetl(args(killed))
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(summary(same)["mode"] as? String, "unchanged", same.stdout)
        XCTAssertEqual(try dump(killed + "/health.sqlite"), published)
        let resaved = dir.appendingPathComponent("later/health_connect_export.zip").path
        try FileManager.default.createDirectory(atPath: (resaved as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: zip, toPath: resaved)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: resaved)
        let nightly = try healthetl(["import", resaved, "--out", killed, "--pipeline", pipeline, "--json"])
        XCTAssertEqual(nightly.status, 0, nightly.stderr)
        let night = summary(nightly)
        XCTAssertNotEqual(night["mode"] as? String, "full", nightly.stdout)
        XCTAssertEqual(night["new_samples"] as? Int ?? -1, 0, nightly.stdout)
        XCTAssertEqual(try dump(killed + "/health.sqlite"), published, "a nightly run of the same records changes the store")
        assertSamePublished(files, try outputs(killed), "the nightly run of the same records")
    }

    func testTheRunSummaryAndStatusNameThePlatform() throws {
        let dir = try temporaryFolder(self)
        let zip = try generate(days: 3, seed: 5, into: dir)
        let out = dir.appendingPathComponent("out").path
        let run = try healthetl(["import", zip, "--out", out, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(summary(run)["platform"] as? String, "health-connect")
        let status = try healthetl(["status", "--out", out])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("platform: health-connect"), status.stdout)

        // An Apple export's store says so too.
        let xml = dir.appendingPathComponent("export.xml").path
        try generateExport(["--out", xml, "--days", "3", "--seed", "5"])
        let apple = dir.appendingPathComponent("apple").path
        let appleRun = try healthetl(["import", xml, "--out", apple, "--json"])
        XCTAssertEqual(summary(appleRun)["platform"] as? String, "apple-health")
        let appleStatus = try healthetl(["status", "--out", apple])
        XCTAssertTrue(appleStatus.stdout.contains("platform: apple-health"), appleStatus.stdout)
        XCTAssertFalse(appleStatus.stdout.contains("health-connect"), appleStatus.stdout)
    }
}
