import XCTest
@testable import HealthIngest

/// Attribute values as libxml2 hands them over (references undecoded) become the Strings
/// the user wrote; nothing is resolved from outside, and odd references stay as written.
final class AttributeTextTests: XCTestCase {
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
            XCTAssertEqual(withSpan(raw) { text.plain($0) }, expected, raw)
            XCTAssertEqual(withSpan(raw) { text.interned($0) }, expected, raw)
        }
    }

    func testDeviceLosesItsAddressWithOrWithoutReferences() {
        var text = AttributeText()
        let escaped = "&#60;&#60;HKDevice: 0x283ebc0a0&#62;, name:Apple Watch, model:Watch, software:9.1&#62;"
        let plain = "<<HKDevice: 0x1d2f3>, name:Apple Watch, model:Watch, software:9.1>"
        XCTAssertEqual(withSpan(escaped) { text.device($0) }, "name:Apple Watch, model:Watch, software:9.1")
        XCTAssertEqual(withSpan(plain) { text.device($0) }, "name:Apple Watch, model:Watch, software:9.1")
        XCTAssertEqual(withSpan("iPhone") { text.device($0) }, "iPhone")
    }

    func testManyDistinctValuesStayDistinct() {
        // Thousands of values through the interner (growing it many times), with and without
        // references: each comes back as written, and repeats come back equal.
        var text = AttributeText()
        for round in 0..<2 {
            for i in 0..<5000 {
                let raw = i % 3 == 0 ? "src&#38;\(i)" : "source \(i) \(String(repeating: "x", count: i % 40))"
                let expected = i % 3 == 0 ? "src&\(i)" : raw
                XCTAssertEqual(withSpan(raw) { text.interned($0) }, expected, "round \(round)")
            }
        }
    }
}

/// `repeated` (the record's type, unit, source, version and device) keeps each attribute's
/// last value: whatever the order of values, it must give what `interned` (`device`) gives.
final class AttributeTextRepeatedTests: XCTestCase {
    func testRepeatedValuesAreTheInternedOnes() {
        var text = AttributeText(), reference = AttributeText()
        let long = String(repeating: "a", count: 600), longer = long + "b"
        let values: [AttributeText.Repeated: [String]] = [
            .type: ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierStepCounts", "HKQuantityTypeIdentifierStepCoun", "Anna&#38;Ben", "Anna&Ben", long, longer, ""],
            .unit: ["count", "km", "count/min", "count", "kcal", "Cal", long],
            .sourceName: ["Anna\u{A0}s iPhone", "Anna&#8217;s Apple\u{A0}Watch", "Anna’s Apple Watch", "Health", longer, long],
            .sourceVersion: ["17.1", "17.1.1", "9.1", "10", "10.0"],
            .device: ["<<HKDevice: 0x283ebc0a0>, name:Apple Watch, model:Watch, software:9.1>",
                      "<<HKDevice: 0x283ebc0b8>, name:Apple Watch, model:Watch, software:9.1>",
                      "&#60;&#60;HKDevice: 0x1d2f3&#62;, name:iPhone, model:iPhone, software:17.1&#62;",
                      "<<HKDevice: 0x1d2f3>, name:iPhone, model:iPhone, software:17.1.1>", "iPhone", ""],
        ]
        // A fixed pseudo-random walk: runs of one value, switches, the same bytes under
        // another attribute, and values too long to remember.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let fields = AttributeText.Repeated.allCases
        for step in 0..<4000 {
            let field = fields[next(fields.count)]
            let options = values[field]! + values[fields[next(fields.count)]]!
            let raw = options[next(options.count)]
            let expected = withSpan(raw) { field == .device ? reference.device($0) : reference.interned($0) }
            let runs = 1 + next(3)
            for _ in 0..<runs {
                XCTAssertEqual(withSpan(raw) { text.repeated(field, $0) }, expected, "step \(step), \(field), \(raw)")
            }
        }
    }

    func testADeviceAddressChangeStillGivesTheDescriptionWithoutIt() {
        var text = AttributeText()
        for address in ["0x283ebc0a0", "0x283ebc0a1", "0x283ebc0a1", "0x1"] {
            let raw = "<<HKDevice: \(address)>, name:Apple Watch, model:Watch, software:9.1>"
            XCTAssertEqual(withSpan(raw) { text.repeated(.device, $0) }, "name:Apple Watch, model:Watch, software:9.1")
        }
    }
}
