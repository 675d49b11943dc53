import Foundation
import XCTest
import TestSupport

/// Issue 45, item 8: the fault loops of `FaultInjectionTests` over every other command that
/// writes: `people set`, `people remove`, `reset`, `report` and `import-all`. The N-th write,
/// fsync, rename or SQLite call fails, for every N a clean run reaches (a stride past a few
/// dozen); each failing run must exit 74 or 73 with a message naming a file and leave the
/// folder as it was, byte for byte (but the lock's pid and the run log); and the same command
/// run again must give what a run that never failed gives. `import-all` imports each person on
/// their own: a failure at one person leaves each person's outputs as they were or as a clean
/// run leaves them, never a mix.
final class CommandFaultTests: XCTestCase {
    private static let zone = ["--timezone", "Europe/Berlin"]

    /// A household folder (ann and bob, each imported from a 3-day export), its exports folder,
    /// and a single person's folder.
    struct Folders {
        var dir: String
        var household: String
        var exports: String
        var single: String
    }

    /// The folders of `folders()`, made once for the class by its first test that shares them
    /// (read only: every run starts from a copy of `household` or `single`).
    private static let fixture = classFixturePath("command-faults")

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: fixture)
        super.tearDown()
    }

    /// The class's shared folders, with a fresh `dir` of the test's own for its runs. (Not for
    /// `import-all`, which writes new exports into `exports`: it makes its own, `folders()`.)
    private func sharedFolders() throws -> Folders {
        try makeClassFixture(at: Self.fixture) { try makeFolders(in: $0) }
        var f = Self.layout(in: Self.fixture)
        f.dir = try temporaryFolder(self).path
        return f
    }

    private func folders() throws -> Folders {
        let dir = try temporaryFolder(self).path
        _ = try makeFolders(in: dir)
        return Self.layout(in: dir)
    }

    private static func layout(in dir: String) -> Folders {
        Folders(dir: dir, household: dir + "/household", exports: dir + "/exports", single: dir + "/single")
    }

    /// Makes the folders of `layout(in: dir)`; whether every import succeeded.
    private func makeFolders(in dir: String) throws -> Bool {
        let f = Self.layout(in: dir)
        let (exports, household, single) = (f.exports, f.household, f.single)
        var ok = true
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        try generateExport(["--out", exports + "/ann.xml", "--days", "3", "--start", "2024-10-10", "--seed", "5"])
        try generateExport(["--out", exports + "/bob.xml", "--days", "3", "--start", "2024-10-11", "--seed", "6"])
        for person in ["ann", "bob"] {
            let r = try healthetl(["import", exports + "/\(person).xml", "--out", household, "--person", person, "--quiet"] + Self.zone)
            XCTAssertEqual(r.status, 0, r.stderr)
            ok = ok && r.status == 0
        }
        let r = try healthetl(["import", exports + "/ann.xml", "--out", single, "--quiet"] + Self.zone)
        XCTAssertEqual(r.status, 0, r.stderr)
        return ok && r.status == 0
    }

    func testPeopleSetAndRemoveFailCleanly() throws {
        let f = try sharedFolders()
        for kind in ["write", "fsync", "rename"] {
            try loop(kind, "ENOSPC", f, from: f.household) { ["people", "set", "ann", "--out", $0, "--name", "Ann B.", "--units", "imperial"] }
            try loop(kind, "EIO", f, from: f.household) { ["people", "set", "cleo", "--out", $0, "--name", "Cleo"] }
        }
        try loop("rename", "EIO", f, from: f.household) { ["people", "remove", "ann", "--out", $0, "--yes"] }
    }

    func testResetFailsCleanly() throws {
        let f = try sharedFolders()
        try loop("rename", "EIO", f, from: f.single) { ["reset", "--out", $0, "--yes"] }
        try loop("rename", "EIO", f, from: f.household) { ["reset", "--out", $0, "--person", "bob", "--yes"] }
        try loop("sqlite-io", "ENOSPC", f, from: f.single) { ["reset", "--out", $0, "--keep-profile", "--yes"] }
    }

    func testReportFailsCleanly() throws {
        let f = try sharedFolders()
        for kind in ["write", "fsync", "rename"] {   // the report reads the store: no SQLite write
            try loop(kind, "ENOSPC", f, from: f.single) { ["report", "--out", $0] }
        }
    }

    func testImportAllFailsCleanlyPersonByPerson() throws {
        let f = try folders()
        // New days for both: a later export of each replaces the first.
        try generateExport(["--out", f.exports + "/ann.xml", "--days", "5", "--start", "2024-10-10", "--seed", "5"])
        try generateExport(["--out", f.exports + "/bob.xml", "--days", "5", "--start", "2024-10-11", "--seed", "6"])
        for kind in ["write", "rename"] {
            try loop(kind, "ENOSPC", f, from: f.household, perPerson: true) { ["import-all", f.exports, "--out", $0, "--quiet"] }
        }
    }

    // MARK: the harness

    /// Runs `command(folder)` on a fresh copy of `source` with the N-th call of `kind` failing.
    private func loop(_ kind: String, _ error: String, _ f: Folders, from source: String, perPerson: Bool = false,
                      file: StaticString = #filePath, line: UInt = #line, _ command: (String) -> [String]) throws {
        let fresh = { (name: String) throws -> String in
            let path = f.dir + "/" + name
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: source, toPath: path)
            return path
        }
        let reference = try fresh("reference")
        let probe = try runProcess(TestPaths.binary, command(reference), environment: ["HEALTHETL_FAULT": "\(kind):1000000000:\(error)"])
        XCTAssertEqual(probe.status, 0, "\(command(reference)): \(probe.stderr)", file: file, line: line)
        let total = FaultInjectionTests.callCount(probe.stderr, kind) ?? 0
        let expected = try Self.snapshot(reference)
        func published(_ all: [String: Data]) -> [String: Data] { perPerson ? Self.outputs(all) : all }
        let stride = max(total / 12, 1)
        let planned = Set(Array(1...min(6, max(total, 1))) + Array(Swift.stride(from: 7, through: total + 1, by: stride)) + [total, total + 1])
        var failures = 0
        for n in planned.sorted() where n > 0 {
            let work = try fresh("work")
            let name = "\(command(work).prefix(3).joined(separator: " ")) with \(kind):\(n):\(error) (of \(total))"
            let before = try Self.snapshot(work)
            let r = try runProcess(TestPaths.binary, command(work), environment: ["HEALTHETL_FAULT": "\(kind):\(n):\(error)"])
            XCTAssertFalse(r.killedBySignal, "\(name): a crash: \(r.stderr)", file: file, line: line)
            let injected = r.stderr.contains("fault injected: \(kind) #\(n) ")
            if !injected || r.status == 0 {
                // Survived (a best-effort file: the lock, the run log, a run's records).
                XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)", file: file, line: line)
                XCTAssertEqual(Self.differences(published(try Self.snapshot(work)), published(expected)), [],
                               "\(name): survived, but not with a clean run's result", file: file, line: line)
                continue
            }
            failures += 1
            XCTAssertTrue(r.status == 74 || r.status == 73, "\(name): exit \(r.status): \(r.stderr)", file: file, line: line)
            let message = r.stderr.components(separatedBy: "\n").filter { !$0.isEmpty && !$0.contains("fault inject") }
            XCTAssertTrue(message.contains { $0.contains(work + "/") || $0.contains(work + ":") }, "\(name): the message names no file: \(r.stderr)",
                          file: file, line: line)
            let after = try Self.snapshot(work)
            if perPerson {
                // An import's private state (what it resumes from) may stay; each person's outputs are whole.
                for person in Set(before.keys.compactMap(Self.person) + after.keys.compactMap(Self.person)) {
                    let of = { (all: [String: Data]) in Self.outputs(all).filter { Self.person($0.key) == person } }
                    XCTAssertTrue(of(after) == of(before) || of(after) == of(expected),
                                  "\(name): \(person)'s outputs are neither as they were nor as a clean run leaves them", file: file, line: line)
                }
            } else {
                XCTAssertEqual(Self.differences(before, after), [], "\(name): the folder changed", file: file, line: line)
            }
            let again = try runProcess(TestPaths.binary, command(work))
            XCTAssertEqual(again.status, 0, "\(name), run again: \(again.stderr)", file: file, line: line)
            XCTAssertEqual(Self.differences(try Self.snapshot(work), expected), [], "\(name), run again", file: file, line: line)
        }
        XCTAssertGreaterThan(failures, 0, "\(command(reference).prefix(3)) \(kind): no run failed", file: file, line: line)
        print("command fault loop \(command("OUT").prefix(3).joined(separator: " ")) \(kind):\(error): \(total) calls, \(failures) failed cleanly")
    }

    /// Every file of a folder, byte for byte, but the lock (a pid), the run log, the records of
    /// the last publication (their times: compared by being there) and the stores (their run
    /// times: compared by their analytics).
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var all: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return all }
        for case let relative as String in walker {
            let name = (relative as NSString).lastPathComponent
            guard name != "lock", name != "runs.log" else { continue }
            var isFolder: ObjCBool = false
            let path = folder + "/" + relative
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue { all[relative + "/"] = Data(); continue }
            if ["published-store.json", "published-input.json"].contains(name) {
                all[relative] = Data()   // a record of the last publication, with its time: there or not
            } else if name == "health.sqlite" {
                all[relative] = Data(try analyticsSnapshot(path).joined(separator: "\n").utf8)
            } else {
                all[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return all
    }

    /// A snapshot's outputs: without the run state in `.healthetl/` folders.
    static func outputs(_ all: [String: Data]) -> [String: Data] {
        all.filter { !$0.key.split(separator: "/").contains(".healthetl") }
    }

    /// The person a path belongs to (`people/ann/…`, `dataset/TABLE/person=ann/…`), nil for the folder's own.
    static func person(_ path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        if parts.first == "people", parts.count > 1 { return parts[1] }
        return parts.first { $0.hasPrefix("person=") }.map { String($0.dropFirst(7)) }
    }

    static func differences(_ a: [String: Data], _ b: [String: Data]) -> [String] {
        Set(a.keys).union(b.keys).sorted().filter { a[$0] != b[$0] }
    }
}
