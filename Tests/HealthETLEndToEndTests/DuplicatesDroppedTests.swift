import Foundation
import XCTest
@testable import HealthCore
@testable import HealthStore
@testable import SQLite
import TestSupport

/// `reconciliation.duplicates_dropped` (docs/data-quality.md, "Exact duplicates"): the exact
/// copies dropped per local day and metric equal a hand count, add up to the run's total,
/// are counted once by a nightly run (the copies of a record the store already holds are not
/// counted again), survive a kill and resume without counting twice, and are unknown (NULL)
/// on the days a store upgraded in place loaded before.
final class DuplicatesDroppedTests: XCTestCase {
    static let zone = "America/New_York"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let energy = "HKQuantityTypeIdentifierActiveEnergyBurned"

    /// One record; `created` nil: no creationDate (such a record passes every anchor).
    static func record(_ type: String, _ unit: String, _ value: String, _ start: String, _ end: String,
                       created: String? = "end") -> String {
        ExportXML.record(type, source: "Ann’s iPhone", unit: unit, value: value, start: start, end: end,
                         created: created.map { $0 == "end" ? end : $0 }, attributes: #" sourceVersion="17.0""#)
    }

    static func export(_ exportDate: String, _ records: [String]) -> String {
        ExportXML.document(records, exportDate: exportDate)
    }

    // The first export's records, with their copies (New York is UTC−5 in January).
    static let s1 = record(steps, "count", "500", "2024-01-15 10:00:00 -0500", "2024-01-15 10:05:00 -0500")
    static let s2 = record(steps, "count", "300", "2024-01-15 12:00:00 -0500", "2024-01-15 12:05:00 -0500")
    static let e0 = record(energy, "kcal", "20", "2024-01-15 09:00:00 -0500", "2024-01-15 09:10:00 -0500")
    static let h1 = record("HKQuantityTypeIdentifierHeartRate", "count/min", "70", "2024-01-15 11:00:00 -0500",
                           "2024-01-15 11:00:00 -0500")
    static let e1 = record(energy, "kcal", "35", "2024-01-16 12:00:00 -0500", "2024-01-16 12:10:00 -0500")
    /// 04:30 UTC on the 17th is 23:30 on the 16th in New York: its copy belongs to the 16th.
    /// The newest step record of the first export: inside the anchor's window on the next run.
    static let m1 = record(steps, "count", "200", "2024-01-17 04:30:00 +0000", "2024-01-17 04:35:00 +0000")
    /// Without a creationDate: no anchor ever drops it.
    static let f1 = record("HKQuantityTypeIdentifierFlightsClimbed", "count", "2", "2024-01-16 08:00:00 -0500",
                           "2024-01-16 08:01:00 -0500", created: nil)
    /// The first export: s1 three times (a copy next to it, one at the end), h1, e1 and m1
    /// twice, f1 three times.
    static let first = [s1, s1, s2, e0, h1, h1, e1, m1, f1, e1, m1, f1, f1, s1]

    // What the second export adds: n1 four times (05:30 UTC, 00:30 in New York: the 17th), e3 three times.
    static let n1 = record(steps, "count", "150", "2024-01-17 05:30:00 +0000", "2024-01-17 05:35:00 +0000")
    static let e2 = record(energy, "kcal", "15", "2024-01-17 09:00:00 -0500", "2024-01-17 09:05:00 -0500")
    static let e3 = record(energy, "kcal", "40", "2024-01-18 10:00:00 -0500", "2024-01-18 10:10:00 -0500")
    static let s3 = record(steps, "count", "800", "2024-01-18 11:00:00 -0500", "2024-01-18 11:10:00 -0500")
    static let second = first + [n1, e2, n1, e3, s3, n1, e3, n1, e3]

    /// The hand count of `second` by (day, metric), every row of the reconciliation.
    static let expected = [
        "2024-01-15 active_energy_kcal 0", "2024-01-15 steps 2",
        "2024-01-16 active_energy_kcal 1", "2024-01-16 stairs_climbed 2", "2024-01-16 steps 1",
        "2024-01-17 active_energy_kcal 0", "2024-01-17 steps 3",
        "2024-01-18 active_energy_kcal 2", "2024-01-18 steps 0",
    ]

    static let rows = """
        SELECT date || ' ' || metric || ' ' || ifnull(duplicates_dropped, 'NULL') FROM reconciliation ORDER BY date, metric
        """

    /// The hand count, 0 on days and metrics without copies, the local day across midnight;
    /// Σ over days and metrics = the run's total less the heart-rate copy (not a summed metric).
    /// The report's rings table names the copies of a day it lists.
    func testDuplicatesDroppedEqualTheHandCount() throws {
        let dir = try temporaryFolder(self)
        let rings = #"<ActivitySummary dateComponents="2024-01-16" activeEnergyBurned="100" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleExerciseTime="0" appleExerciseTimeGoal="30" appleStandHours="1" appleStandHoursGoal="12"/>"#
        let export = try write(Self.export("2024-01-19 08:00:00 -0500", Self.second + [rings]), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        try importJSON(export, out, zone: Self.zone)
        let store = out + "/health.sqlite"
        XCTAssertEqual(try query(store, Self.rows), Self.expected)
        XCTAssertEqual(try query(store, "SELECT duplicates FROM runs"), ["12"])
        XCTAssertEqual(try query(store, "SELECT sum(duplicates_dropped) FROM reconciliation"), ["11"])
        XCTAssertEqual(try query(store, "SELECT sum(copies) FROM duplicate_copies"), ["12"])
        // The copies are not in any sum: the steps of the 15th are s1 and s2 once each.
        XCTAssertEqual(try query(store, "SELECT CAST(all_sources_sum AS INTEGER) FROM reconciliation WHERE date = '2024-01-15' AND metric = 'steps'"),
                       ["800"])

        let report = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(report.contains("1 exact copy dropped"), "the rings table's day of e1's copy")

        let csv = try String(contentsOfFile: out + "/csv/reconciliation.csv", encoding: .utf8)
        let lines = csv.split(whereSeparator: \.isNewline)
        XCTAssertEqual(lines.first?.split(separator: ",").last, "duplicates_dropped")
        XCTAssertTrue(lines.contains { $0.hasPrefix("2024-01-17,steps,") && $0.hasSuffix(",3") }, csv)

        // The Parquet file, read by pyarrow: the same column, typed as an integer.
        let parquet = try runProcess(try TestTools.python(importing: ["pyarrow"]), ["-c", """
            import sys, pyarrow.parquet as pq
            t = pq.read_table(sys.argv[1])
            assert str(t.schema.field("duplicates_dropped").type) == "int64", t.schema
            rows = t.to_pylist()
            print(" ".join("%s/%s/%s" % (r["date"], r["metric"], r["duplicates_dropped"]) for r in rows))
            """, out + "/parquet/reconciliation.parquet"])
        XCTAssertEqual(parquet.status, 0, parquet.stderr)
        XCTAssertTrue(parquet.stdout.contains("2024-01-17/steps/3"), parquet.stdout)
        XCTAssertTrue(parquet.stdout.contains("2024-01-18/active_energy_kcal/2"), parquet.stdout)
    }

    /// A nightly run over the second export (the first one's copies again, inside and outside
    /// the anchors' window, and new ones) leaves the same reconciliation as a full import of
    /// it, byte for byte: a copy counts when its record is first imported, never again.
    func testANightlyRunCountsEachCopyOnce() throws {
        let dir = try temporaryFolder(self)
        let older = try write(Self.export("2024-01-17 08:00:00 -0500", Self.first), to: "n.xml", in: dir)
        let newer = try write(Self.export("2024-01-19 08:00:00 -0500", Self.second), to: "n1.xml", in: dir)
        let nightly = dir.appendingPathComponent("nightly").path, fresh = dir.appendingPathComponent("fresh").path
        try importJSON(older, nightly, zone: Self.zone)
        XCTAssertEqual(try query(nightly + "/health.sqlite", Self.rows), [
            "2024-01-15 active_energy_kcal 0", "2024-01-15 steps 2",
            "2024-01-16 active_energy_kcal 1", "2024-01-16 stairs_climbed 2", "2024-01-16 steps 1",
        ])
        let second = try importJSON(newer, nightly, zone: Self.zone)
        XCTAssertEqual(second["mode"] as? String, "incremental")
        try importJSON(newer, fresh, ["--full"], zone: Self.zone)
        XCTAssertEqual(try query(nightly + "/health.sqlite", Self.rows), Self.expected)
        XCTAssertEqual(try query(fresh + "/health.sqlite", Self.rows), Self.expected)
        for file in ["csv/reconciliation.csv", "parquet/reconciliation.parquet"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: nightly + "/" + file)),
                           try Data(contentsOf: URL(fileURLWithPath: fresh + "/" + file)), file)
        }
        // The nightly run itself dropped the copies of m1, e1, h1 and f1 again (the newest of their
        // type, inside the anchors' window, or without a creationDate): its run total says so
        // (4 + 5 new), the store does not count them twice.
        XCTAssertEqual(try query(nightly + "/health.sqlite", "SELECT duplicates FROM runs ORDER BY id"), ["7", "10"])
        XCTAssertEqual(try query(nightly + "/health.sqlite", "SELECT sum(copies) FROM duplicate_copies"), ["12"])
    }

    /// A store of version 6 (no per-record copies) upgraded in place by a nightly run: the days
    /// it held data for are unknown (NULL), the new days counted as a full import counts them.
    func testAStoreUpgradedInPlaceLeavesItsOldDaysUnknown() throws {
        let dir = try temporaryFolder(self)
        let older = try write(Self.export("2024-01-17 08:00:00 -0500", Self.first), to: "n.xml", in: dir)
        let newer = try write(Self.export("2024-01-19 08:00:00 -0500", Self.second), to: "n1.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        try importJSON(older, out, zone: Self.zone)
        do {
            let db = try Database(path: out + "/health.sqlite", mode: .readWrite)
            try db.execute("""
                DROP TABLE duplicate_copies; ALTER TABLE reconciliation DROP COLUMN duplicates_dropped;
                PRAGMA user_version = 6;
                """)
        }
        let again = try importJSON(newer, out, zone: Self.zone)
        XCTAssertEqual(again["mode"] as? String, "incremental")
        let store = out + "/health.sqlite"
        XCTAssertEqual(try query(store, "PRAGMA user_version"), [String(StoreSchema.version)])
        XCTAssertEqual(try query(store, "SELECT value FROM settings WHERE key = 'duplicates_unknown_through'"), ["2024-01-16"])
        XCTAssertEqual(try query(store, Self.rows), Self.expected.map { line in
            line.hasPrefix("2024-01-15") || line.hasPrefix("2024-01-16")
                ? line.split(separator: " ").dropLast().joined(separator: " ") + " NULL" : line
        })
        // Once more with nothing new: nothing changes.
        try importJSON(newer, out, zone: Self.zone)
        XCTAssertEqual(try query(store, "SELECT count(*) FROM reconciliation WHERE duplicates_dropped IS NULL"), ["5"])
    }

    /// A load that an earlier version (schema 6) finished before it was killed is upgraded when
    /// this version resumes it: the run completes, its copies unknown (that load never counted them).
    func testALoadFinishedByAnEarlierVersionIsUpgradedWhenResumed() throws {
        let dir = try temporaryFolder(self)
        let export = try write(Self.export("2024-01-19 08:00:00 -0500", Self.second), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path, staged = out + "/.healthetl/load.sqlite"
        let args = ["import", export, "--out", out, "--timezone", Self.zone, "--quiet"]
        // Killed after its n-th checkpoint commit, for n = 1, 2, …, until the kill lands after
        // the load's last one (analytics and outputs left).
        func loaded() throws -> Bool {
            guard FileManager.default.fileExists(atPath: staged) else { return false }
            return try query(staged, "SELECT state FROM load_checkpoint").first?.contains(#""loaded""#) == true
        }
        for n in 1...10 {
            try? FileManager.default.removeItem(atPath: out)
            let killed = try runProcess(TestPaths.binary, args, environment: ["HEALTHETL_FAULT": "kill-after-checkpoint:\(n)"])
            XCTAssertTrue(killed.killedBySignal, killed.stderr)
            if try loaded() { break }
        }
        XCTAssertTrue(try loaded(), "no kill landed after the load")
        do {
            let db = try Database(path: staged, mode: .readWrite)
            try db.execute("""
                DROP TABLE duplicate_copies; ALTER TABLE reconciliation DROP COLUMN duplicates_dropped; PRAGMA user_version = 6;
                """)
        }
        let resumed = try healthetl(args)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let store = out + "/health.sqlite"
        XCTAssertEqual(try query(store, "PRAGMA user_version"), [String(StoreSchema.version)])
        XCTAssertEqual(try query(store, "SELECT count(*) FROM reconciliation WHERE duplicates_dropped IS NULL"),
                       [String(Self.expected.count)])
        XCTAssertEqual(try query(store, "SELECT value FROM settings WHERE key = 'duplicates_unknown_through'"), ["2024-01-18"])
    }

    /// The sink's resume path: copies committed with a checkpoint stay counted, copies read
    /// after it (lost with the killed process) are counted once when the batch is read again.
    func testAResumedLoadCountsEachCopyOnce() throws {
        let dir = try temporaryFolder(self)
        let path = dir.appendingPathComponent("load.sqlite").path
        func batch(_ identities: [UInt64]) -> NormalizedBatch {
            var b = NormalizedBatch()
            b.samples = identities.map { id in
                let start = Timestamp(microseconds: 1_705_000_000_000_000 + Int64(id) * 60_000_000)
                let record = ExportRecord(type: Self.steps, source: SourceInfo(name: "Ann’s iPhone"), unit: "count",
                                          value: "\(id)", creationDate: start, line: Int(id))
                return Sample(record: record, start: start, end: start, value: Double(id), unit: "count",
                              categoryValue: nil, localDate: CivilDate(daysSinceEpoch: 19_700 + Int(id % 2)), userEntered: false)
            }
            b.identities = identities
            return b
        }
        var checkpoint = SQLiteSink.Counts()
        do {
            let sink = try SQLiteSink(path: path)
            try sink.write(batch([1, 2, 2, 3]))
            try sink.commit(checkpoint: "one")
            checkpoint = sink.writtenCounts
            try sink.write(batch([2, 4, 4, 1]))   // never committed: the process is killed
        }
        XCTAssertEqual(checkpoint.duplicatesDropped, 1)
        let sink = try SQLiteSink(path: path, resuming: checkpoint)
        try sink.write(batch([2, 4, 4, 1]))
        let counts = try sink.finish()
        XCTAssertEqual(counts.duplicatesDropped, 4)
        let copies = try sink.database.rows("SELECT identity, local_day, copies FROM duplicate_copies ORDER BY identity")
            .map { $0.map { $0.int ?? -1 } }
        XCTAssertEqual(copies, [[1, 19_701, 1], [2, 19_700, 2], [4, 19_700, 1]])
        XCTAssertEqual(try sink.database.scalar("SELECT count(*) FROM sample_data").int, 4)
    }
}
