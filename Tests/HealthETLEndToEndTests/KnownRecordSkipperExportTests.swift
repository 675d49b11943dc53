import Foundation
import XCTest
@testable import HealthCore
@testable import HealthIngest
import TestSupport

/// The byte-level skipper on generated exports (plain and zipped, broken DOCTYPE, vertical tabs):
/// the same records, workouts, resume points and counts with and without it, for any chunk size.
final class KnownRecordSkipperExportTests: XCTestCase {
    func generated(_ seed: String, _ extra: [String] = []) throws -> String {
        let path = try temporaryFolder(self).appendingPathComponent("export.xml").path
        try generateExport(["--out", path, "--days", "3", "--seed", seed] + extra)
        return path
    }

    /// The export's first workout again right after it, as another kind of workout (a second
    /// id): three days hold one.
    func withASecondWorkout(_ path: String) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = try XCTUnwrap(bytes.range(of: Data("\n <Workout ".utf8)))
        let end = try XCTUnwrap(bytes.range(of: Data("</Workout>".utf8), in: start.upperBound..<bytes.endIndex))
        var copy = bytes[start.lowerBound..<end.upperBound]
        let type = try XCTUnwrap(copy.range(of: Data("workoutActivityType=\"".utf8)))
        copy.insert(contentsOf: Data("X".utf8), at: type.upperBound)
        bytes.insert(contentsOf: copy, at: end.upperBound)
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    func testSameResultWithAndWithoutByteSkippingForAnyChunkSize() throws {
        let path = try generated("31", ["--broken-dtd", "--vertical-tabs"])
        try withASecondWorkout(path)
        let prefilter = try middleCutoffs(path)
        let off = try parse(path, prefilter, skipper: false)
        XCTAssertGreaterThan(off.skipped, 100, "the cutoffs must drop records")
        XCTAssertTrue(off.items.contains { $0.hasPrefix("correlation") && !$0.hasSuffix(" 0: ") })
        XCTAssertTrue(off.items.contains { $0.hasPrefix("record") && !$0.hasSuffix("b0") }, "records with beat lists")
        XCTAssertTrue(off.items.contains { $0.hasPrefix("workout") }, "a workout the prefilter does not know")
        // Every other workout is known: dropped at the SAX level here, by their bytes below.
        let workouts = try parse(path, nil, skipper: false).items.filter { $0.hasPrefix("workout") }.count
        let knownWorkouts = workouts - off.items.filter { $0.hasPrefix("workout") }.count
        XCTAssertGreaterThan(knownWorkouts, 0)
        XCTAssertGreaterThan(off.summary.repairedBytes, 0)
        // The byte level drops every one of them (none needs the SAX-level check here).
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let direct = skip(bytes, prefilter, chunk: 1 << 16)
        XCTAssertEqual(direct.skipper.recordsSkipped, off.skipped)
        XCTAssertEqual(direct.skipper.log.total.elements, off.skipped + knownWorkouts, "the known workouts, by their bytes")
        XCTAssertEqual(direct.output.filter { $0 == 0x0A }.count, bytes.filter { $0 == 0x0A }.count)
        for chunk in [7, 64, 333, 4096, 1 << 20] {
            let on = try parse(path, prefilter, skipper: true, chunkSize: chunk)
            assertSame(on, off, "chunk size \(chunk)")
        }
        // Without a prefilter nothing changes either.
        assertSame(try parse(path, nil, skipper: true, chunkSize: 64), try parse(path, nil, skipper: false), "no prefilter")
        // From a zip the skipper runs on the parse thread (the read thread inflates).
        let zip = try temporaryFolder(self).appendingPathComponent("export.zip").path
        try generateExport(["--out", zip, "--days", "3", "--seed", "31", "--broken-dtd", "--vertical-tabs", "--layout", "zip"])
        let zipCutoffs = try middleCutoffs(zip)
        let zipOff = try parse(zip, zipCutoffs, skipper: false)
        XCTAssertGreaterThan(zipOff.skipped, 100)
        for chunk in [333, 1 << 20] { assertSame(try parse(zip, zipCutoffs, skipper: true, chunkSize: chunk), zipOff, "zip, chunk \(chunk)") }
    }

    func testEveryResumePointWithByteSkippingYieldsTheRest() throws {
        let path = try generated("32", ["--broken-dtd", "--vertical-tabs"])
        let prefilter = try middleCutoffs(path)
        let whole = try parse(path, prefilter, skipper: true, chunkSize: 4096)
        XCTAssertGreaterThan(whole.points.count, 10)
        XCTAssertTrue(whole.points.last!.point.inputComplete)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for (point, before, skippedBefore) in whole.points where !point.inputComplete {
            XCTAssertEqual(bytes[Int(point.inputOffset) - 1], UInt8(ascii: ">"), "offset \(point.inputOffset)")
            for chunk in [61, 1 << 20] {
                let rest = try parse(path, prefilter, skipper: true, chunkSize: chunk, from: point)
                XCTAssertEqual(rest.items, Array(whole.items[before...]), "resumed at \(point)")
                XCTAssertEqual(rest.summary.elements, whole.summary.elements, "resumed at \(point)")
                XCTAssertEqual(skippedBefore + rest.skipped, whole.skipped, "resumed at \(point)")
                XCTAssertEqual(rest.summary.repairedBytes, whole.summary.repairedBytes)
            }
        }
    }

    /// Where the skipper must not decide (or must stop), the SAX-level check still does:
    /// results equal those of a run without it.
}

/// A nightly run (known records dropped by the byte-level skipper) SIGKILLed again and again
/// during its load, each time re-run, ends with what one uninterrupted nightly run gives:
/// the same stored rows and the same counts (elements, records skipped by the anchors).
final class KilledNightlyRunTests: XCTestCase {
    func sequence(_ out: String) -> Int {
        struct Checkpoint: Decodable { var sequence: Int; var phase: String }
        guard let data = FileManager.default.contents(atPath: out + "/.healthetl/checkpoint.json"),
              let state = try? JSONDecoder().decode(Checkpoint.self, from: data), state.phase != "loaded" else { return 0 }
        return state.sequence
    }

    func rows(_ store: String) throws -> [String] {
        var out: [String] = []
        for table in ["sample_data", "heartbeat_data", "workouts", "correlations", "correlation_members", "anchors",
                      "(SELECT elements, records_read, new_samples, skipped_by_anchor, mode FROM runs)"] {
            out += try queryRows(store, "SELECT * FROM \(table) ORDER BY 1, 2").map { table + ": " + $0.map(\.description).joined(separator: "|") }
        }
        return out
    }

    func testKilledNightlyRunResumesToTheSameStore() throws {
        let dir = try temporaryFolder(self)
        let full = dir.appendingPathComponent("full.xml").path
        try generateExport(["--out", full, "--days", "60", "--start", "2024-10-01", "--seed", "41", "--scale", "3"])
        let (older, newer) = try splitExport(full, at: "2024-10-21 00:00:00 +0200", in: dir)
        let pipeline = try write(#"{"checkpointRecords": 250}"#, to: "pipeline.json", in: dir)
        let straight = dir.appendingPathComponent("straight").path, killed = dir.appendingPathComponent("killed").path
        let args = { (export: String, out: String) in
            ["import", export, "--out", out, "--pipeline", pipeline, "--timezone", "Europe/Berlin", "--quiet"]
        }
        for out in [straight, killed] { XCTAssertEqual(try healthetl(args(older, out)).status, 0) }
        XCTAssertEqual(try healthetl(args(newer, straight)).status, 0)

        var kills = 0, last = 0
        for _ in 0..<40 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestPaths.binary)
            process.arguments = args(newer, killed)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning, sequence(killed) <= last, Date() < deadline { usleep(300) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { kills += 1 } else { XCTAssertEqual(process.terminationStatus, 0); break }
            XCTAssertGreaterThanOrEqual(sequence(killed), last)
            last = sequence(killed)
        }
        XCTAssertGreaterThanOrEqual(kills, 5, "kills during the nightly load")
        let a = try rows(straight + "/health.sqlite"), b = try rows(killed + "/health.sqlite")
        XCTAssertTrue(a.contains { $0.hasPrefix("(SELECT") && $0.hasSuffix("incremental") })
        XCTAssertEqual(a.count, b.count)
        for (x, y) in zip(a, b) where x != y { XCTFail("uninterrupted \(x)\n     resumed \(y)"); break }
        XCTAssertEqual(try analyticsSnapshot(straight + "/health.sqlite"), try analyticsSnapshot(killed + "/health.sqlite"))
        // And the counts are those of the export: every top-level element, every record read or skipped.
        let read = try readBatches(newer)
        let counts = try queryRows(killed + "/health.sqlite", "SELECT elements, records_read + skipped_by_anchor, skipped_by_anchor FROM runs ORDER BY id DESC LIMIT 1")[0]
        XCTAssertEqual(counts[0].description, "\(read.summary.elements)")
        XCTAssertEqual(counts[1].description, "\(read.batches.reduce(0) { $0 + $1.records.count })")
        XCTAssertGreaterThan(Int(counts[2].description) ?? 0, 10_000)
    }
}
