import XCTest
import TestSupport

/// `--json` reports, per phase of a run, CPU seconds and the peak RSS besides wall seconds
/// (issue 35: the benchmark shows what each phase costs, not only how long it took).
final class PhaseFiguresTests: XCTestCase {
    func testEveryPhaseHasCPUSecondsAndAPeakRSS() throws {
        let dir = try temporaryFolder(self)
        let export = dir.appendingPathComponent("e.xml").path
        try generateExport(["--out", export, "--days", "10", "--seed", "35"])
        let out = dir.appendingPathComponent("out").path
        for (run, extra) in [("full", ["--full"]), ("nightly", [])] {
            // Saved again, so that the nightly run reads it (the very same file is not read).
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: export)
            let summary = try importJSON(export, out, extra)
            let wall = try XCTUnwrap(summary["phase_seconds"] as? [String: Double], run)
            let cpu = try XCTUnwrap(summary["phase_cpu_seconds"] as? [String: Double], run)
            let rss = try XCTUnwrap(summary["phase_peak_rss_mb"] as? [String: Double], run)
            XCTAssertFalse(wall.isEmpty, run)
            XCTAssertEqual(Set(cpu.keys), Set(wall.keys), run)
            XCTAssertEqual(Set(rss.keys), Set(wall.keys), run)
            for (phase, seconds) in cpu {
                XCTAssertGreaterThanOrEqual(seconds, 0, "\(run) \(phase)")
                // Whole-process CPU over a phase cannot exceed its wall time on every core at once.
                XCTAssertLessThanOrEqual(seconds, wall[phase]! * Double(ProcessInfo.processInfo.activeProcessorCount) + 0.05,
                                         "\(run) \(phase)")
            }
            // A Swift process with SQLite open is several MB resident, and not terabytes (units).
            for (phase, mb) in rss { XCTAssert(mb > 5 && mb < 100_000, "\(run) \(phase): \(mb) MB") }
            if run == "full" {
                XCTAssertNotNil(cpu["load"]); XCTAssertNotNil(cpu["dedupe_index"])
                XCTAssertGreaterThan(cpu["load"]!, 0, "the load parses and stores: it costs CPU")
                // A high-water mark never falls from one phase to a later one.
                XCTAssertLessThanOrEqual(rss["load"]!, rss["dedupe_index"]!)
            }
        }
    }
}
