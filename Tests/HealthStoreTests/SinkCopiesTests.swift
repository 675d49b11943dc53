import Foundation
import XCTest
@testable import HealthCore
import HealthDedupe
@testable import HealthStore
import TestSupport

/// The load stage drops exact copies however far apart (issue 35), with HealthDedupe's
/// `BoundedIdentitySet` made small: a copy read many runs later is dropped and counted, a
/// near-identical record kept, and after a kill the sink still knows what it committed.
final class SinkCopiesTests: XCTestCase {
    private func folder() throws -> String { try temporaryFolder(self).path }

    /// The sink itself, with a filter of 16 identities in memory: each record's exact copy,
    /// read after 400 other records (many runs later), is dropped and counted; a record that
    /// differs from another only in its value (a different identity) is kept.
    func testSinkDropsFarCopiesAndKeepsNearIdentical() throws {
        let dir = try folder()
        let steps = "HKQuantityTypeIdentifierStepCount"
        func sample(minute: Int, value: Int) -> Sample {
            let start = Timestamp(microseconds: 1_705_000_000_000_000 + Int64(minute) * 60_000_000)
            let record = ExportRecord(type: steps, source: SourceInfo(name: "Ann’s iPhone"), unit: "count",
                                      value: "\(value)", creationDate: start, startDate: start, endDate: start, line: minute + 1)
            return Sample(record: record, start: start, end: start, value: Double(value), unit: "count",
                          categoryValue: nil, localDate: CivilDate(daysSinceEpoch: 19_737), userEntered: false)
        }
        let originals = (0..<200).map { sample(minute: $0, value: 10) }
        let nearIdentical = (0..<200).map { sample(minute: $0, value: 11) }
        var batch = NormalizedBatch()
        batch.samples = originals + nearIdentical + originals
        var stamper = IdentityStamper()
        var stamped: NormalizedBatch?
        try stamper.handle(batch) { stamped = $0 }
        let sink = try SQLiteSink(path: dir + "/store.sqlite", recentIdentities: 16)
        try sink.write(try XCTUnwrap(stamped))
        let counts = try sink.finish()
        XCTAssertEqual(counts.samplesWritten, 400)
        XCTAssertEqual(counts.duplicatesDropped, 200)
        XCTAssertEqual(try sink.database.scalar("SELECT count(*) FROM sample_data").int, 400)
        XCTAssertEqual(try sink.database.scalar("SELECT count(*) FROM sample_data WHERE value = 11").int, 200)
        XCTAssertEqual(try sink.database.scalar("SELECT sum(copies) FROM duplicate_copies").int, 200)
    }

    /// A killed load resumed with a 16-identity table: the identities committed before the
    /// kill are read back (most of them into runs), so a copy of any of them is still dropped.
    func testResumedSinkFindsCopiesOfRecordsCommittedBeforeTheKill() throws {
        let path = try folder() + "/store.sqlite"
        func batch(_ ids: [UInt64]) -> NormalizedBatch {
            var b = NormalizedBatch()
            b.samples = ids.map { id in
                let start = Timestamp(microseconds: 1_705_000_000_000_000 + Int64(id) * 60_000_000)
                let record = ExportRecord(type: "HKQuantityTypeIdentifierStepCount", source: SourceInfo(name: "Ann’s iPhone"),
                                          unit: "count", value: "\(id)", creationDate: start, line: Int(id))
                return Sample(record: record, start: start, end: start, value: Double(id), unit: "count",
                              categoryValue: nil, localDate: CivilDate(daysSinceEpoch: 19_737), userEntered: false)
            }
            b.identities = ids
            return b
        }
        var checkpoint = SQLiteSink.Counts()
        do {
            let sink = try SQLiteSink(path: path, recentIdentities: 16)
            try sink.write(batch(Array(1...300)))
            try sink.commit(checkpoint: "one")
            checkpoint = sink.writtenCounts
            try sink.write(batch([301, 302]))   // never committed: the process is killed
        }
        let sink = try SQLiteSink(path: path, resuming: checkpoint, recentIdentities: 16)
        try sink.write(batch([301, 302] + Array(1...300) + [303]))
        let counts = try sink.finish()
        XCTAssertEqual(counts.samplesWritten, 303)
        XCTAssertEqual(counts.duplicatesDropped, 300)
        XCTAssertEqual(try sink.database.scalar("SELECT count(*) FROM sample_data").int, 303)
    }
}
