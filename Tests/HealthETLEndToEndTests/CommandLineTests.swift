import XCTest
import TestSupport

/// The command line around import: status, the one-run-per-folder lock, quiet mode.
final class CommandLineTests: XCTestCase {
    func testStatusShowsTheLastRunAndCounts() throws {
        let dir = try temporaryFolder(self)
        let path = try write(ExportXML.everyElementKind, to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let quiet = try healthetl(["import", path, "--out", out, "--quiet"])
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stdout + quiet.stderr, "", "--quiet prints nothing")
        let status = try healthetl(["status", "--out", out])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("full \(path): 3 records read, 3 new samples"), status.stdout)
        XCTAssertTrue(status.stdout.contains("workouts: 1"), status.stdout)
        XCTAssertTrue(status.stdout.contains("Pending: none"), status.stdout)
        // A second import of the same records (a copy: the very same file is not read again) is
        // read and adds nothing (these records have no creationDate, so the store's identity
        // index, not an anchor, recognises them): the store stays as published (`NothingNew`).
        let copy = dir.appendingPathComponent("copy.xml").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        XCTAssertEqual(try healthetl(["import", copy, "--out", out, "--quiet"]).status, 0)
        let again = try healthetl(["status", "--out", out])
        XCTAssertTrue(again.stdout.contains("then 1 run that found nothing new"), again.stdout)
        // The run log in .healthetl has a line per run, failed ones too.
        let broken = try write("<HealthData><Record", to: "broken.xml", in: dir)
        XCTAssertEqual(try healthetl(["import", broken, "--out", out, "--quiet"]).status, 65)
        let log = try String(contentsOfFile: out + "/.healthetl/runs.log", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(log.count, 3)
        XCTAssertTrue(log[0].contains("\"mode\":\"full\"") && log[1].contains("\"mode\":\"nothing-new\""), "\(log)")
        XCTAssertTrue(log[2].contains("\"status\":\"failed\"") && log[2].contains("looks cut short"), "\(log[2])")
        // reset --keep-profile empties analytics and anchors, keeps samples and profile.
        let reset = try healthetl(["reset", "--out", out, "--keep-profile", "--yes"])
        XCTAssertEqual(reset.status, 0, reset.stderr)
        let store = out + "/health.sqlite"
        XCTAssertEqual(try query(store, "SELECT (SELECT count(*) FROM daily_analytics) + (SELECT count(*) FROM anchors)"), ["0"])
        XCTAssertEqual(try query(store, "SELECT count(*) FROM sample_data"), ["3"])
        XCTAssertEqual(try query(store, "SELECT count(*) FROM profile"), ["1"])
        // The next import recomputes every day.
        XCTAssertEqual(try healthetl(["import", path, "--out", out, "--quiet"]).status, 0)
        XCTAssertNotEqual(try query(store, "SELECT count(*) FROM daily_analytics"), ["0"])
        XCTAssertEqual(try healthetl(["reset", "--out", out, "--yes"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store))
        XCTAssertEqual(try healthetl(["status", "--out", dir.appendingPathComponent("none").path]).status, 66)
    }

    /// `healthetl import e --out o` from the folder that holds `e`: one-character relative names
    /// are names like any other (Foundation's `deletingLastPathComponent` trapped on them).
    func testOneCharacterRelativeNamesForTheExportAndTheOutputFolder() throws {
        let dir = try temporaryFolder(self)
        _ = try write(ExportXML.everyElementKind, to: "e", in: dir)
        let script = "cd \"$1\" && \"$2\" import e --out o --json --timezone UTC && \"$2\" import e --out o/ --quiet && \"$2\" status --out o"
        let r = try runProcess("/bin/sh", ["-c", script, "sh", dir.path, TestPaths.binary])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\"mode\" : \"full\"") || r.stdout.contains("\"mode\":\"full\""), r.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("o/health.sqlite").path))
        XCTAssertFalse(r.stderr.contains("crashed"), r.stderr)
    }

    func testSecondRunOnTheSameFolderExits75NamingTheHolder() throws {
        let dir = try temporaryFolder(self)
        let path = try write(ExportXML.everyElementKind, to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", path, "--out", out, "--quiet"]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/health.sqlite"))
        // Hold the lock as a running import would.
        let fd = open(out + "/.healthetl/lock", O_RDWR)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
        _ = "4242\n".withCString { pwrite(fd, $0, 5, 0) }
        let blocked = try healthetl(["import", path, "--out", out])
        XCTAssertEqual(blocked.status, 75, blocked.stderr)
        XCTAssertTrue(blocked.stderr.contains("pid 4242"), blocked.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/health.sqlite")), before)
        // A lock whose holder is gone is free again.
        close(fd)
        XCTAssertEqual(try healthetl(["import", path, "--out", out, "--quiet"]).status, 0)
    }
}
