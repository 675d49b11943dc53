import XCTest
@testable import HealthIngest

/// Attribute values as libxml2 hands them over (references undecoded) become the Strings
/// the user wrote; nothing is resolved from outside, and odd references stay as written.
final class AttributeTextTests: XCTestCase {
    private func with<R>(_ text: String, _ body: (ByteSpan) -> R) -> R {
        Array(text.utf8).withUnsafeBufferPointer { body(ByteSpan(start: $0.baseAddress!, count: $0.count)) }
    }

    func testReferencesAreDecoded() {
        var text = AttributeText()
        let cases: [(String, String)] = [
            ("Anna&#38;Ben", "Anna&Ben"), ("a &lt; b &gt; c", "a < b > c"), ("&quot;x&apos;", "\"x'"),
            ("Max&#x2019;s Watch", "Max\u{2019}s Watch"), ("&#128512;!", "\u{1F600}!"), ("&#X41;&#65;", "AA"),
            // Not references this decoder knows: kept as written.
            ("R&D", "R&D"), ("&unknown;", "&unknown;"), ("&#;", "&#;"), ("&#xZZ;", "&#xZZ;"),
            ("&#99999999999;", "&#99999999999;"), ("&#x110000;", "&#x110000;"), ("tail &", "tail &"),
        ]
        for (raw, expected) in cases {
            XCTAssertEqual(with(raw) { text.plain($0) }, expected, raw)
            XCTAssertEqual(with(raw) { text.interned($0) }, expected, raw)
        }
    }

    func testDeviceLosesItsAddressWithOrWithoutReferences() {
        var text = AttributeText()
        let escaped = "&#60;&#60;HKDevice: 0x283ebc0a0&#62;, name:Apple Watch, model:Watch, software:9.1&#62;"
        let plain = "<<HKDevice: 0x1d2f3>, name:Apple Watch, model:Watch, software:9.1>"
        XCTAssertEqual(with(escaped) { text.device($0) }, "name:Apple Watch, model:Watch, software:9.1")
        XCTAssertEqual(with(plain) { text.device($0) }, "name:Apple Watch, model:Watch, software:9.1")
        XCTAssertEqual(with("iPhone") { text.device($0) }, "iPhone")
    }

    func testManyDistinctValuesStayDistinct() {
        // Thousands of values through the interner (growing it many times), with and without
        // references: each comes back as written, and repeats come back equal.
        var text = AttributeText()
        for round in 0..<2 {
            for i in 0..<5000 {
                let raw = i % 3 == 0 ? "src&#38;\(i)" : "source \(i) \(String(repeating: "x", count: i % 40))"
                let expected = i % 3 == 0 ? "src&\(i)" : raw
                XCTAssertEqual(with(raw) { text.interned($0) }, expected, "round \(round)")
            }
        }
    }
}
