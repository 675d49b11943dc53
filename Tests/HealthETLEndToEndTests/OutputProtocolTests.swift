import Foundation
import XCTest
@testable import HealthCore
import HealthEmit
import HealthOutputs
@testable import HealthPipeline
import HealthStore
import SQLite
import TestSupport

/// Issue 30: an output is one type conforming to `Output`; the pipeline stages it from the
/// finished store and publishes it with the store, knowing nothing of its format.
final class OutputProtocolTests: XCTestCase {
    /// A format the pipeline has never heard of: one line per day of the store.
    struct DayListOutput: Output {
        var name: String { "days" }
        var summaryName: String { "days.txt" }
        var published: [String] { ["days.txt"] }
        func isMissing(in folder: String) -> Bool {
            !FileManager.default.fileExists(atPath: folder + "/days.txt")
        }
        func stage(from database: Database, in staging: String, folder: String, run: StagingRun,
                   progress: (String) throws -> Void) throws -> StagedFiles {
            let days = try HealthStore(database: database).allDaily().map(\.date.iso8601)
            let path = staging + "/days.txt"
            try Data((days.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
            return StagedFiles(moves: [StagedOutput(staged: path, final: folder + "/days.txt")], rows: ["days": days.count])
        }
    }

    func testANewOutputIsStagedAndPublishedWithTheStore() throws {
        let out = try temporaryFolder(self).appendingPathComponent("out").path
        let export = TestPaths.packageRoot.path + "/sample-data/export.xml"
        let zone = TimeZoneChoice(zone: TimeZone(identifier: "Europe/Berlin")!, reason: "test")
        let summary = try ImportJob(options: .init(export: export, out: out, timeZone: zone, outputs: [DayListOutput()],
                                                   layout: OutputLayout([DayListOutput()]))).run()
        let text = try String(contentsOfFile: out + "/days.txt", encoding: .utf8)
        let stored = try query(out + "/health.sqlite", "SELECT date FROM daily_analytics ORDER BY date")
        XCTAssertEqual(text.split(separator: "\n").map(String.init), stored)
        XCTAssertEqual(summary.outputRows["days"], stored.count)
        // Only what was asked for: no format of the registry.
        for absent in ["csv", "parquet", "report", "health.xlsx"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/" + absent), absent)
        }
        // Nothing new, nothing missing: not written again; removed: written again.
        try FileManager.default.removeItem(atPath: out + "/days.txt")
        _ = try ImportJob(options: .init(export: export, out: out, timeZone: zone, outputs: [DayListOutput()],
                                         layout: OutputLayout([DayListOutput()]))).run()
        XCTAssertEqual(try String(contentsOfFile: out + "/days.txt", encoding: .utf8), text)
    }

    /// Issue 57: what an output publishes is what `reset` removes, the planted-link check and
    /// the stale-staging sweep look at, and the summary names as kept: an output added to a
    /// run's outputs and its folder's layout, as the registry adds one, is followed by every
    /// one of them with no line of the pipeline naming it.
    func testAnAddedOutputIsSummedUpResetSweptAndCheckedForLinks() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        let export = TestPaths.packageRoot.path + "/sample-data/export.xml"
        let zone = TimeZoneChoice(zone: TimeZone(identifier: "Europe/Berlin")!, reason: "test")
        let layout = OutputLayout([DayListOutput()])
        func run() throws -> RunSummary {
            try ImportJob(options: .init(export: export, out: out, timeZone: zone, outputs: [DayListOutput()], layout: layout)).run()
        }
        XCTAssertEqual(try run().outputsWritten, ["health.sqlite", "days.txt"])
        let again = try run()
        XCTAssertEqual(again.outputsWritten, [], "the same export: nothing written")
        XCTAssertEqual(again.outputsUnchanged, ["days.txt"])
        XCTAssertTrue(again.text.contains("unchanged: \(out)/days.txt"), again.text)

        let folder = OutputFolder(path: out, layout: layout)
        try FileManager.default.createDirectory(atPath: out + "/.healthetl/staging-999999", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: out + "/days.txt.tmp-999999"))
        folder.removeStaleStaging()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.contains("tmp-") }, [])
        let plan = ResetPlan(folder: folder)
        XCTAssertTrue(plan.lines.contains("days.txt"), "\(plan.lines)")
        XCTAssertFalse(ResetPlan(folder: OutputFolder(path: out)).lines.contains("days.txt"),
                       "a folder laid out without the output does not know it")
        // A link planted in its place is refused before anything is written.
        let kept = try Data(contentsOf: URL(fileURLWithPath: out + "/days.txt"))
        try FileManager.default.moveItem(atPath: out + "/days.txt", toPath: dir.appendingPathComponent("decoy.txt").path)
        try FileManager.default.createSymbolicLink(atPath: out + "/days.txt", withDestinationPath: dir.appendingPathComponent("decoy.txt").path)
        XCTAssertThrowsError(try folder.refusePlantedLinks()) { error in
            XCTAssertTrue("\(error)".contains("\(out)/days.txt is a symbolic link"), "\(error)")
        }
        XCTAssertNoThrow(try OutputFolder(path: out).refusePlantedLinks(), "without the output, nothing to check there")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir.appendingPathComponent("decoy.txt").path)), kept)
        try FileManager.default.removeItem(atPath: out + "/days.txt")
        try ResetPlan(folder: folder).remove()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(), [".healthetl"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out + "/.healthetl"), ["lock"])
    }

    func testTheRegistryMakesThePipelinesOutputsInOrderAndNamesAnUnknownOne() throws {
        var config = PipelineConfig()
        config.outputs = ["xlsx", "sqlite", "csv"]
        XCTAssertEqual(try OutputRegistry.standard.outputs(for: config).map(\.name), ["csv", "xlsx"])
        XCTAssertEqual(try OutputRegistry.standard.outputs(for: PipelineConfig()).map(\.name), ["csv", "parquet", "report", "xlsx"])
        config.outputs = ["csv", "jsonl"]
        XCTAssertThrowsError(try OutputRegistry.standard.outputs(for: config)) { error in
            XCTAssertEqual(error as? HealthETLError,
                           .usage("unknown output 'jsonl' (expected sqlite, csv, parquet, report, xlsx or fhir)"))
        }
    }

    /// A person's Parquet tables are written once: their dataset partition is the same file
    /// as their own `parquet/` table (one inode), not a second copy of the same bytes.
    func testAPersonsTablesAreWrittenOnceForTheirFolderAndTheDataset() throws {
        let out = try temporaryFolder(self).appendingPathComponent("family").path
        let r = try healthetl(["import", TestPaths.packageRoot.path + "/sample-data/export.xml", "--out", out, "--person", "ann",
                               "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        func inode(_ path: String) throws -> Int {
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int, path)
        }
        for table in ["daily", "weekly", "sleep", "workouts", "ecg_recordings"] {
            let own = out + "/people/ann/parquet/\(table).parquet"
            let partition = out + "/dataset/\(table)/person=ann/part-0.parquet"
            XCTAssertEqual(try inode(own), try inode(partition), table)
            let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: partition)[.posixPermissions] as? Int)
            XCTAssertEqual(mode & 0o077, 0, "\(table): private")
        }
    }
}
