import XCTest
@testable import HealthCore
@testable import HealthEmit
@testable import HealthStore

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
}
