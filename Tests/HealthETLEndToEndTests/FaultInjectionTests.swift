import Foundation
import XCTest
import TestSupport

/// Issue 26: fault injection as a harness, the way SQLite tests its I/O errors. The debug
/// `healthetl` fails the N-th write, fsync, rename or SQLite write/sync/truncate
/// (`HEALTHETL_FAULT=KIND:N:ERRNO`), or is SIGKILLed right after the N-th checkpoint commit
/// (`kill-after-checkpoint:N`), for N = 1, 2, … until a run no longer reaches its N. Every
/// failed run must exit 74 (or 73) with a message naming a file, leave every published output
/// byte for byte as it was, and leave the next plain run to finish with exactly what a run that
/// never failed gives. A fault a run survives (exit 0) is allowed only at a file the program
/// treats as best effort (listed in `bestEffort`), and that run's outputs must be right too.
final class FaultInjectionTests: XCTestCase {
    private static let zone = ["--timezone", "Europe/Berlin"]

    func testEveryFailingWriteIsAnIOErrorThatChangesNothingPublished() throws {
        let exports = try tinyExports()
        for mode in Mode.allCases { try faultLoop("write", "ENOSPC", mode, exports) }
    }

    func testEveryFailingFsyncIsAnIOErrorThatChangesNothingPublished() throws {
        let exports = try tinyExports()
        try faultLoop("fsync", "EIO", .full, exports)
        try faultLoop("fsync", "ENOSPC", .incremental, exports)
        try faultLoop("fsync", "EIO", .person, exports)
    }

    func testEveryFailingRenameIsAnIOErrorThatChangesNothingPublished() throws {
        let exports = try tinyExports()
        for mode in Mode.allCases { try faultLoop("rename", "ENOSPC", mode, exports) }
    }

    func testEveryFailingSQLiteWriteSyncOrTruncateIsAnIOErrorThatChangesNothingPublished() throws {
        let exports = try tinyExports()
        try faultLoop("sqlite-io", "ENOSPC", .full, exports)
        try faultLoop("sqlite-io", "EIO", .incremental, exports)
        try faultLoop("sqlite-io", "ENOSPC", .person, exports)
    }

    func testAMalformedSwitchStopsTheRun() throws {
        let exports = try tinyExports()
        for value in ["write:0:ENOSPC", "fsync:3:EPERM", "sqlite-io:x:EIO", "rename:2"] {
            let r = try runProcess(TestPaths.binary, ["import", exports.older, "--out", exports.dir + "/m", "--quiet"] + Self.zone,
                                   environment: ["HEALTHETL_FAULT": value])
            XCTAssertEqual(r.status, 70, "\(value): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("HEALTHETL_FAULT=\(value) is not"), r.stderr)
        }
    }

    /// Killed right after each checkpoint commit in turn (N = 1, 2, … until a run is not
    /// killed): nothing published changes, and the same command resumes and ends with what an
    /// uninterrupted run gives. A first import (nothing published yet) and an incremental one
    /// on top of published outputs; 20 + 20 days (~4,500 records each), a commit per batch.
    /// (`--full` always starts over, so it has nothing to resume: not looped here.)
    func testKilledAfterEachCheckpointCommitTheSameCommandResumesToTheSameResult() throws {
        let dir = try temporaryFolder(self).path
        let full = dir + "/full.xml"
        try generateExport(["--out", full, "--days", "40", "--start", "2024-09-01", "--seed", "7"])
        let (older, later) = try splitExport(full, at: "2024-09-21 00:00:00 +0200", in: URL(fileURLWithPath: dir),
                                             named: ("older.xml", "later.xml"))
        let pipeline = try write(#"{"checkpointRecords": 1000}"#, to: "pipeline.json", in: URL(fileURLWithPath: dir))
        let args = { (export: String, out: String) in
            ["import", export, "--out", out, "--pipeline", pipeline, "--quiet"] + Self.zone
        }
        let published = dir + "/published"
        XCTAssertEqual(try healthetl(args(older, published)).status, 0)
        let exports = Exports(dir: dir, older: older, later: later, published: published)
        for incremental in [false, true] {
            let name = incremental ? "incremental" : "first"
            let fresh = { (suffix: String) throws -> String in
                if incremental { return try self.copyOfPublished(exports, .incremental, "\(name)-\(suffix)") }
                let path = dir + "/\(name)-\(suffix)"
                try? FileManager.default.removeItem(atPath: path)
                return path
            }
            let export = incremental ? later : older
            let reference = try fresh("reference")
            let probe = try runProcess(TestPaths.binary, args(export, reference),
                                       environment: ["HEALTHETL_FAULT": "kill-after-checkpoint:1000000"])
            XCTAssertEqual(probe.status, 0, probe.stderr)
            let commits = try XCTUnwrap(Self.callCount(probe.stderr, "kill-after-checkpoint"), probe.stderr)
            XCTAssertGreaterThanOrEqual(commits, 4, "\(name): checkpoints during the load and at its end")
            let expected = try result(of: reference)
            var n = 0
            while true {
                n += 1
                let work = try fresh("work")
                let before = try publishedOutputs(work)
                let r = try runProcess(TestPaths.binary, args(export, work), environment: ["HEALTHETL_FAULT": "kill-after-checkpoint:\(n)"])
                guard r.killedBySignal else {
                    XCTAssertEqual(r.status, 0, "\(name) N=\(n): \(r.stderr)")
                    XCTAssertEqual(n, commits + 1, "\(name): killed after every commit but the ones a clean run makes")
                    try assertResult(of: work, equals: expected, "\(name) N=\(n), not killed")
                    break
                }
                XCTAssertEqual(r.status, SIGKILL, "\(name) N=\(n)")
                assertSamePublished(try publishedOutputs(work), before, "\(name) N=\(n): killed after a checkpoint commit")
                let staged = incremental ? "delta.sqlite" : "load.sqlite"
                XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/.healthetl/" + staged), "\(name) N=\(n)")
                let next = try healthetl(args(export, work).filter { $0 != "--quiet" } + ["--json"])
                XCTAssertEqual(next.status, 0, "\(name) N=\(n): the next run: \(next.stderr)")
                XCTAssertTrue(next.stdout.contains("\"resumed_at_element\""), "\(name) N=\(n): not resumed: \(next.stdout)")
                try assertResult(of: work, equals: expected, "\(name) N=\(n), resumed")
            }
            print("kill loop \(name): \(commits) checkpoint commits, killed after each (N = 1…\(commits))")
        }
    }

    // MARK: the harness

    enum Mode: String, CaseIterable {
        /// `import LATER --full` into a folder that holds the outputs of an earlier import.
        case full
        /// `import LATER` on top of them.
        case incremental
        /// `import LATER --person ann` on top of two people's outputs (ann's and bob's, each an
        /// import of the older export), with the cohort dataset's partitions swapped in:
        /// nothing of either person may change when ann's run fails.
        case person

        /// Where the run's private state lies in its output folder.
        var stateFolder: String { self == .person ? "/people/ann/.healthetl" : "/.healthetl" }
    }

    struct Exports {
        var dir: String
        var older: String
        var later: String
        /// A folder with the published outputs of `older`; every run starts from a copy of it.
        var published: String
        /// A folder with two people's, each of `older` (`Mode.person`; empty where unused).
        var people = ""
    }

    /// Where `tinyExports` keeps what it makes, once for the class (the five fault tests used to
    /// generate, split and import the same export each): read only, every run starts from a copy.
    private static let fixture = classFixturePath("faults")

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: fixture)
        super.tearDown()
    }

    /// A 4-day export and a later one (a new day and a backfilled record; ~1,000 records), and
    /// the folder of the older one's import (and of two people's): made by the class's first test
    /// (`fixture`), with a fresh folder of the test's own (`dir`) for its runs.
    func tinyExports() throws -> Exports {
        let shared = Self.fixture
        let older = shared + "/older.xml", later = shared + "/later.xml"
        let published = shared + "/published", people = shared + "/people"
        try makeClassFixture(at: shared) { shared in
            let full = shared + "/full.xml"
            try generateExport(["--out", full, "--days", "4", "--start", "2024-10-10", "--seed", "5"])
            _ = try splitExport(full, at: "2024-10-13 00:00:00 +0200", in: URL(fileURLWithPath: shared),
                                named: ("older.xml", "later.xml"))
            var statuses: [Int32] = []
            let first = try healthetl(["import", older, "--out", published, "--quiet"] + Self.zone)
            XCTAssertEqual(first.status, 0, first.stderr)
            statuses.append(first.status)
            for person in ["ann", "bob"] {
                let imported = try healthetl(["import", older, "--out", people, "--person", person, "--quiet"] + Self.zone)
                XCTAssertEqual(imported.status, 0, imported.stderr)
                statuses.append(imported.status)
            }
            return statuses.allSatisfy { $0 == 0 } && FileManager.default.fileExists(atPath: later)
        }
        let dir = try temporaryFolder(self).path
        return Exports(dir: dir, older: older, later: later, published: published, people: people)
    }

    /// Files a run may write only as best effort, so a fault there may be survived: the pid in
    /// the lock, the run log, the readable checkpoint copy and the published store's record
    /// (each documented as such), a sorted-run spill file (the analytics then read the store
    /// instead), the working copy's in-kernel copy (finished by plain writes), and the sync
    /// of the state folder. (Staged files are not synced where they are staged: the publication
    /// syncs what it publishes and the folders it publishes into, and fails if it cannot.) Each with the kinds of call that may fail there.
    static let bestEffort: [(kinds: Set<String>, file: String)] = [
        (["write"], #"/\.healthetl/lock$"#), (["write"], #"/\.healthetl/runs\.log$"#),
        (["write", "fsync", "rename"], #"/\.healthetl/\.?checkpoint\.json(\.tmp-\d+)?$"#),
        (["write", "fsync", "rename"], #"/\.healthetl/\.?published-store\.json(\.tmp-\d+)?$"#),
        (["write", "fsync", "rename"], #"/\.healthetl/\.?published-input\.json(\.tmp-\d+)?$"#),
        (["write"], #"/\.healthetl/sample-run-\d+-\d+$"#), (["write"], #"/\.healthetl/next-store-\d+\.sqlite$"#),
        (["fsync"], #"/\.healthetl$"#),
    ]

    /// The closing sync of a staged store's journal: the loaded store (a full import's last SQLite
    /// call) and the delta (an incremental import's, once merged into the working copy) are kept
    /// in exclusive locking mode, so the journal stays, its header zeroed and synced at each
    /// commit, and SQLite syncs it once more when the connection closes and ignores a failure
    /// there: every commit is already synced, and the journal, no longer hot, goes with the state.
    static func isClosingSyncOfAStagedStore(_ note: String, at n: Int, of total: Int) -> Bool {
        guard note.contains("(sync) on ") else { return false }
        let file = faultedFile(note)
        return file.hasSuffix("/.healthetl/load.sqlite-journal") && n == total || file.hasSuffix("/.healthetl/delta.sqlite-journal")
    }

    /// What a failed run may leave in `.healthetl/`: the lock, the log, the published store's
    /// record, and the staged store (with its journal) and checkpoint copy it resumes from.
    static let stateAfterFailure: Set = ["lock", "runs.log", "published-store.json", "published-input.json", "checkpoint.json", "load.sqlite",
                                         "load.sqlite-journal", "delta.sqlite", "delta.sqlite-journal"]

    /// Runs the later import in `mode` with the N-th call of `kind` failing with `error`, for
    /// N = 1, 2, 3, 4, then every `stride`-th, then the last three calls a clean run makes,
    /// and on until N is past the last call. (The stride keeps a kind with hundreds of calls,
    /// sqlite-io, at a few seconds; it is odd, so that it hits both calls of a pair — a file's
    /// fsync and its folder's — and a kind with fewer than ~20 calls is tried at every N.)
    func faultLoop(_ kind: String, _ error: String, _ mode: Mode, _ exports: Exports,
                   file: StaticString = #filePath, line: UInt = #line) throws {
        let args = { (out: String) in
            ["import", exports.later, "--out", out, "--quiet"] + Self.zone
                + (mode == .full ? ["--full"] : mode == .person ? ["--person", "ann"] : [])
        }
        // A clean run that counts the calls; its outputs are what every recovered run must give.
        let reference = try copyOfPublished(exports, mode, "reference-\(kind)-\(mode)")
        let probe = try runProcess(TestPaths.binary, args(reference), environment: ["HEALTHETL_FAULT": "\(kind):1000000000:\(error)"])
        XCTAssertEqual(probe.status, 0, probe.stderr, file: file, line: line)
        let total = try XCTUnwrap(Self.callCount(probe.stderr, kind), "no call count in: \(probe.stderr)", file: file, line: line)
        XCTAssertGreaterThan(total, 0, file: file, line: line)
        let expected = try result(of: reference)

        // HEALTHETL_FAULT_EVERY_CALL=1 tries every N (minutes, not seconds: run by hand, see docs/TESTING.md).
        let everyCall = ProcessInfo.processInfo.environment["HEALTHETL_FAULT_EVERY_CALL"] == "1"
        let stride = everyCall ? 1 : (total / 10) | 1
        var planned = Array(1...min(4, total)) + Array(Swift.stride(from: 5, to: total - 2, by: stride)) + Array(max(5, total - 2)...max(5, total))
        planned = Array(Set(planned)).sorted()
        var n = 0, failures = 0, survived: [String] = []
        while true {
            n = planned.first { $0 > n } ?? n + 1
            let context = "\(kind):\(n):\(error), \(mode) import (of \(total) calls)"
            let work = try copyOfPublished(exports, mode, "work")
            let before = try publishedOutputs(work)
            let r = try runProcess(TestPaths.binary, args(work), environment: ["HEALTHETL_FAULT": "\(kind):\(n):\(error)"])
            let injected = r.stderr.components(separatedBy: "\n").first { $0.contains("fault injected: \(kind) #\(n) ") }
            XCTAssertFalse(r.killedBySignal, "\(context): a crash, signal \(r.status): \(r.stderr)", file: file, line: line)
            guard let injected else {
                XCTAssertEqual(r.status, 0, "\(context): no fault, yet: \(r.stderr)", file: file, line: line)
                XCTAssertGreaterThan(n, total, "\(context): a clean run made \(total) calls", file: file, line: line)
                try assertResult(of: work, equals: expected, "\(context), no fault", file: file, line: line)
                break
            }
            if r.status == 0 {
                // Survived: only at a best-effort file, and with the right outputs.
                let path = Self.faultedFile(injected)
                XCTAssertTrue(Self.bestEffort.contains { $0.kinds.contains(kind) && path.range(of: $0.file, options: .regularExpression) != nil }
                                || kind == "sqlite-io" && Self.isClosingSyncOfAStagedStore(injected, at: n, of: total),
                              "\(context): the run ignored a failure at \(path)", file: file, line: line)
                try assertResult(of: work, equals: expected, "\(context), survived", file: file, line: line)
                survived.append("\(n)")
                continue
            }
            failures += 1
            XCTAssertTrue(r.status == 74 || r.status == 73, "\(context): exit \(r.status): \(r.stderr)", file: file, line: line)
            let message = r.stderr.components(separatedBy: "\n").filter { !$0.isEmpty && !$0.contains("fault inject") }
            XCTAssertTrue(message.contains { $0.contains(work + "/") }, "\(context): the message names no file: \(r.stderr)",
                          file: file, line: line)
            assertSamePublished(try publishedOutputs(work), before, "\(context): the failed run changed a published output", file: file, line: line)
            let state = Set(try FileManager.default.contentsOfDirectory(atPath: work + mode.stateFolder))
            XCTAssertTrue(state.isSubset(of: Self.stateAfterFailure), "\(context): left \(state.subtracting(Self.stateAfterFailure))",
                          file: file, line: line)
            let next = try healthetl(args(work))
            XCTAssertEqual(next.status, 0, "\(context): the next run: \(next.stderr)", file: file, line: line)
            try assertResult(of: work, equals: expected, "\(context), then a clean run", file: file, line: line)
        }
        XCTAssertGreaterThan(failures, 0, "\(kind) \(mode): no run failed", file: file, line: line)
        print("fault loop \(kind):\(error) \(mode): \(total) calls; N tried \(planned.first ?? 0)…\(n) stride \(stride); "
              + "\(failures) failed cleanly, survived at N = \(survived.joined(separator: ","))")
    }

    // MARK: helpers

    /// A fresh copy at `dir/name` of the published folder a run in `mode` starts from.
    func copyOfPublished(_ exports: Exports, _ mode: Mode, _ name: String) throws -> String {
        let path = exports.dir + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: mode == .person ? exports.people : exports.published, toPath: path)
        return path
    }

    /// What a run produced, without its time stamps: every output file byte for byte but the
    /// stores (which log the runs' times), and each store's analytics and samples.
    struct Result: Equatable {
        var files: [String: Data]
        var analytics: [String]
    }

    func result(of out: String) throws -> Result {
        var files = try publishedOutputs(out)
        let stores = files.keys.filter { $0 == "health.sqlite" || $0.hasSuffix("/health.sqlite") }.sorted()
        XCTAssertFalse(stores.isEmpty, "\(out) has no store")
        var analytics: [String] = []
        for store in stores {
            files.removeValue(forKey: store)
            analytics += try analyticsSnapshot(out + "/" + store).map { store + ": " + $0 }
        }
        return Result(files: files, analytics: analytics)
    }

    func assertResult(of out: String, equals expected: Result, _ message: String,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        let got = try result(of: out)
        assertSamePublished(got.files, expected.files, message, file: file, line: line)
        XCTAssertTrue(got.analytics == expected.analytics, "\(message): the analytics differ", file: file, line: line)
    }

    /// `N` of the exit note "fault injection: N KIND calls, none failed".
    static func callCount(_ stderr: String, _ kind: String) -> Int? {
        guard let line = stderr.components(separatedBy: "\n").first(where: { $0.hasSuffix(" \(kind) calls, none failed") }),
              let words = line.components(separatedBy: "fault injection: ").last?.split(separator: " ") else { return nil }
        return Int(words[0])
    }

    /// The file of a note "fault injected: KIND #N [(call)] on FILE (error text)".
    static func faultedFile(_ note: String) -> String {
        guard let on = note.range(of: " on "), let error = note.range(of: " (", options: .backwards) else { return note }
        return String(note[on.upperBound..<error.lowerBound])
    }
}
