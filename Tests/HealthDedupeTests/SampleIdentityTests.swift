import XCTest
@testable import HealthCore  // Sample's memberwise initializer is internal
@testable import HealthDedupe

/// A sample's identity: equal records hash equal wherever they are; any attribute or metadata
/// entry changed gives another identity, through the stamper's cached prefix or not.
final class SampleIdentityTests: XCTestCase {
    static let start = Timestamp(microseconds: 1_715_000_000_000_000)

    func record(type: String = "HKQuantityTypeIdentifierStepCount",
                source: SourceInfo = SourceInfo(name: "Watch", version: "10.4", device: "<<HKDevice>>, name:Apple Watch"),
                unit: String? = "count", value: String? = "12",
                creation: Timestamp? = start, startDate: Timestamp? = start,
                endDate: Timestamp? = Timestamp(microseconds: start.microseconds + 60_000_000),
                metadata: [MetadataEntry] = [MetadataEntry(key: "HKWasUserEntered", value: "0")],
                heartbeats: [HeartbeatSample] = [], line: Int = 1) -> ExportRecord {
        ExportRecord(type: type, source: source, unit: unit, value: value, creationDate: creation, startDate: startDate,
                     endDate: endDate, metadata: metadata, heartbeats: heartbeats, line: line)
    }

    func stamp(_ records: [ExportRecord]) throws -> [UInt64] {
        var batch = NormalizedBatch()
        batch.samples = records.map { r in
            Sample(record: r, start: r.startDate ?? Self.start, end: r.endDate ?? Self.start, value: nil, unit: r.unit,
                   categoryValue: nil, localDate: CivilDate(daysSinceEpoch: 19_850), userEntered: false)
        }
        var stamper = IdentityStamper()
        var out: [UInt64] = []
        try stamper.handle(batch) { out = $0.identities }
        XCTAssertEqual(out.count, records.count)
        return out
    }

    /// The file line is where a copy sits, not what it is: copies on other lines hash equal.
    func testEqualRecordsOnOtherLinesHaveOneIdentity() throws {
        let ids = try stamp([record(line: 1), record(line: 900), record(line: 5_000_000)])
        XCTAssertEqual(Set(ids).count, 1)
    }

    /// Every attribute and metadata entry is part of the identity: each variant differs from
    /// the original and from every other variant.
    func testEachChangedAttributeGivesAnotherIdentity() throws {
        let later = Timestamp(microseconds: Self.start.microseconds + 1)
        let variants: [(String, ExportRecord)] = [
            ("original", record()),
            ("type", record(type: "HKQuantityTypeIdentifierDistanceWalkingRunning")),
            ("source name", record(source: SourceInfo(name: "iPhone", version: "10.4", device: "<<HKDevice>>, name:Apple Watch"))),
            ("source version", record(source: SourceInfo(name: "Watch", version: "10.5", device: "<<HKDevice>>, name:Apple Watch"))),
            ("device", record(source: SourceInfo(name: "Watch", version: "10.4", device: nil))),
            ("unit", record(unit: "km")),
            ("no unit", record(unit: nil)),
            ("value", record(value: "13")),
            ("creation", record(creation: later)),
            ("no creation", record(creation: nil)),
            ("start", record(startDate: later)),
            ("end", record(endDate: later)),
            ("metadata value", record(metadata: [MetadataEntry(key: "HKWasUserEntered", value: "1")])),
            ("metadata key", record(metadata: [MetadataEntry(key: "HKWasUserEnteredX", value: "0")])),
            ("no metadata", record(metadata: [])),
            ("one more entry", record(metadata: [MetadataEntry(key: "HKWasUserEntered", value: "0"),
                                                 MetadataEntry(key: "HKTimeZone", value: "Europe/Berlin")])),
            ("heartbeats", record(heartbeats: [HeartbeatSample(time: Self.start, bpm: 60)])),
        ]
        let ids = try stamp(variants.map(\.1))
        var seen: [UInt64: String] = [:]
        for (id, (name, _)) in zip(ids, variants) {
            XCTAssertNil(seen[id], "\(name) hashes like \(seen[id] ?? "")")
            seen[id] = name
        }
    }

    /// The key and value are hashed apart: moving a character across the boundary is another
    /// entry, not the same bytes.
    func testMetadataKeyAndValueAreSeparated() throws {
        let ids = try stamp([record(metadata: [MetadataEntry(key: "ab", value: "c")]),
                             record(metadata: [MetadataEntry(key: "a", value: "bc")])])
        XCTAssertNotEqual(ids[0], ids[1])
    }

    /// The stamper reuses the type-and-source hash of the previous record: interleaved runs of
    /// two sources must give each record the identity it has alone.
    func testTheCachedPrefixNeverLeaksAcrossSources() throws {
        let watch = record(), phone = record(source: SourceInfo(name: "iPhone"))
        let interleaved = try stamp([watch, phone, watch, watch, phone])
        let alone = try stamp([watch]) + stamp([phone])
        XCTAssertEqual(interleaved, [alone[0], alone[1], alone[0], alone[0], alone[1]])
        var h = SampleIdentity.prefix(phone)
        XCTAssertEqual(SampleIdentity.completing(&h, phone), alone[1])
    }
}
