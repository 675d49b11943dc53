import XCTest
@testable import HealthIngest

/// Issue 49: a `clinical-records/` file is kept as the provider sent it, on one line.
final class ClinicalJSONTests: XCTestCase {
    private func resource(_ text: String) throws -> (json: String, type: String) {
        let (json, type) = try ClinicalJSON.resource(Array(text.utf8))
        return (String(decoding: json, as: UTF8.self), type)
    }

    private func assertUnreadable(_ bytes: [UInt8], saying reason: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try ClinicalJSON.resource(bytes), file: file, line: line) { error in
            XCTAssertEqual((error as? UnreadableExportFile)?.reason.contains(reason), true, "\(error)", file: file, line: line)
        }
    }

    func testWhitespaceBetweenTokensGoesAndEveryStringStaysByteForByte() throws {
        let text = "\u{FEFF}{\r\n  \"resourceType\" : \"Observation\",\r\n\t\"note\": [ { \"text\": \"a \\\" b\\\\\" } ],\n"
            + "  \"code\": {\"text\": \"Glucose  µmol {x: [1, 2]}\"},\n  \"valueQuantity\": { \"value\": 5.40 }\n}\n"
        let (json, type) = try resource(text)
        XCTAssertEqual(type, "Observation")
        XCTAssertEqual(json, #"{"resourceType":"Observation","note":[{"text":"a \" b\\"}],"code":{"text":"Glucose  µmol {x: [1, 2]}"},"valueQuantity":{"value":5.40}}"#)
        XCTAssertFalse(json.contains("\n"), "one line")
    }

    func testWhatIsNotOneFHIRResourceInJSONIsUnreadable() {
        assertUnreadable(Array(#"{"resourceType": "Observation", "status": "fin"#.utf8), saying: "not JSON")
        assertUnreadable(Array(#"[{"resourceType": "Observation"}]"#.utf8), saying: "not a JSON object")
        assertUnreadable(Array(#"{"status": "final"}"#.utf8), saying: "no resourceType")
        assertUnreadable(Array(#"{"resourceType": "Obs ervation"}"#.utf8), saying: "no resourceType")
        assertUnreadable(Array(#"{"resourceType": 7}"#.utf8), saying: "no resourceType")
        assertUnreadable([0xFF, 0xFE, 0x7B, 0x7D], saying: "not JSON")
        assertUnreadable([], saying: "not JSON")
    }

    func testNestingIsBoundedBeforeAnyParserSeesIt() throws {
        let depth = ClinicalJSON.maximumDepth
        func nested(_ levels: Int) -> [UInt8] {
            Array((#"{"resourceType":"Basic","x":"# + String(repeating: "[", count: levels - 1) + String(repeating: "]", count: levels - 1) + "}").utf8)
        }
        XCTAssertEqual(try ClinicalJSON.resource(nested(depth)).resourceType, "Basic")
        assertUnreadable(nested(depth + 1), saying: "nested deeper than \(depth) levels")
        // A bracket inside a string is text, not nesting.
        let inString = Array((#"{"resourceType":"Basic","x":""# + String(repeating: "[", count: 5000) + "\"}").utf8)
        XCTAssertEqual(try ClinicalJSON.resource(inString).json, inString)
        assertUnreadable(Array(repeating: UInt8(ascii: "["), count: 1_000_000), saying: "nested deeper")
    }

    /// Issue 56: a UTF-16 record was stored with its NULs and cut the R4 Bundle's line; a name
    /// given twice let a first-wins reader see an object where the check saw a string.
    func testUTF16AndANameGivenTwiceAreUnreadable() {
        let object = #"{"resourceType":"Observation","status":"final"}"#
        assertUnreadable(Array(object.data(using: .utf16)!), saying: "UTF-16")
        assertUnreadable(Array(object.data(using: .utf16LittleEndian)!), saying: "UTF-16")
        assertUnreadable(Array(#"{"resourceType":{"a":1},"resourceType":"Observation"}"#.utf8), saying: #""resourceType" twice"#)
        assertUnreadable(Array(#"{"resourceType":"Observation","code":{"text":"a","text":"b"}}"#.utf8), saying: #""text" twice"#)
        assertUnreadable(Array(#"{"resourceType":"Observation","a":"x"#.utf8) + [0] + Array(#""}"#.utf8), saying: "control character")
    }
}
