import Foundation
import XCTest
@testable import HealthCore
@testable import HealthEmit
@testable import HealthIngest
@testable import SQLite

/// Paths and helpers shared by the tests.
enum TestPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    static let realExports = shared.appendingPathComponent("realexports")
    static let generator = packageRoot.appendingPathComponent("tools/generate_export.py").path

    /// The `healthetl` binary built next to the test bundle.
    static var binary: String {
        let dir = Bundle.main.bundleURL.deletingLastPathComponent()
        for candidate in [Bundle(for: Marker.self).bundleURL.deletingLastPathComponent(), dir,
                          packageRoot.appendingPathComponent(".build/debug")] {
            let path = candidate.appendingPathComponent("healthetl").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return packageRoot.appendingPathComponent(".build/debug/healthetl").path
    }

    static func realExport(_ relative: String) throws -> String {
        let path = realExports.appendingPathComponent(relative).path
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("missing fixture \(path)") }
        return path
    }
}

private final class Marker {}

/// A fresh temporary folder, removed at the end of the test.
func temporaryFolder(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("healthetl-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The process died of a signal (`status` is its number), not by exiting.
    var killedBySignal = false
}

/// Runs a program to completion, with a time limit (a hang is a failure, not a stuck CI).
@discardableResult
func runProcess(_ executable: String, _ arguments: [String], timeout: TimeInterval = 120,
                environment: [String: String]? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = Handoff(), errData = Handoff()
    let group = DispatchGroup()
    group.enter(); DispatchQueue.global().async { outData.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.enter(); DispatchQueue.global().async { errData.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
        process.terminate()
        process.waitUntilExit()
        throw NSError(domain: "test", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(executable) timed out"])
    }
    process.waitUntilExit()
    group.wait()
    return ProcessResult(status: process.terminationStatus,
                         stdout: String(decoding: outData.data, as: UTF8.self),
                         stderr: String(decoding: errData.data, as: UTF8.self),
                         killedBySignal: process.terminationReason == .uncaughtSignal)
}

private final class Handoff: @unchecked Sendable { var data = Data() }

/// Runs `healthetl` with arguments.
@discardableResult
func healthetl(_ arguments: [String], timeout: TimeInterval = 300) throws -> ProcessResult {
    try runProcess(TestPaths.binary, arguments, timeout: timeout)
}

/// Runs the sample generator (Python tooling) with arguments.
func generateExport(_ arguments: [String]) throws {
    let result = try runProcess("/usr/bin/env", ["python3", TestPaths.generator] + arguments, timeout: 300)
    XCTAssertEqual(result.status, 0, result.stderr)
}

/// Reads every batch of an export in-process.
func readBatches(_ path: String) throws -> (batches: [IngestBatch], summary: ExportReader.Summary) {
    let collected = BatchBox()
    let summary = try ExportReader(source: ExportSource(path: path), batchSize: 64).run { collected.batches.append($0) }
    return (collected.batches, summary)
}

final class BatchBox: @unchecked Sendable { var batches: [IngestBatch] = [] }

/// Writes `text` to a file in `folder`.
@discardableResult
func write(_ text: String, to name: String, in folder: URL) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}

/// Opens a store read-only and returns a query's first column as strings.
func query(_ db: String, _ sql: String) throws -> [String] {
    try Database(path: db, mode: .readOnly).rows(sql).map { $0.first?.string ?? "NULL" }
}

/// Opens a store read-only and returns every column of a query.
func queryRows(_ db: String, _ sql: String) throws -> [[SQLValue]] {
    try Database(path: db, mode: .readOnly).rows(sql)
}

/// Every analytics table and the sample set, as comparable lines.
let analyticsQueries = [
    "SELECT * FROM daily_analytics ORDER BY date",
    "SELECT * FROM weekly_analytics ORDER BY week_start",
    "SELECT * FROM monthly_analytics ORDER BY start_date",
    "SELECT * FROM yearly_analytics ORDER BY year",
    "SELECT * FROM sleep_sessions ORDER BY night_date",
    "SELECT * FROM daily_metrics ORDER BY date, type",
    "SELECT date, hour, type, round(sum, 6) FROM hourly_metrics ORDER BY date, type, hour",
    "SELECT count(*), sum(value), count(DISTINCT identity) FROM sample_data",
    "SELECT id, activity_type, start_utc, distance_m FROM workouts ORDER BY id",
    "SELECT * FROM activity_summaries ORDER BY date",
]

/// Rows of every analytics query, without row ids and run stamps.
func analyticsSnapshot(_ store: String) throws -> [String] {
    let db = try Database(path: store, mode: .readOnly)
    var out: [String] = []
    for sql in analyticsQueries {
        let stmt = try db.prepare(sql)
        while try stmt.step() {
            let cells = (0..<stmt.columnCount).filter { !["id", "recorded_at"].contains(stmt.columnName($0)) || sql.contains("workouts") }
                .map { i -> String in
                    switch stmt.value(i) {
                    case .real(let v): String(format: "%.9g", v)
                    default: stmt.value(i).description
                    }
                }
            out.append(sql.prefix(30) + ": " + cells.joined(separator: "|"))
        }
    }
    return out
}
