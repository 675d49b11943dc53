import XCTest
@testable import HealthEmit
@testable import HealthStore

/// A repeated text is given back as the String made before only when its bytes are the same:
/// texts of every length around the eight-byte steps, equal lengths with one byte changed,
/// and texts too long to keep.
final class RepeatedTextTests: XCTestCase {
    func testGivesTheTextOfTheBytesAndReusesOnlyRepeats() {
        var generator = SystemRandomNumberGenerator()
        var texts: [[UInt8]] = []
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 100] {
            let text = (0..<length).map { _ in UInt8.random(in: 0x61...0x7A, using: &generator) }
            texts += [text, text, text]
            for k in [0, length / 2, length - 1] where length > 0 {
                var changed = text
                changed[k] = changed[k] == 0x61 ? 0x62 : 0x61
                texts += [changed, text]
            }
        }
        texts += [Array("count/min".utf8), Array("count/min".utf8), Array("count/mio".utf8), Array("kcal".utf8)]
        var repeated = RepeatedText()
        var previous: (bytes: [UInt8], text: String)?
        for bytes in texts {
            let text = bytes.withUnsafeBytes { repeated.text($0) }
            XCTAssertEqual(Array(text.utf8), bytes)
            if let previous, previous.bytes == bytes, bytes.count > 15, bytes.count <= 64 {
                // The same String: no new one was made for a repeat (shorter ones are stored
                // inline in the String, with no storage of their own to compare).
                XCTAssertEqual(text.utf8.withContiguousStorageIfAvailable { $0.baseAddress },
                               previous.text.utf8.withContiguousStorageIfAvailable { $0.baseAddress })
            }
            previous = (bytes, text)
        }
    }
}
