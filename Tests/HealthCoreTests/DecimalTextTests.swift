import XCTest
@testable import HealthCore

/// `DecimalText.double` reads most values by Clinger's fast path instead of `strtod` (issue
/// 62): it must give the very double `Double(String)` gives, bit for bit, for every decimal,
/// and take the fast path for the values exports hold.
final class DecimalTextTests: XCTestCase {
    func testEveryDecimalReadsAsTheSameDoubleAsStrtod() {
        var generator = SplitMix(seed: 62)
        var fast = 0
        for _ in 0..<50_000 {
            let text = Self.decimal(&generator)
            guard let expected = Double(text), expected.isFinite else {
                XCTAssertNil(DecimalText.double(text), text)
                continue
            }
            guard let read = DecimalText.double(text) else { return XCTFail("\(text) not read") }
            XCTAssertEqual(read.bitPattern, expected.bitPattern, text)
            var copy = text
            if copy.withUTF8({ DecimalText.exactValue($0) }) != nil { fast += 1 }
        }
        XCTAssertGreaterThan(fast, 25_000, "the fast path was hardly taken")
    }

    func testTheValuesOfAnExportTakeTheFastPath() {
        for text in ["72", "0.0123", "-12", ".5", "1.", "1.23457e+06", "86.4", "0", "-0", "+3", "98.60000", "5e-22"] {
            var copy = text
            let exact = copy.withUTF8 { DecimalText.exactValue($0) }
            XCTAssertEqual(exact?.bitPattern, Double(text)?.bitPattern, text)
        }
        XCTAssertEqual(DecimalText.double("-0")?.sign, .minus)
    }

    func testWhatIsNoDecimalIsNoNumber() {
        for text in ["", "-", ".", "e5", "1e", "1e+", "0x10", "inf", "nan", "1,5", " 1", "1 ", "1..2", "1e5.5", "1e99999"] {
            XCTAssertNil(DecimalText.double(text), text)
        }
    }

    /// Signs, leading zeros, up to 20 digits around an optional point, optional exponents:
    /// both sides of every limit of the fast path (15 digits, 1e22).
    private static func decimal(_ g: inout SplitMix) -> String {
        var s = ""
        switch g.next() % 4 { case 0: s += "-"; case 1: s += "+"; default: break }
        if g.next() % 5 == 0 { s += String(repeating: "0", count: Int(g.next() % 4)) }
        let whole = Int(g.next() % 12), fraction = Int(g.next() % 10)
        for _ in 0..<whole { s += String(g.next() % 10) }
        if fraction > 0 || g.next() % 3 == 0 {
            s += "."
            for _ in 0..<fraction { s += String(g.next() % 10) }
        }
        if whole == 0 && fraction == 0 { s += String(g.next() % 10) }
        if g.next() % 3 == 0 {
            s += g.next() % 2 == 0 ? "e" : "E"
            switch g.next() % 3 { case 0: s += "-"; case 1: s += "+"; default: break }
            s += String(g.next() % 40)
        }
        return s
    }
}

/// A small deterministic generator, so that a failure names a reproducible input.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
