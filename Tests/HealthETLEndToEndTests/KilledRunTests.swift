import Foundation
import XCTest
import TestSupport

/// A run killed while it writes its outputs leaves the previous outputs exactly as they were,
/// and the next run cleans up after it (docs/RUNS.md, "Publishing": files are replaced atomically).
final class KilledRunTests: XCTestCase {
    /// Name → contents of every published output file: CSV and Parquet byte for byte, the
    /// store by what a reader gets from it (an interrupted transaction of an incremental run
    /// leaves frames in SQLite's write-ahead log that no reader sees).
    func snapshot(_ out: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for sub in ["", "csv", "parquet"] {
            let dir = sub.isEmpty ? out : out + "/" + sub
            for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
                var isDir: ObjCBool = false
                let path = dir + "/" + name
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue,
                      !name.hasSuffix("-wal"), !name.hasSuffix("-shm") else { continue }
                if name == "health.sqlite" {
                    let reader = try query(path, """
                        SELECT (SELECT count(*) || ':' || total(value) FROM sample_data) || ' ' ||
                               (SELECT group_concat(date || '=' || ifnull(steps, ''), ',') FROM daily_analytics) || ' ' ||
                               (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM anchors)
                        """)
                    files[name] = Data(reader.joined().utf8)
                    continue
                }
                files[(sub.isEmpty ? "" : sub + "/") + name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    /// Starts an import of `export` and SIGKILLs it `delay` after its CSV/Parquet staging
    /// folder appears; returns false if the run finished before it could be killed.
    func killWhileWritingOutputs(_ export: String, out: String, delay: useconds_t) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.binary)
        process.arguments = ["import", export, "--out", out, "--quiet", "--timezone", "Europe/Berlin"]
        try process.run()
        let staging = out + "/.healthetl/staging-\(process.processIdentifier)"
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, !FileManager.default.fileExists(atPath: staging), Date() < deadline { usleep(500) }
        if delay > 0 { usleep(delay) }
        let killed = process.isRunning
        if killed { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return killed && process.terminationReason == .uncaughtSignal
    }

    func testKillWhileWritingOutputsLeavesPreviousOutputsIntact() throws {
        let dir = try temporaryFolder(self)
        let small = dir.appendingPathComponent("small.xml").path
        let large = dir.appendingPathComponent("large.xml").path
        try generateExport(["--out", small, "--days", "10", "--seed", "3"])
        try generateExport(["--out", large, "--days", "120", "--scale", "4", "--seed", "4"])
        let out = dir.appendingPathComponent("out").path
        let first = try healthetl(["import", small, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let before = try snapshot(out)
        XCTAssertTrue(before.keys.contains("csv/daily.csv") && before.keys.contains("parquet/samples.parquet"), "\(before.keys)")

        var kills = 0
        for delay: useconds_t in [0, 2_000, 10_000, 30_000, 80_000, 150_000] {
            guard try killWhileWritingOutputs(large, out: out, delay: delay) else { continue }
            kills += 1
            let after = try snapshot(out)
            XCTAssertEqual(Set(after.keys), Set(before.keys), "no new or half files appear (delay \(delay) µs)")
            for (name, data) in before { XCTAssertEqual(after[name], data, "\(name) changed (delay \(delay) µs)") }
        }
        XCTAssertGreaterThanOrEqual(kills, 3, "the run ended before most kills; make the large export larger")

        // The next run takes over, publishes the new outputs and leaves no staging behind.
        let next = try healthetl(["import", large, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(next.status, 0, next.stderr)
        let state = try FileManager.default.contentsOfDirectory(atPath: out + "/.healthetl")
        XCTAssertEqual(state.filter { $0.hasPrefix("staging-") }, [])
        let final = try snapshot(out)
        XCTAssertEqual(Set(final.keys), Set(before.keys))
        XCTAssertNotEqual(final["csv/daily.csv"], before["csv/daily.csv"])
        XCTAssertEqual(state.filter { $0.contains(".partial-") }, [])
    }
}
