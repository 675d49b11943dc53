import XCTest

/// The command line around import: status, the one-run-per-folder lock, quiet mode.
final class CommandLineTests: XCTestCase {
    func testStatusShowsTheLastRunAndCounts() throws {
        let dir = try temporaryFolder(self)
        let path = try write(ElementKindsTests.export, to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let quiet = try healthetl(["import", path, "--out", out, "--quiet"])
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stdout + quiet.stderr, "", "--quiet prints nothing")
        let status = try healthetl(["status", "--out", out])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("ok \(path): 3 samples"), status.stdout)
        XCTAssertTrue(status.stdout.contains("workouts: 1"), status.stdout)
        XCTAssertEqual(try healthetl(["status", "--out", dir.appendingPathComponent("none").path]).status, 66)
    }

    func testSecondRunOnTheSameFolderExits75NamingTheHolder() throws {
        let dir = try temporaryFolder(self)
        let path = try write(ElementKindsTests.export, to: "export.xml", in: dir)
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
