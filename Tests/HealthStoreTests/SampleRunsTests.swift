import Foundation
import XCTest
@testable import HealthCore
@testable import HealthEmit
@testable import HealthStore
import TestSupport

/// The sorted runs a full load spills are read, merged, exactly as the store reads its
/// series through the (type, start) index: same rows, same order (ties by insertion), same
/// values, NULLs and texts.
final class SampleRunsTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "sample-runs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// Samples in an order no sort would keep: types interleaved, starts shuffled (seeded),
    /// equal starts, texts missing or present, a value that is not finite, a long raw value.
    func shuffledSamples(count: Int) -> [Sample] {
        var state: UInt64 = 7
        // A seeded linear congruential generator (high bits): the same shuffle on every run.
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let types = ["HKQuantityTypeIdentifierStepCount", "HKCategoryTypeIdentifierSleepAnalysis",
                     "HKQuantityTypeIdentifierHeartRate"]
        let sources = [SourceInfo(name: "Watch", version: "10.1", device: "<<HKDevice: Watch>>"),
                       SourceInfo(name: "iPhone de Zoë")]
        return (0..<count).map { i in
            let type = types[Int(next() % 3)]
            let start = Int64(next() % 50) * 60_000_000   // few distinct starts: many ties
            let sleep = type.hasPrefix("HKCategory")
            var rawValue: String? = sleep ? "HKCategoryValueSleepAnalysisAsleepCore" : "\(i)"
            if i == 17 { rawValue = String(repeating: "9", count: 3000) }
            if i % 11 == 0 { rawValue = nil }
            let record = ExportRecord(type: type, source: sources[i % 2], unit: sleep ? nil : (i % 3 == 0 ? "kcal" : "count"),
                                      value: rawValue, creationDate: i % 5 == 0 ? nil : Timestamp(microseconds: start + 9),
                                      line: i + 1)
            let value: Double? = sleep ? nil : (i == 23 ? .infinity : Double(i) / 3)
            return Sample(record: record, start: Timestamp(microseconds: start), end: Timestamp(microseconds: start + 30_000_000),
                          value: value, unit: sleep ? nil : "count", categoryValue: sleep ? rawValue : nil,
                          localDate: CivilDate(daysSinceEpoch: Int(start / 86_400_000_000) + 19_000), userEntered: i % 7 == 0)
        }
    }

    func load(_ samples: [Sample], runBytes: Int) throws -> (SQLiteSink, SampleRuns) {
        let sink = try SQLiteSink(path: folder + "/store.sqlite")
        let writer = SampleRunWriter(folder: folder, runBytes: runBytes)
        sink.sampleRuns = writer
        var batch = NormalizedBatch()
        batch.samples = samples
        batch.identities = samples.indices.map { UInt64($0 % 97 == 5 ? 5 : $0) }   // a few exact duplicates
        try sink.write(batch)
        _ = try sink.finish()
        return (sink, try writer.finish())
    }

    func testMergedRunsReadLikeTheStoreThroughItsIndex() throws {
        let (sink, runs) = try load(shuffledSamples(count: 1500), runBytes: 4096)
        XCTAssertGreaterThan(runs.runs.count, 10, "small runs: the merge has many to interleave")
        XCTAssertEqual(runs.rows, sink.writtenCounts.samplesWritten)
        let reader = SeriesReader(database: sink.database)
        XCTAssertEqual(runs.typeIDs, try reader.types().map(\.id))
        // A buffer smaller than one row: every refill path is taken, and the long row grows it.
        let merger = try SampleRunMerger(runs, bufferBytes: 100)
        var total = 0
        for type in runs.typeIDs {
            var stored: [SeriesReader.Row] = [], merged: [SeriesReader.Row] = []
            try reader.forEachBatch(typeID: type, starting: nil, batchSize: 64) { stored += $0 }
            try merger.forEachBatch(typeID: type, starting: nil, batchSize: 64) { merged += $0 }
            XCTAssertEqual(merged.count, stored.count, "type \(type)")
            for (m, s) in zip(merged, stored) where m != s { XCTFail("merged \(m)\n stored \(s)"); break }
            total += merged.count
        }
        XCTAssertEqual(total, runs.rows)
    }

    func testOneRunAndARangeFilter() throws {
        let (sink, runs) = try load(shuffledSamples(count: 300), runBytes: 1 << 20)
        XCTAssertEqual(runs.runs.count, 1)
        let reader = SeriesReader(database: sink.database)
        let merger = try SampleRunMerger(runs)
        let range: Range<Int64> = 600_000_000..<1_800_000_000
        for type in runs.typeIDs {
            var stored: [SeriesReader.Row] = [], merged: [SeriesReader.Row] = []
            try reader.forEachBatch(typeID: type, starting: range, batchSize: 8192) { stored += $0 }
            try merger.forEachBatch(typeID: type, starting: range, batchSize: 8192) { merged += $0 }
            XCTAssertFalse(stored.isEmpty)
            XCTAssertEqual(merged, stored)
        }
    }

    /// A row longer than the writer's slack past its run size (a raw value of 100 KB) makes the
    /// block that holds the rows grow, the rows before it kept: the runs still read like the store.
    func testARowLongerThanTheHeldBlockGrowsIt() throws {
        var samples = shuffledSamples(count: 400)
        for i in [3, 250] { samples[i].record.value = String(repeating: "7", count: 100_000 + i) }
        // 4 KiB runs and 64 KiB of slack: each long row comes after a few short ones in its run.
        let (sink, runs) = try load(samples, runBytes: 4096)
        XCTAssertGreaterThan(runs.runs.count, 2)
        let reader = SeriesReader(database: sink.database)
        let merger = try SampleRunMerger(runs)
        var long = 0
        for type in runs.typeIDs {
            var stored: [SeriesReader.Row] = [], merged: [SeriesReader.Row] = []
            try reader.forEachBatch(typeID: type, starting: nil, batchSize: 8192) { stored += $0 }
            try merger.forEachBatch(typeID: type, starting: nil, batchSize: 8192) { merged += $0 }
            XCTAssertEqual(merged, stored)
            long += merged.filter { ($0.rawValue?.utf8.count ?? 0) >= 100_000 }.count
        }
        XCTAssertEqual(long, 2)
    }

    /// The merge streams once through the runs: a type asked for again, or one passed over
    /// unread, is a programming error, reported instead of answered with no rows.
    func testTypesOutOfOrderOrSkippedAreErrors() throws {
        let (_, runs) = try load(shuffledSamples(count: 200), runBytes: 2048)
        let inOrder = try SampleRunMerger(runs)
        try inOrder.forEachBatch(typeID: runs.typeIDs[0], starting: nil, batchSize: 10) { _ in }
        XCTAssertThrowsError(try inOrder.forEachBatch(typeID: runs.typeIDs[0], starting: nil, batchSize: 10) { _ in }) {
            XCTAssertTrue("\($0)".contains("out of type order"), "\($0)")
        }
        let skipping = try SampleRunMerger(runs)
        XCTAssertThrowsError(try skipping.forEachBatch(typeID: runs.typeIDs[1], starting: nil, batchSize: 10) { _ in }) {
            XCTAssertTrue("\($0)".contains("rows of type \(runs.typeIDs[0]) were skipped"), "\($0)")
        }
    }

    /// The runs only save time: when one cannot be written (here: no such folder; in life, a
    /// full disk) the sink drops them and goes on, and the analytics read the store instead.
    func testARunThatCannotBeWrittenIsDroppedNotFatal() throws {
        let sink = try SQLiteSink(path: folder + "/store.sqlite")
        sink.sampleRuns = SampleRunWriter(folder: folder + "/missing", runBytes: 2048)
        var batch = NormalizedBatch()
        batch.samples = shuffledSamples(count: 200)
        batch.identities = (0..<200).map(UInt64.init)
        try sink.write(batch)
        XCTAssertNil(sink.sampleRuns)
        XCTAssertEqual(try sink.finish().samplesWritten, 200)
    }

    func testRunFilesAreUnlinkedAndPrivate() throws {
        let (_, runs) = try load(shuffledSamples(count: 500), runBytes: 2048)
        XCTAssertGreaterThan(runs.runs.count, 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        XCTAssertEqual(names.filter { $0.hasPrefix("sample-run") }, [], "nothing left behind, even before the merge")
        var info = stat()
        XCTAssertEqual(fstat(runs.runs[0].file.descriptor, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
    }
}
