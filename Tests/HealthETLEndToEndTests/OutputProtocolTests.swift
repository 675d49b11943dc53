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
        let summary = try ImportJob(options: .init(export: export, out: out, timeZone: zone, outputs: [DayListOutput()])).run()
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
        _ = try ImportJob(options: .init(export: export, out: out, timeZone: zone, outputs: [DayListOutput()])).run()
        XCTAssertEqual(try String(contentsOfFile: out + "/days.txt", encoding: .utf8), text)
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
