import Foundation
import XCTest
import TestSupport

/// Issue 46, item 1: a folder of the output tree replaced by a symbolic link to another folder
/// (a decoy, with a file of its own and mode 0755) is refused with exit 73 and a message naming
/// the link, by every command that writes, before anything is created or locked: the decoy
/// keeps its files, contents and mode, and the output folder's published files are as they were.
final class PlantedLinksTests: XCTestCase {
    private static let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
    private static let pipeline = TestPaths.packageRoot.appendingPathComponent("pipelines/default.json").path

    /// Every file under `folder` (links not followed) with its bytes and mode.
    private func contents(_ folder: String) throws -> [String: String] {
        var all: [String: String] = [:]
        var info = stat()
        guard lstat(folder, &info) == 0 else { return all }
        all["."] = String(info.st_mode & 0o7777, radix: 8)
        for case let relative as String in FileManager.default.enumerator(atPath: folder) ?? FileManager.default.enumerator(atPath: "/nonexistent")! {
            let path = folder + "/" + relative
            guard lstat(path, &info) == 0 else { continue }
            let data = info.st_mode & S_IFMT == S_IFREG ? (try Data(contentsOf: URL(fileURLWithPath: path))).base64EncodedString() : "folder"
            all[relative] = String(info.st_mode & 0o7777, radix: 8) + " " + data
        }
        return all
    }

    private func decoy(_ dir: URL) throws -> String {
        let decoy = dir.appendingPathComponent("decoy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: decoy, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try "not health data\n".write(toFile: decoy + "/keep.txt", atomically: false, encoding: .utf8)
        chmod(decoy, 0o755)
        return decoy
    }

    /// Copies `source` to a fresh folder, replaces `relative` in it with a link to a decoy, runs
    /// `command`, and checks the refusal.
    private func plant(_ relative: String, in source: String, dir: URL, file: StaticString = #filePath, line: UInt = #line,
                       _ command: (String) -> [String]) throws {
        let work = dir.appendingPathComponent("work-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: source, toPath: work)
        let decoy = try decoy(dir)
        let link = work + "/" + relative
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createDirectory(atPath: (link as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: decoy)
        let decoyBefore = try contents(decoy)
        let before = try publishedOutputs(work)
        let r = try runProcess(TestPaths.binary, command(work), timeout: 120)
        let name = "\(command(work).prefix(2).joined(separator: " ")) with \(relative) a link"
        XCTAssertEqual(r.status, 73, "\(name): \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.contains("\(link) is a symbolic link (to \(decoy))"), "\(name): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(try contents(decoy), decoyBefore, "\(name): the decoy changed", file: file, line: line)
        assertSamePublished(try publishedOutputs(work), before, "\(name): the outputs changed", file: file, line: line)
    }

    func testALinkedOutputFolderIsRefusedByEveryCommandThatWrites() throws {
        let dir = try temporaryFolder(self)
        let single = dir.appendingPathComponent("single").path
        XCTAssertEqual(try healthetl(["import", Self.sample, "--out", single, "--pipeline", Self.pipeline, "--quiet",
                                      "--timezone", "Europe/Berlin"]).status, 0)
        let full = { (out: String) in ["import", Self.sample, "--out", out, "--pipeline", Self.pipeline, "--full", "--quiet", "--timezone", "Europe/Berlin"] }
        for relative in ["report", "csv", "parquet", ".healthetl"] {
            try plant(relative, in: single, dir: dir, full)
        }
        try plant("report", in: single, dir: dir) { ["report", "--out", $0, "--pipeline", Self.pipeline] }
        try plant(".healthetl", in: single, dir: dir) { ["reset", "--out", $0, "--yes"] }
        try plant("csv", in: single, dir: dir) { ["reset", "--out", $0, "--yes"] }

        // A first import into a folder that holds nothing but the link.
        let empty = dir.appendingPathComponent("empty").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try plant("report", in: empty, dir: dir, full)

        // A family folder: a person's folder, their report, the dataset's table and partition.
        let family = dir.appendingPathComponent("family").path
        XCTAssertEqual(try healthetl(["import", Self.sample, "--out", family, "--person", "ann", "--pipeline", Self.pipeline, "--quiet",
                                      "--timezone", "Europe/Berlin"]).status, 0)
        let person = { (out: String) in ["import", Self.sample, "--out", out, "--person", "ann", "--pipeline", Self.pipeline, "--full", "--quiet"] }
        for relative in ["people/ann/report", "people/ann/.healthetl", "dataset/daily", "dataset/daily/person=ann"] {
            try plant(relative, in: family, dir: dir, person)
        }
        // Another person's import sees the planted link of ann's too: the whole tree is checked.
        try plant("people/ann/csv", in: family, dir: dir) { ["import", Self.sample, "--out", $0, "--person", "bob", "--quiet"] }
        try plant("people/ann", in: family, dir: dir) { ["people", "set", "ann", "--out", $0, "--name", "Ann"] }
        try plant("people/ann/.healthetl", in: family, dir: dir) { ["people", "remove", "ann", "--out", $0, "--yes"] }
    }

    /// The check can fail: without a link the same command runs and writes.
    func testWithoutALinkTheSameCommandsWrite() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", Self.sample, "--out", out, "--quiet", "--timezone", "Europe/Berlin"]).status, 0)
        let r = try healthetl(["report", "--out", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        // The folder given as --out may itself be a link: the person chose it.
        let alias = dir.appendingPathComponent("alias").path
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: out)
        XCTAssertEqual(try healthetl(["report", "--out", alias]).status, 0)
    }
}
