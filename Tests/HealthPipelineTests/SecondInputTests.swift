import Foundation
import XCTest
import HealthCore
@testable import HealthPipeline
import TestSupport

/// Issue 57: an input is a `HealthInputFormat` and the pipeline reads every kind the same way.
/// A format the pipeline has never heard of — a step log, one record a line, resumable by line
/// — is added to a run's inputs and nothing else: its records are normalized, deduplicated,
/// counted into days and published; its progress is in rows; a run killed part way resumes
/// from the last committed line and ends with the store a straight run makes.
final class SecondInputTests: XCTestCase {
    /// `# step log` then `start end source count` a line (epoch seconds, UTC).
    struct StepLog: HealthInput, HealthInputFormat {
        static let header = "# step log"
        let path: String
        let lines: [String]

        static func recognizes(_ path: String) throws -> Bool {
            (try? String(contentsOfFile: path, encoding: .utf8))?.hasPrefix(header) ?? false
        }
        static func open(_ path: String, scratch: String) throws -> any HealthInput {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return StepLog(path: path, lines: text.split(separator: "\n").dropFirst().map(String.init))
        }

        var platform: InputPlatform { .healthConnect }
        var kindName: String { "step-log" }
        var dataFile: String { path }
        var displayName: String { path }
        var inputBytes: Int64 { 0 }
        var progressTotal: Int64 { Int64(lines.count) }
        var estimatedRecords: Int { lines.count }
        var notes: [String] { [] }
        var fingerprintFile: String { path }
        var companionFolder: String? { nil }
        func person() throws -> ExportPerson? { nil }
        func zoneHints() throws -> ExportZoneHints { ExportZoneHints() }

        /// A file beside the log (`LINES CHECKPOINT`) makes the read fail after that many lines,
        /// once the load has committed a checkpoint (the stages run on their own threads): the kill.
        var kill: (after: Int, checkpoint: String)? {
            guard let f = (try? String(contentsOfFile: path + ".kill", encoding: .utf8))?.split(separator: " "),
                  f.count == 2, let after = Int(f[0]) else { return nil }
            return (after, String(f[1]))
        }

        func read(resumingAt resume: ResumePoint?, knownRoutePaths: [String], prefilter: (any RecordPrefilter)?,
                  emit: @escaping (IngestBatch) throws -> Void) throws -> IngestSummary {
            var batch = IngestBatch()
            let first = Int(resume?.afterRowID ?? 0)
            let kill = kill
            for (index, line) in lines.enumerated().dropFirst(first) {
                if let kill, index >= kill.after {
                    for _ in 0..<500 where !FileManager.default.fileExists(atPath: kill.checkpoint) { usleep(10_000) }
                    throw HealthETLError.dataUnusable("killed at line \(index)")
                }
                let f = line.split(separator: " ").map(String.init)
                batch.records.append(ExportRecord(type: "HKQuantityTypeIdentifierStepCount", source: SourceInfo(name: f[2]),
                                                  unit: "count", value: f[3],
                                                  creationDate: Timestamp(secondsSince1970: Double(f[1])!),
                                                  startDate: Timestamp(secondsSince1970: Double(f[0])!),
                                                  endDate: Timestamp(secondsSince1970: Double(f[1])!), line: index + 2))
                let done = Int64(index + 1)
                batch.position = InputPosition(bytesRead: done, totalBytes: progressTotal, elementOrdinal: done,
                                               resume: ResumePoint(inputOffset: 0, elementOrdinal: done, line: 0,
                                                                   inputComplete: done == progressTotal,
                                                                   table: "lines", afterRowID: done))
                try emit(batch)
                batch = IngestBatch()
            }
            var summary = IngestSummary()
            summary.elements = progressTotal
            summary.notRead.append("1 line of comments")
            return summary
        }
    }

    private let utc = TimeZoneChoice(zone: TimeZone(identifier: "UTC")!, reason: "test")

    private func write(_ lines: [String], in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("steps.log").path
        try Data(([StepLog.header] + lines).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func importLog(_ path: String, into out: String, progress: ImportProgressHandler? = nil) throws -> RunSummary {
        var config = PipelineConfig()
        config.checkpointRecords = 2
        return try ImportJob(options: .init(export: path, out: out, timeZone: utc, config: config, outputs: [],
                                            layout: .storeOnly, progress: progress, inputs: [StepLog.self] + InputFormats.all)).run()
    }

    private func daily(_ out: String) throws -> [String] {
        try query(out + "/health.sqlite", "SELECT date || ' ' || steps FROM daily_analytics ORDER BY date")
    }

    /// 2024-03-01T23:00Z … 2024-03-02T01:00Z: 120 steps, half on each day; an exact copy once.
    private let log = [
        "1709334000 1709341200 app 120",
        "1709334000 1709341200 app 120",
        "1709370000 1709373600 app 500",
        "1709420400 1709424000 app 30",
    ]

    func testAnAddedInputIsReadCountedAndNamed() throws {
        let dir = try temporaryFolder(self)
        let path = try write(log, in: dir)
        let reports = ProgressLog()
        let summary = try importLog(path, into: dir.appendingPathComponent("out").path, progress: { reports.add($0) })
        XCTAssertEqual(try daily(dir.appendingPathComponent("out").path), ["2024-03-01 60", "2024-03-02 590"])
        XCTAssertEqual(summary.platform, "health-connect")
        XCTAssertEqual(summary.inputKind, "step-log")
        XCTAssertEqual(summary.duplicates, 1, "the exact copy is dropped by the load, as for an Apple export")
        XCTAssertTrue(summary.notes.contains("Not read: 1 line of comments"), "\(summary.notes)")
        XCTAssertEqual(reports.fractions, reports.fractions.sorted(), "progress never goes back")
        XCTAssertEqual(reports.fractions.last, 1)
        // The Apple reader still takes what the step log does not recognise.
        XCTAssertThrowsError(try importLog(dir.appendingPathComponent("nothing.txt").path, into: dir.appendingPathComponent("o2").path))
    }

    func testAKilledReadResumesAtItsLastCommittedRow() throws {
        let dir = try temporaryFolder(self)
        let path = try write(log, in: dir)
        let straight = dir.appendingPathComponent("straight").path
        _ = try importLog(path, into: straight)

        let out = dir.appendingPathComponent("out").path
        try Data("3 \(out)/.healthetl/checkpoint.json".utf8).write(to: URL(fileURLWithPath: path + ".kill"))
        XCTAssertThrowsError(try importLog(path, into: out))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/health.sqlite"), "nothing published")
        let checkpoint = try String(contentsOfFile: out + "/.healthetl/checkpoint.json", encoding: .utf8)
        XCTAssertTrue(checkpoint.contains("\"table\" : \"lines\""), checkpoint)
        try FileManager.default.removeItem(atPath: path + ".kill")
        let resumed = try importLog(path, into: out)
        XCTAssertEqual(resumed.resumedAtElement, 2, "the last commit was after two rows")
        XCTAssertEqual(try daily(out), try daily(straight))
        XCTAssertEqual(resumed.duplicates + resumed.samples, 4)
    }
}

/// The fractions an import reported, in order.
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Double] = []
    func add(_ p: ImportProgress) { lock.lock(); list.append(p.fraction); lock.unlock() }
    var fractions: [Double] { lock.lock(); defer { lock.unlock() }; return list }
}
