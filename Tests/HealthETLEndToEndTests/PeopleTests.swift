import Foundation
import XCTest
@testable import HealthCore
@testable import HealthPeople
@testable import HealthPipeline
@testable import SQLite
import TestSupport

/// Several people in one output folder (issue 23): each person's outputs equal an import of
/// their export alone; removing one leaves the other untouched; ids are never paths; progress
/// and cancellation through the library; a household's nightly run.
final class PeopleTests: XCTestCase {
    private static let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
    private static let zone = ["--timezone", "Europe/Berlin"]

    /// A second, different export (another seed and span), generated once per test.
    private func otherExport(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("bob.xml").path
        try generateExport(["--out", path, "--days", "12", "--start", "2024-06-01", "--seed", "7"])
        return path
    }

    /// Every file under `folder` (relative path → bytes), for byte-for-byte comparisons.
    private func files(under folder: String, skipping: Set<String> = [".healthetl"]) throws -> [String: Data] {
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder), folder)
        return try fileContents(under: folder) { relative in skipping.contains { relative == $0 || relative.hasPrefix($0 + "/") } }
    }

    private func csvFiles(_ folder: String) throws -> [String: Data] {
        try files(under: (folder as NSString).appendingPathComponent("csv"), skipping: [])
    }

    func testTwoPeopleEachEqualTheirExportImportedAloneAndRemovingOneLeavesTheOther() throws {
        let tmp = try temporaryFolder(self)
        let bobExport = try otherExport(in: tmp)
        let shared = tmp.appendingPathComponent("family").path
        for (person, export) in [("alice", Self.sample), ("bob", bobExport)] {
            let r = try healthetl(["import", export, "--out", shared, "--person", person, "--quiet"] + Self.zone)
            XCTAssertEqual(r.status, 0, r.stderr)
            let alone = tmp.appendingPathComponent("alone-\(person)").path
            XCTAssertEqual(try healthetl(["import", export, "--out", alone, "--quiet"] + Self.zone).status, 0)
            let personFolder = shared + "/people/\(person)"
            XCTAssertEqual(try analyticsSnapshot(personFolder + "/health.sqlite"), try analyticsSnapshot(alone + "/health.sqlite"),
                           person)
            let together = try csvFiles(personFolder), single = try csvFiles(alone)
            XCTAssertFalse(together.isEmpty)
            XCTAssertEqual(together, single, "\(person)'s CSV files")
        }
        // The two people really differ, and nothing of them is at the top of the folder.
        XCTAssertNotEqual(try analyticsSnapshot(shared + "/people/alice/health.sqlite"),
                          try analyticsSnapshot(shared + "/people/bob/health.sqlite"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: shared + "/health.sqlite"))

        let list = try healthetl(["people", "--out", shared, "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let listed = try JSONDecoder.snakeCase.decode([PersonFacts].self, from: Data(list.stdout.utf8))
        XCTAssertEqual(listed.map(\.id), ["alice", "bob"])
        XCTAssertEqual(listed[0].days, try query(shared + "/people/alice/health.sqlite", "SELECT count(*) FROM daily_analytics").first.flatMap(Int.init))
        XCTAssertEqual(listed[1].firstDay, try query(shared + "/people/bob/health.sqlite", "SELECT min(date) FROM daily_analytics").first)
        XCTAssertEqual(listed[1].samples, try query(shared + "/people/bob/health.sqlite", "SELECT count(*) FROM sample_data").first.flatMap(Int.init))

        // Both have their partitions of the cohort dataset: a person's daily one is their daily.parquet.
        for person in ["alice", "bob"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: shared + "/dataset/daily/person=\(person)/part-0.parquet")),
                           try Data(contentsOf: URL(fileURLWithPath: shared + "/people/\(person)/parquet/daily.parquet")))
        }
        let aliceDataset = try files(under: shared + "/dataset/daily/person=alice", skipping: [])
        // Without --yes: says what it would remove, removes nothing, exits 64.
        let aliceBefore = try files(under: shared + "/people/alice", skipping: [])
        let dry = try healthetl(["people", "remove", "bob", "--out", shared])
        XCTAssertEqual(dry.status, 64)
        XCTAssertTrue(dry.stderr.contains("people/bob/health.sqlite"), dry.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: shared + "/people/bob/health.sqlite"))

        let removed = try healthetl(["people", "remove", "bob", "--yes", "--out", shared])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared + "/people"), ["alice"])
        XCTAssertEqual(try files(under: shared + "/people/alice", skipping: []), aliceBefore, "alice untouched")
        XCTAssertEqual(try files(under: shared + "/dataset/daily/person=alice", skipping: []), aliceDataset)
        for table in ["daily", "weekly", "monthly", "yearly", "sleep", "workouts", "activity_summaries", "samples"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: shared + "/dataset/\(table)/person=bob"), table)
            XCTAssertTrue(FileManager.default.fileExists(atPath: shared + "/dataset/\(table)/person=alice"), table)
        }
        let after = try healthetl(["people", "--out", shared, "--json"])
        XCTAssertEqual(try JSONDecoder.snakeCase.decode([PersonFacts].self, from: Data(after.stdout.utf8)).map(\.id), ["alice"])
    }

    func testIdsThatAreNotNamesAreRefusedWith64() throws {
        let out = try temporaryFolder(self).path
        // Issue 56: an id starting with '-' would read as options where it goes on a command line.
        let dashed = ["-rf", "-", "--out"]
        for bad in ["../x", "a/b", "/abs", ".", "..", "", "ä", "a b", String(repeating: "x", count: 65)] + dashed {
            for command in [["import", Self.sample], ["status"], ["reset"], ["query", "SELECT 1 FROM steps"]] {
                let r = try healthetl(command + ["--out", out, "--person", bad])
                XCTAssertEqual(r.status, 64, "\(command[0]) --person '\(bad)': \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("person id"), r.stderr)
            }
            XCTAssertEqual(try healthetl(["people", "show", bad, "--out", out]).status, 64, bad)
            let set = try healthetl(["people", "set", bad, "--name", "X", "--out", out])
            XCTAssertEqual(set.status, 64, "people set '\(bad)': \(set.stderr)")
        }
        for bad in dashed {
            let r = try healthetl(["status", "--out", out, "--person=\(bad)"])
            XCTAssertEqual(r.status, 64, r.stderr)
            XCTAssertTrue(r.stderr.contains("person id '\(bad)' is refused: it starts with '-'"), r.stderr)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "nothing created for a refused id")
        XCTAssertNoThrow(try PersonID(String(repeating: "x", count: 64)))
        XCTAssertNoThrow(try PersonID("Anna-Lena_2"))
        XCTAssertNoThrow(try PersonID("_rf"))
        XCTAssertNoThrow(try PersonID("r-f-"), "a '-' inside or at the end is no option")
    }

    func testSettingsOverrideThePipelineAndAreValidated() throws {
        let out = try temporaryFolder(self).path
        let people = People(root: out)
        let id = try PersonID("carol")
        XCTAssertThrowsError(try people.update(id, birthDate: "2001-02-30"))
        XCTAssertThrowsError(try people.update(id, timezone: "Mars/Olympus"))
        try people.update(id, name: "Carol", birthDate: "1984-07-01", timezone: "Asia/Seoul", sourcePriority: ["Garmin"])
        var pipeline = PipelineConfig()
        pipeline.timezone = "Europe/Berlin"
        pipeline.sourcePriority = ["manual"]
        let config = try people.config(for: id, pipeline: pipeline)
        XCTAssertEqual(config.timezone, "Asia/Seoul")
        XCTAssertEqual(config.sourcePriority, ["Garmin"])
        XCTAssertEqual(config.out, out + "/people/carol")
        // The person's zone reaches their local days.
        _ = try people.importJob(Self.sample, for: id, pipeline: pipeline).run()
        XCTAssertEqual(try query(out + "/people/carol/health.sqlite", "SELECT timezone FROM runs"), ["Asia/Seoul"])
        let facts = try people.facts(of: id)
        XCTAssertEqual(facts.name, "Carol")
        XCTAssertEqual(facts.birthDate, "1984-07-01")
        // Mode 0600 for the settings file, 0700 for the person's folder.
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: out + "/people/carol/person.json")[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: out + "/people/carol")[.posixPermissions] as? Int, 0o700)
    }

    func testProgressRisesToOneThroughEveryPhase() async throws {
        let out = try temporaryFolder(self).path
        let people = People(root: out)
        let id = try PersonID("dana")
        let seen = Reports()
        _ = try await people.importExport(Self.sample, for: id, progress: { seen.add($0) })
        let full = seen.all
        XCTAssertEqual(full.last?.fraction, 1.0)
        XCTAssertEqual(full.map(\.fraction), full.map(\.fraction).sorted(), "fractions never go back")
        XCTAssertEqual(Set(full.map(\.task)), Set(ImportTask.allCases), "every phase of a full import")
        XCTAssertTrue(full.allSatisfy { (0...1).contains($0.fraction) })
        // An incremental run over a later export reports storing (the merge) too.
        let later = try temporaryFolder(self).appendingPathComponent("later.xml").path
        try generateExport(["--out", later, "--days", "34"])
        let again = Reports()
        let summary = try await people.importExport(later, for: id, progress: { again.add($0) })
        XCTAssertEqual(summary.mode, "incremental")
        XCTAssertEqual(again.all.last?.fraction, 1.0)
        XCTAssertTrue(again.all.contains { $0.task == .storing })
        XCTAssertEqual(again.all.map(\.fraction), again.all.map(\.fraction).sorted())
    }

    func testACancelledImportLeavesThePublishedStoreAsItWas() async throws {
        let tmp = try temporaryFolder(self)
        let people = People(root: tmp.path)
        let id = try PersonID("erin")
        _ = try await people.importExport(Self.sample, for: id)
        let folder = tmp.path + "/people/erin"
        // The store by its content (an incremental run switches it to a write-ahead log, which
        // changes its header, not its data); every other file byte for byte.
        func published() throws -> [String: Data] {
            var all = try files(under: folder, skipping: [".healthetl", "health.sqlite"])
            all["health.sqlite rows"] = Data(try storeDump(folder + "/health.sqlite").utf8)
            return all
        }
        let before = try published()
        let later = tmp.appendingPathComponent("later.xml").path
        try generateExport(["--out", later, "--days", "60", "--scale", "3"])
        for cancelAt in [ImportTask.reading, .analytics, .writingFiles] {
            let reached = Reports()
            let task = Task {
                try await people.importExport(later, for: id, progress: { p in
                    reached.add(p)
                    if p.task == cancelAt { reached.cancel() }
                })
            }
            reached.onCancel { task.cancel() }
            do {
                _ = try await task.value
                XCTFail("the import should have been cancelled at \(cancelAt)")
            } catch is CancellationError {
            }
            XCTAssertTrue(reached.all.contains { $0.task == cancelAt })
            let after = try published()
            for name in Set(before.keys).union(after.keys) where before[name] != after[name] {
                XCTFail("\(name) changed after a cancel at \(cancelAt)")
            }
        }
        // The next import is not disturbed by the cancelled ones.
        let summary = try await people.importExport(later, for: id)
        XCTAssertGreaterThan(summary.newSamples ?? 0, 0)
    }

    func testTwoPeopleCanImportAtOnceTheSamePersonOnlyOnce() throws {
        let out = try temporaryFolder(self).path
        let people = People(root: out)
        let (alice, bob) = (try PersonID("alice"), try PersonID("bob"))
        try people.create(alice)
        try people.create(bob)
        // Alice's lock held as a running import holds it: Bob's import goes ahead, Alice's gets 75.
        let held = try RunLock(folder: people.outputFolder(of: alice))
        let bobRun = try healthetl(["import", Self.sample, "--out", out, "--person", "bob", "--quiet"] + Self.zone)
        XCTAssertEqual(bobRun.status, 0, bobRun.stderr)
        let aliceRun = try healthetl(["import", Self.sample, "--out", out, "--person", "alice", "--quiet"] + Self.zone)
        XCTAssertEqual(aliceRun.status, 75, aliceRun.stderr)
        XCTAssertEqual(try healthetl(["people", "remove", "alice", "--yes", "--out", out]).status, 75, "no removal under a running import")
        withExtendedLifetime(held) {}
    }

    func testHouseholdRunImportsEveryExportAndReportsTheBrokenOne() throws {
        let tmp = try temporaryFolder(self)
        let exports = tmp.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.sample, toPath: exports.appendingPathComponent("alice.xml").path)
        try generateExport(["--out", exports.appendingPathComponent("bob.zip").path, "--layout", "zip", "--days", "10"])
        try write("<HealthData locale=\"en_US\">\n<Record type=\"HKQuantityTypeIdentifierStepCount\"", to: "broken.xml", in: exports)
        try write("not an export", to: "notes.txt", in: exports)
        let out = tmp.appendingPathComponent("out").path
        let r = try healthetl(["import-all", exports.path, "--out", out, "--jobs", "2"] + [])
        XCTAssertEqual(r.status, 65, "the worst exit code: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("broken: failed (exit 65)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("alice: ok"), r.stderr)
        XCTAssertTrue(r.stderr.contains("bob: ok"), r.stderr)
        XCTAssertGreaterThan(Int(try query(out + "/people/alice/health.sqlite", "SELECT count(*) FROM sample_data")[0]) ?? 0, 0)
        XCTAssertGreaterThan(Int(try query(out + "/people/bob/health.sqlite", "SELECT count(*) FROM sample_data")[0]) ?? 0, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/people/broken/health.sqlite"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/people/notes"))
        // Again, nightly over the same files: nothing read for either, the broken one still reported.
        let again = try healthetl(["import-all", exports.path, "--out", out, "--json"])
        XCTAssertEqual(again.status, 65)
        let lines = again.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, again.stdout)
        XCTAssertTrue(lines.contains { $0.contains(#""person":"alice""#) && $0.contains(#""mode":"unchanged""#) }, again.stdout)
        XCTAssertTrue(lines.contains { $0.contains(#""person":"bob""#) && $0.contains(#""mode":"unchanged""#) }, again.stdout)
    }
}

/// Every row of every table of a store, in a fixed order (for "unchanged" checks that do not
/// depend on how SQLite laid out its pages).
func storeDump(_ path: String) throws -> String {
    let db = try Database(path: path, mode: .readOnly)
    var out = ""
    for table in try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap({ $0[0].string }) {
        out += "## \(table)\n"
        for row in try db.rows("SELECT * FROM \"\(table)\" ORDER BY 1") { out += row.map(\.description).joined(separator: "|") + "\n" }
    }
    return out
}

/// Progress reports collected from the import's thread.
private final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [ImportProgress] = []
    private var cancelled = false
    private var cancelHandler: (@Sendable () -> Void)?

    func add(_ p: ImportProgress) { lock.withLock { reports.append(p) } }
    var all: [ImportProgress] { lock.withLock { reports } }

    /// Runs the handler once, from the first call of `cancel` (or at once if that came first).
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let now = lock.withLock { cancelHandler = handler; return cancelled }
        if now { handler() }
    }
    func cancel() {
        let handler = lock.withLock { () -> (@Sendable () -> Void)? in
            guard !cancelled else { return nil }
            cancelled = true
            return cancelHandler
        }
        handler?()
    }
}

extension JSONDecoder {
    static var snakeCase: JSONDecoder {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return d
    }
}
