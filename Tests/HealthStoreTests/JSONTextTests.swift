import XCTest
@testable import HealthCore
@testable import HealthDedupe
@testable import HealthEmit
@testable import HealthStore
import TestSupport

final class JSONTextTests: XCTestCase {
    func testMetadataObjectEscapesAndKeepsRepeatedKeys() throws {
        let text = try XCTUnwrap(JSONText.object([
            MetadataEntry(key: "HKWeatherTemperature", value: "56 degF"),
            MetadataEntry(key: "note", value: "say \"hi\"\\\n\u{1}"),
            MetadataEntry(key: "HKWeatherTemperature", value: "57 degF"),
        ]))
        XCTAssertEqual(text, #"{"HKWeatherTemperature":["56 degF","57 degF"],"note":"say \"hi\"\\\n\u0001"}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        XCTAssertEqual(parsed?["note"] as? String, "say \"hi\"\\\n\u{1}")
        XCTAssertNil(JSONText.object([]))
        // Plain text (short, long, non-ASCII) takes the copy-in-one-piece path: as it is.
        XCTAssertEqual(JSONText.object([MetadataEntry(key: "HKMetadataKeyDevicePlacementSide", value: "Café ☕️ 1"),
                                        MetadataEntry(key: "a", value: "")]),
                       #"{"HKMetadataKeyDevicePlacementSide":"Café ☕️ 1","a":""}"#)
        XCTAssertEqual(JSONText.quoted("tab\there, quote\" at the end of a long string\\"),
                       #""tab\there, quote\" at the end of a long string\\""#)
    }

    /// The sink writes a sample's metadata JSON again only when it differs from the last
    /// sample's: each row must still hold its own, whatever came before it (the same entries,
    /// none, other values, a repeated key, the same entries in another array).
    func testEachStoredSampleHoldsItsOwnMetadata() throws {
        let motion = [MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "0")]
        let sequence: [[MetadataEntry]] = [
            [], motion, motion, [], [], motion.map { MetadataEntry(key: $0.key, value: "1") }, motion,
            [MetadataEntry(key: "HKWeatherTemperature", value: "56 degF"), MetadataEntry(key: "HKWeatherTemperature", value: "57 degF")],
            [MetadataEntry(key: "HKWeatherTemperature", value: "56 degF")], [],
            [MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: String("0"))],
        ]
        var batch = NormalizedBatch()
        batch.samples = sequence.enumerated().map { n, metadata in
            let start = Timestamp(microseconds: 1_705_000_000_000_000 + Int64(n) * 60_000_000)
            let record = ExportRecord(type: "HKQuantityTypeIdentifierHeartRate", source: SourceInfo(name: "Watch"),
                                      unit: "count/min", value: "60", creationDate: start, startDate: start,
                                      endDate: start, metadata: metadata, line: n + 1)
            return Sample(record: record, start: start, end: start, value: 60, unit: "count/min", categoryValue: nil,
                          localDate: CivilDate(daysSinceEpoch: 19_737), userEntered: false)
        }
        var stamper = IdentityStamper()
        var stamped: NormalizedBatch?
        try stamper.handle(batch) { stamped = $0 }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("json-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sink = try SQLiteSink(path: folder + "/store.sqlite")
        try sink.write(try XCTUnwrap(stamped))
        _ = try sink.finish()
        let stored = try sink.database.rows("SELECT line, metadata FROM sample_data ORDER BY line")
        XCTAssertEqual(stored.count, sequence.count)
        for row in stored {
            let line = try XCTUnwrap(row[0].int)
            XCTAssertEqual(row[1].string, JSONText.object(sequence[Int(line) - 1]), "line \(line)")
        }
    }
}
