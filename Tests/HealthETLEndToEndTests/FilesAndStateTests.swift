import Foundation
import XCTest
@testable import HealthCore
@testable import SQLite
import TestSupport

/// Issue 20.4–20.7 and 20.9: what the import reads beside the export, how it publishes, and the
/// state it finds from earlier runs — nothing published is ever lost or left stale.
final class FilesAndStateTests: XCTestCase {
    private static let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
    private static let zone = ["--timezone", "Europe/Berlin"]

    // MARK: 20.4 referenced files

    func testReferencedFilesAreReadOnlyFromInsideTheExport() throws {
        let dir = try temporaryFolder(self)
        let export = dir.appendingPathComponent("export")
        let routes = export.appendingPathComponent("workout-routes")
        try FileManager.default.createDirectory(at: routes, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("secret"), withIntermediateDirectories: true)
        let gpx = #"<?xml version="1.0"?><gpx version="1.1"><trk><trkseg><trkpt lat="52.5" lon="13.4"><time>2024-02-13T10:05:00Z</time></trkpt></trkseg></trk></gpx>"#
        try write(gpx, to: "route.gpx", in: dir.appendingPathComponent("secret"))
        try write(gpx, to: "ok.gpx", in: routes)
        try FileManager.default.createSymbolicLink(atPath: routes.appendingPathComponent("link.gpx").path,
                                                   withDestinationPath: "../../secret/route.gpx")
        XCTAssertEqual(mkfifo(routes.appendingPathComponent("fifo.gpx").path, 0o600), 0)
        let references = ["/workout-routes/ok.gpx", "/../secret/route.gpx", "/../../../../dev/zero", "/workout-routes/link.gpx",
                          "/workout-routes/fifo.gpx", "/workout-routes", "/workout-routes/../../secret/route.gpx"]
        let workouts = references.enumerated().map { n, path in
            #"<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="W" "#
                + #"creationDate="2024-02-13 12:00:00 +0000" startDate="2024-02-13 1\#(n):00:00 +0000" endDate="2024-02-13 1\#(n):30:00 +0000">"#
                + #"<WorkoutRoute sourceName="W" startDate="2024-02-13 10:00:00 +0000" endDate="2024-02-13 10:30:00 +0000">"#
                + #"<FileReference path="\#(path)"/></WorkoutRoute></Workout>"#
        }
        try write(ExportXML.document(workouts, exportDate: nil, declaration: false), to: "export.xml", in: export)
        let out = dir.appendingPathComponent("out").path
        // Before: /dev/zero hung the import forever.
        let r = try runProcess(TestPaths.binary, ["import", export.path, "--out", out, "--json", "--quiet"] + Self.zone, timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(summary?["route_files_missing"] as? [String], Array(references.dropFirst()))
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM workout_route_points"), ["1"], "only ok.gpx")
    }

    // MARK: 20.5 publishing

    func testAFailedPublishLeavesTheOldOutputsAndTheNextRunPublishesEverything() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", Self.sample, "--out", out, "--quiet"] + Self.zone).status, 0)
        let before = try publishedOutputs(out)
        // A later export; the last Parquet file cannot be replaced (a folder with a file in it
        // stands at its name: root ignores permissions, not this).
        let later = dir.appendingPathComponent("later.xml").path
        try generateExport(["--out", later, "--days", "34"])
        let blocker = out + "/parquet/yearly.parquet"
        try FileManager.default.removeItem(atPath: blocker)
        try FileManager.default.createDirectory(atPath: blocker + "/in-the-way", withIntermediateDirectories: true)
        var expected = before
        expected["parquet/yearly.parquet"] = nil
        for full in [true, false] {
            let r = try healthetl(["import", later, "--out", out, "--quiet"] + Self.zone + (full ? ["--full"] : []))
            XCTAssertEqual(r.status, 74, r.stderr)
            XCTAssertTrue(r.stderr.contains("yearly.parquet"), r.stderr)
            var now = try publishedOutputs(out)
            now["parquet/yearly.parquet/in-the-way"] = nil
            assertSamePublished(now, expected, "after a failed \(full ? "full" : "incremental") publish")
        }
        // Cleared: the next (incremental) run publishes every output, as if nothing had failed.
        try FileManager.default.removeItem(atPath: blocker)
        let r = try healthetl(["import", later, "--out", out, "--quiet"] + Self.zone)
        XCTAssertEqual(r.status, 0, r.stderr)
        let control = dir.appendingPathComponent("control").path
        XCTAssertEqual(try healthetl(["import", Self.sample, "--out", control, "--quiet"] + Self.zone).status, 0)
        XCTAssertEqual(try healthetl(["import", later, "--out", control, "--quiet"] + Self.zone).status, 0)
        let recovered = try publishedOutputs(out), expectedNow = try publishedOutputs(control)
        XCTAssertEqual(Set(recovered.keys), Set(expectedNow.keys))
        for name in expectedNow.keys where name.hasPrefix("csv/") || name.hasPrefix("parquet/") {
            XCTAssertEqual(recovered[name], expectedNow[name], name)
        }
        XCTAssertEqual(try analyticsSnapshot(out + "/health.sqlite"), try analyticsSnapshot(control + "/health.sqlite"))
    }

    func testAPublicationCutShortMakesTheNextRunRewriteEveryOutput() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", Self.sample, "--out", out, "--quiet"] + Self.zone).status, 0)
        let good = try publishedOutputs(out)
        // As a run killed between two moves leaves it: its marker, and a file of another generation.
        try write("stale\r\n", to: "daily.csv", in: URL(fileURLWithPath: out + "/csv"))
        try write("1 0\n", to: "publishing", in: URL(fileURLWithPath: out + "/.healthetl"))
        let r = try healthetl(["import", Self.sample, "--out", out, "--json", "--quiet"] + Self.zone)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("every output is rewritten"), r.stdout)
        XCTAssertEqual(try publishedOutputs(out)["csv/daily.csv"], good["csv/daily.csv"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/.healthetl/publishing"))
    }

    /// A staged file is synced once, by the publication (not also where it is staged), and each
    /// folder published into once, not after every file: the run's fsyncs, counted by the
    /// fault-injection hook of the debug build, are at least one per published file and fewer
    /// than two. (Syncing each file and its folder both when staged and when published made
    /// four per file.)
    func testEachPublishedFileIsSyncedOnceAndEachFolderOnce() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        let r = try runProcess(TestPaths.binary, ["import", Self.sample, "--out", out, "--quiet"] + Self.zone,
                               environment: ["HEALTHETL_FAULT": "fsync:1000000000:EIO"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = try publishedOutputs(out).count
        let syncs = try XCTUnwrap(FaultInjectionTests.callCount(r.stderr, "fsync"), r.stderr)
        XCTAssertGreaterThanOrEqual(syncs, files)
        XCTAssertLessThan(syncs, 2 * files, "\(syncs) fsyncs for \(files) published files")
    }

    // MARK: 20.6 damaged resume state

    func testADamagedResumeStateIsDiscardedWithAWarningAndResetClearsIt() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        let first = dir.appendingPathComponent("first").path
        XCTAssertEqual(try healthetl(["import", Self.sample, "--out", first, "--quiet"] + Self.zone).status, 0)
        // A killed load's staged store, then 8 KB of it garbled.
        func plantDamagedState() throws {
            try FileManager.default.createDirectory(atPath: out + "/.healthetl", withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: out + "/.healthetl/load.sqlite")
            try FileManager.default.copyItem(atPath: first + "/health.sqlite", toPath: out + "/.healthetl/load.sqlite")
            try garble(out + "/.healthetl/load.sqlite", bytes: 8192)
        }
        try plantDamagedState()
        // Without a store: reset clears the state (before: it left it, and every run failed).
        let reset = try healthetl(["reset", "--out", out, "--yes"])
        XCTAssertEqual(reset.status, 0, reset.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/.healthetl/load.sqlite"))
        for extra in [[], ["--full"]] {
            try plantDamagedState()
            let r = try healthetl(["import", Self.sample, "--out", out] + Self.zone + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            if extra.isEmpty { XCTAssertTrue(r.stderr.contains("was damaged"), r.stderr) }
            XCTAssertEqual(try analyticsSnapshot(out + "/health.sqlite"), try analyticsSnapshot(first + "/health.sqlite"))
        }
    }

    // MARK: 20.7 damaged published store

    func testADamagedStoreIsNamedWithTheWayOutAndFullRebuildsIt() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", Self.sample, "--out", out, "--quiet"] + Self.zone).status, 0)
        // Garbled, with its modification time put back: the change time still tells (a run skips
        // the whole-file check only for a store exactly as it published it).
        let store = out + "/health.sqlite"
        let modified = try FileManager.default.attributesOfItem(atPath: store)[.modificationDate] as? Date
        try garble(store, bytes: 4096)
        try FileManager.default.setAttributes([.modificationDate: try XCTUnwrap(modified)], ofItemAtPath: store)
        let outputs = try publishedOutputs(out)
        for command in [["import", Self.sample, "--out", out, "--quiet"] + Self.zone, ["status", "--out", out]] {
            let r = try healthetl(command)
            XCTAssertEqual(r.status, 74, "\(command[0]): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(out + "/health.sqlite is damaged"), r.stderr)
            XCTAssertTrue(r.stderr.contains("import --full EXPORT"), r.stderr)
        }
        assertSamePublished(try publishedOutputs(out), outputs, "a refused run changes nothing")
        XCTAssertEqual(try healthetl(["import", Self.sample, "--out", out, "--full", "--quiet"] + Self.zone).status, 0)
        XCTAssertEqual(try healthetl(["status", "--out", out]).status, 0)
        // A folder without a store, and a file that is no store, say so.
        let empty = dir.appendingPathComponent("empty").path
        let none = try healthetl(["status", "--out", empty])
        XCTAssertTrue(none.stderr.contains("no store yet"), none.stderr)
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try Database(path: empty + "/health.sqlite").execute("CREATE TABLE other (x)")
        let foreign = try healthetl(["status", "--out", empty])
        XCTAssertEqual(foreign.status, 65)
        XCTAssertTrue(foreign.stderr.contains("is not a HealthETL store"), foreign.stderr)
    }

    // MARK: 20.9 the smaller ones

    func testAFileSizeLimitIsAnIOErrorNotASignal() throws {
        let out = try temporaryFolder(self).appendingPathComponent("out").path
        let r = try runProcess("/bin/sh", ["-c", "ulimit -f 256; exec \"$0\" import \"$1\" --out \"$2\" --quiet --timezone UTC",
                                           TestPaths.binary, Self.sample, out])
        XCTAssertEqual(r.status, 74, "killed by SIGXFSZ (153) before: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains(out + "/"), "the message names the file: \(r.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/health.sqlite"))
    }

    func testOwnFilesAreNeverOpenedThroughALink() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", Self.sample, "--out", out, "--quiet"] + Self.zone).status, 0)
        let target = dir.appendingPathComponent("elsewhere").path
        try write("someone else's\n", to: "elsewhere", in: dir)
        for (name, code) in [(".healthetl/lock", Int32(73)), ("health.sqlite", Int32(73))] {
            let path = out + "/" + name
            let saved = path + ".saved"
            try FileManager.default.moveItem(atPath: path, toPath: saved)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
            let r = try healthetl(["import", Self.sample, "--out", out, "--quiet"] + Self.zone)
            XCTAssertEqual(r.status, code, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(path + " is a symbolic link"), r.stderr)
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.moveItem(atPath: saved, toPath: path)
        }
        // The run log: a warning, and nothing written through the link.
        let log = out + "/.healthetl/runs.log"
        try FileManager.default.removeItem(atPath: log)
        try FileManager.default.createSymbolicLink(atPath: log, withDestinationPath: target)
        let r = try healthetl(["import", Self.sample, "--out", out, "--quiet"] + Self.zone)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("runs.log is a symbolic link"), r.stderr)
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "someone else's\n")
    }

    func testAZipWithTwoExportsSaysWhichOneWasImported() throws {
        let dir = try temporaryFolder(self)
        let zip = dir.appendingPathComponent("two.zip").path
        let small = ExportXML.document([], exportDate: nil, declaration: false)
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                z.write(sys.argv[2], 'apple_health_export/export.xml')
                z.writestr('old/export.xml', sys.argv[3])
            """
        XCTAssertEqual(try runProcess(try TestTools.python(), ["-c", script, zip, Self.sample, small]).status, 0)
        let r = try healthetl(["import", zip, "--out", dir.appendingPathComponent("out").path, "--json", "--quiet"] + Self.zone)
        XCTAssertEqual(r.status, 0, r.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let notes = summary?["notes"] as? [String] ?? []
        XCTAssertEqual(notes.count, 1, "\(notes)")
        XCTAssertTrue(notes.first?.contains("holds 2 Health exports: imported apple_health_export/export.xml") ?? false, "\(notes)")
        XCTAssertTrue(notes.first?.contains("not imported: old/export.xml") ?? false, "\(notes)")
    }

    /// Overwrites `bytes` bytes in the middle of a file (page-aligned) with a fixed pseudo-random pattern.
    private func garble(_ path: String, bytes: Int) throws {
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: (size / 2) / 4096 * 4096)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<bytes).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        try handle.write(contentsOf: Data(noise))
    }
}
