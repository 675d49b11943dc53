import Foundation
import XCTest
@testable import HealthIngest

/// Issue 56: the clinical files' JSON is checked without Foundation's parser (which built every
/// object of a 32 MiB file: 2.1 GB), strictly enough that what passes reads the same everywhere.
final class StrictJSONTests: XCTestCase {
    private func reason(_ bytes: [UInt8]) -> String? {
        do {
            _ = try StrictJSON.check(bytes, maximumDepth: 100)
            return nil
        } catch {
            return error.reason
        }
    }

    private func reason(_ text: String) -> String? { reason(Array(text.utf8)) }

    func testUTF16AndUTF32AreRefusedWithTheirName() {
        let object = #"{"resourceType":"Observation"}"#
        func encoded(_ encoding: String.Encoding) -> [UInt8] { Array(object.data(using: encoding)!) }
        XCTAssertEqual(reason(encoded(.utf16LittleEndian))?.contains("UTF-16"), true)
        XCTAssertEqual(reason(encoded(.utf16BigEndian))?.contains("UTF-16"), true)
        XCTAssertEqual(reason(encoded(.utf16))?.contains("UTF-16"), true, "with a byte order mark")
        XCTAssertEqual(reason(encoded(.utf32LittleEndian))?.contains("UTF-32"), true)
        XCTAssertEqual(reason(encoded(.utf32BigEndian))?.contains("UTF-32"), true)
        XCTAssertNil(reason(object))
    }

    func testNoControlCharacterInsideAStringAndOnlyWellFormedUTF8() {
        XCTAssertEqual(reason(Array(#"{"a":"x"#.utf8) + [0] + Array(#"y"}"#.utf8))?.contains("control character (0)"), true,
                       "a NUL would cut the NDJSON line")
        XCTAssertEqual(reason("{\"a\":\"x\ny\"}")?.contains("control character"), true)
        XCTAssertNil(reason(#"{"a":"x\u0000y\ny"}"#), "escaped, they are text")
        for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF]] {
            XCTAssertEqual(reason(Array(#"{"a":""#.utf8) + bad + Array(#""}"#.utf8))?.contains("not UTF-8"), true, "\(bad)")
        }
        XCTAssertNil(reason(#"{"a":"µ € 𝄞 ü"}"#))
    }

    func testANameTwiceInAnObjectIsRefusedAfterUnescaping() {
        XCTAssertEqual(reason(#"{"resourceType":{"x":1},"resourceType":"Observation"}"#)?.contains(#""resourceType" twice"#), true)
        XCTAssertEqual(reason(#"{"resourceType":"Observation","resourceTyp\u0065":"Patient"}"#)?.contains("twice"), true)
        XCTAssertEqual(reason(#"{"resourceType":"Basic","a":[{"k":1,"j":2,"k":3}]}"#)?.contains(#""k" twice"#), true)
        XCTAssertEqual(reason(#"{"\ud834\udd1e":1,"𝄞":2}"#)?.contains("twice"), true, "a surrogate pair is its character")
        XCTAssertNil(reason(#"{"k":{"k":{"k":1}},"a":[{"k":1},{"k":2}],"K":0}"#), "the same name in other objects")
    }

    func testTheGrammarOfRFC8259() {
        for good in [#"{"a":[0,-0,1.5,-2e10,3E+2,4e-1,true,false,null,"\"\\\/\b\f\n\r\t\u00e9"]}"#, "[]", "{}", "0", #""x""#] {
            XCTAssertNil(reason(good), good)
        }
        for bad in ["", "{", #"{"a"}"#, #"{"a":1,}"#, "[1,]", "01", "1.", ".5", "1e", "-", "+1", "tru", "nul", #"{'a':1}"#,
                    #"{"a":1}x"#, #"{"a":"\x"}"#, "1e400", "-2E+999", String(repeating: "9", count: 400), #"{"a":"\u12"}"#, "{a:1}", "NaN", "[1 2]"] {
            XCTAssertNotNil(reason(bad), bad)
        }
    }

    /// What it accepts Foundation reads as the same value, and its output is its own fixed point.
    func testItsOutputIsFoundationsValueOnOneLine() throws {
        let text = "\u{FEFF}{ \"resourceType\" : \"Observation\",\n \"v\": [1, 2.50, {\"t\": \"a  b\"}], \"n\": null }\r\n"
        let checked = try StrictJSON.check(Array(text.utf8), maximumDepth: 100)
        XCTAssertEqual(String(decoding: checked.compact, as: UTF8.self), #"{"resourceType":"Observation","v":[1,2.50,{"t":"a  b"}],"n":null}"#)
        XCTAssertEqual(checked.resourceType, "Observation")
        XCTAssertTrue(checked.isObject)
        let ours = try JSONSerialization.jsonObject(with: Data(checked.compact)) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8.dropFirst(3))) as? NSDictionary
        XCTAssertEqual(ours, theirs)
        XCTAssertEqual(try StrictJSON.check(checked.compact, maximumDepth: 100).compact, checked.compact)
    }

    /// Megabytes of empty objects are one pass and one copy: the output is no larger than the
    /// input, and the scan builds nothing per value (the 32 MiB figures are in docs/RUNS.md).
    func testMegabytesOfEmptyObjectsAreOnePass() throws {
        let prefix = Array(#"{"resourceType":"Basic","x":["#.utf8)
        var bytes = prefix
        let item = Array("{},".utf8)
        while bytes.count < 2 << 20 { bytes.append(contentsOf: item) }
        bytes[bytes.count - 1] = UInt8(ascii: "]")
        bytes.append(UInt8(ascii: "}"))
        let checked = try StrictJSON.check(bytes, maximumDepth: 100)
        XCTAssertEqual(checked.compact, bytes, "nothing to compact")
        XCTAssertEqual(checked.resourceType, "Basic")
    }
}
