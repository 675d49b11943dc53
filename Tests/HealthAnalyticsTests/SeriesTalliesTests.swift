import Foundation
import XCTest
@testable import HealthAnalytics
@testable import HealthCore
@testable import HealthStore
@testable import SQLite

/// A full build gathers what the data-quality and vitals tables need from the series the
/// analytics read (the sorted runs of its load), instead of reading `sample_data` back: the
/// result must be the one the store's own reads give, to the last bit of every sum.
final class SeriesTalliesTests: XCTestCase {
    var folder = ""
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let energy = "HKQuantityTypeIdentifierActiveEnergyBurned"

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "series-tallies-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// Samples over four Berlin days (one with the clocks going back), written in a seeded
    /// shuffle: a day's rows reach the series in start order, not in the order of their ids, and
    /// their values (thirds, tenths) add up to different doubles in different orders.
    func shuffledSamples(count: Int, zone: String = "Europe/Berlin",
                         first: Int64 = 1_729_900_800_000_000) -> [Sample] {
        var state: UInt64 = 31
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var calendar = LocalCalendar(timeZone: TimeZone(identifier: zone)!)
        let types = [Self.heartRate, Self.steps, Self.energy]
        let sources = [SourceInfo(name: "Watch", version: "10.1", device: "<<HKDevice: 0x1>, name:Apple Watch, model:Watch>"),
                       SourceInfo(name: "Zoë’s iPhone"), SourceInfo(name: "Garmin")]
        // By default from 2024-10-26 00:00 UTC: Berlin goes back an hour on the 27th.
        return (0..<count).map { i in
            let type = types[Int(next() % 3)]
            let start = first + Int64(next() % (4 * 86_400)) * 1_000_000
            let value: Double? = i % 13 == 0 ? nil : type == Self.heartRate ? Double(50 + i % 90) : Double(i) / 3 + 0.1
            let record = ExportRecord(type: type, source: sources[i % 3], unit: "count", value: value.map { "\($0)" }, line: i + 1)
            return Sample(record: record, start: Timestamp(microseconds: start), end: Timestamp(microseconds: start + 60_000_000),
                          value: value, unit: "count", categoryValue: nil,
                          localDate: calendar.localDate(of: Timestamp(microseconds: start)), userEntered: false)
        }
    }

    func load(_ samples: [Sample]) throws -> (SQLiteSink, SampleRuns) {
        let sink = try SQLiteSink(path: folder + "/store.sqlite")
        let writer = SampleRunWriter(folder: folder, runBytes: 8192)
        sink.sampleRuns = writer
        var batch = NormalizedBatch()
        batch.samples = samples
        batch.identities = samples.indices.map { UInt64($0) }
        try sink.write(batch)
        _ = try sink.finish()
        return (sink, try writer.finish())
    }

    /// The groups by (type identifier, source, day), with each sum's bits.
    func groups(_ tally: QualityTally) -> [String: String] {
        var result: [String: String] = [:]
        for (key, group) in tally.groups {
            result["\(tally.typeNames[key.type] ?? "?") \(key.source) \(key.day)"] = "\(group.count) \(group.sum.bitPattern)"
        }
        return result
    }

    /// The tally of the sorted runs, and the store's own.
    func tallies(_ sink: SQLiteSink, _ runs: SampleRuns, zone: String) throws -> (gathered: QualityTally, stored: QualityTally) {
        let calendar = LocalCalendar(timeZone: TimeZone(identifier: zone)!)
        let stored = try QualityTally.read(from: sink.database, calendar: calendar, days: nil)
        var gathered = QualityTally(calendar: calendar, phones: try QualityTally.phoneSources(in: sink.database))
        let merger = try SampleRunMerger(runs)
        let names = Dictionary(uniqueKeysWithValues: try SeriesReader(database: sink.database).types().map { ($0.id, $0.identifier) })
        for type in runs.typeIDs {
            // Small batches: a type's days stay open across them.
            try merger.forEachBatch(typeID: type, starting: nil, batchSize: 50) { gathered.add(type: names[type]!, $0) }
        }
        gathered.finish()
        return (gathered, stored)
    }

    func testTheTallyOfTheSeriesIsTheStoresOwn() throws {
        let (sink, runs) = try load(shuffledSamples(count: 3000))
        let (gathered, stored) = try tallies(sink, runs, zone: "Europe/Berlin")
        XCTAssertTrue(gathered.isExact)
        XCTAssertEqual(groups(gathered), groups(stored))
        XCTAssertGreaterThan(stored.groups.count, 20)
        XCTAssertEqual(gathered.worn, stored.worn)
        XCTAssertEqual(gathered.carried, stored.carried)
        XCTAssertEqual(stored.worn.count, 5, "every local day has heart rate (four UTC days from 02:00 Berlin time)")
        XCTAssertGreaterThan(stored.worn.values.max() ?? 0, 20)
        XCTAssertEqual(stored.carried.count, 5, "the iPhone's steps: carried hours")
        XCTAssertEqual(try QualityTally.phoneSources(in: sink.database).count, 1)
    }

    /// Casey (Antarctica) set its clocks back from 01:30 on 2010-03-05 to 23:00 on the 4th
    /// (+11 → +8): the 4th comes back for an hour after the 5th began, and is still summed in
    /// id order. (Newfoundland went back over midnight every autumn until 2011, for a minute.)
    func testADayThatComesBackOverMidnightIsStillExact() throws {
        let zone = "Antarctica/Casey"
        var calendar = LocalCalendar(timeZone: TimeZone(identifier: zone)!)
        let before = calendar.localDate(of: Timestamp(microseconds: 1_267_714_800_000_000 - 1))   // 15:00 UTC
        XCTAssertEqual(before.adding(days: -1), calendar.localDate(of: Timestamp(microseconds: 1_267_714_800_000_000)),
                       "this system's zone data knows the change")
        let (sink, runs) = try load(shuffledSamples(count: 3000, zone: zone, first: 1_267_574_400_000_000))
        let (gathered, stored) = try tallies(sink, runs, zone: zone)
        XCTAssertTrue(gathered.isExact)
        XCTAssertEqual(groups(gathered), groups(stored))
        XCTAssertEqual(gathered.worn, stored.worn)
    }

    /// A day that comes back after the day after it was summed (no zone does that; a store's
    /// local days could): every sample is still counted, but the tally says it is not exact,
    /// and the writer reads the store instead.
    func testADayThatComesBackLaterMakesTheTallyInexact() throws {
        var samples = shuffledSamples(count: 600)
        let late = samples.indices.max { samples[$0].start.microseconds < samples[$1].start.microseconds }!
        samples[late].localDate = samples[late].localDate.adding(days: -3)
        let (sink, runs) = try load(samples)
        let (gathered, stored) = try tallies(sink, runs, zone: "Europe/Berlin")
        XCTAssertFalse(gathered.isExact)
        XCTAssertTrue(stored.isExact)
        XCTAssertEqual(gathered.groups.values.reduce(0) { $0 + $1.count }, 600)
        XCTAssertEqual(Set(gathered.groups.keys.map { "\(gathered.typeNames[$0.type]!) \($0.source) \($0.day)" }),
                       Set(stored.groups.keys.map { "\(stored.typeNames[$0.type]!) \($0.source) \($0.day)" }))
    }

    /// Where ids and starts disagree, the sums are still added in id order, as the store's
    /// read adds them: in start order some of these sums differ in their last bits.
    func testSumsAddUpInIDOrderNotStartOrder() throws {
        let (sink, runs) = try load(shuffledSamples(count: 3000))
        let merger = try SampleRunMerger(runs)
        var differ = 0
        for type in runs.typeIDs {
            var inStartOrder: [String: Double] = [:], inIDOrder: [String: [(Int64, Double)]] = [:]
            try merger.forEachBatch(typeID: type, starting: nil, batchSize: 8192) { rows in
                for r in rows {
                    let key = "\(r.sourceID) \(r.localDay)"
                    inStartOrder[key, default: 0] += r.value ?? 0
                    inIDOrder[key, default: []].append((r.id, r.value ?? 0))
                }
            }
            for (key, values) in inIDOrder where values.sorted(by: { $0.0 < $1.0 }).reduce(0.0, { $0 + $1.1 }) != inStartOrder[key] {
                differ += 1
            }
        }
        XCTAssertGreaterThan(differ, 0, "the samples do test the order of the sums")
        _ = sink
    }
}
