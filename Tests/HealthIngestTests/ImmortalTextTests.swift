import XCTest
@testable import HealthIngest

/// The interner's never-counted Strings (`ImmortalText`): the same text, byte for byte, as an
/// ordinary String of those bytes, behaving as one in every use the import makes of it.
final class ImmortalTextTests: XCTestCase {
    /// The String's object word: its top bit marks a String that is never reference counted.
    static func isImmortal(_ s: String) -> Bool { unsafeBitCast(s, to: (UInt64, UInt64).self).1 >> 63 == 1 }

    func testMadeOnThe64BitPlatformsSwiftRunsOn() {
        #if (os(Linux) || os(macOS)) && (arch(x86_64) || arch(arm64))
        XCTAssertTrue(ImmortalText.available, "the layout check failed: every interned text is reference counted again")
        #endif
    }

    func testTheSameTextByteForByte() throws {
        try XCTSkipUnless(ImmortalText.available)
        // ASCII; not ASCII; a decomposed é, which equals the precomposed one as a String but
        // must keep its own bytes; characters of four bytes.
        for text in ["HKQuantityTypeIdentifierActiveEnergyBurned", "iPhone de Zoë\u{00A0}— Ünïcödé",
                     "Rene\u{301}’s Apple Watch Series 9", "Läufer 🏃‍♀️🏃‍♂️ und mehr"] {
            let made = try XCTUnwrap(ImmortalText.string(text))
            XCTAssertTrue(Self.isImmortal(made))
            XCTAssertEqual(made, text)
            XCTAssertEqual(Array(made.utf8), Array(text.utf8))
            XCTAssertEqual(made.count, text.count)
            XCTAssertEqual(made.hashValue, text.hashValue)
            XCTAssertEqual(made.unicodeScalars.map(\.value), text.unicodeScalars.map(\.value))
            // NUL-terminated, as `withCString` (SQLite's binding) takes it in place.
            XCTAssertEqual(made.withCString { String(cString: $0) }, text)
            XCTAssertEqual(made + "!", text + "!")
            XCTAssertEqual(String(made.dropFirst(3)), String(text.dropFirst(3)))
            // The same bytes give the same String.
            let again = try XCTUnwrap(ImmortalText.string(String(decoding: Array(text.utf8), as: UTF8.self)))
            XCTAssertTrue(unsafeBitCast(again, to: (UInt64, UInt64).self) == unsafeBitCast(made, to: (UInt64, UInt64).self))
        }
        // Equal as Strings, different bytes: two Strings.
        let composed = try XCTUnwrap(ImmortalText.string("Café Müller Scale Pro 2024"))
        let decomposed = try XCTUnwrap(ImmortalText.string("Cafe\u{301} Müller Scale Pro 2024"))
        XCTAssertNotEqual(Array(composed.utf8), Array(decomposed.utf8))
    }

    func testSmallTextsAreLeftToSwift() {
        XCTAssertNil(ImmortalText.string("count/min"))
        XCTAssertNil(ImmortalText.string("exactly15bytes!"))
    }

    /// Through the interner, as the parser uses it: a repeated long value comes back immortal
    /// and equal; a short one as a small String, which Swift
    /// keeps inline.
    func testTheInternerHandsOutImmortalTexts() throws {
        try XCTSkipUnless(ImmortalText.available)
        var interner = StringInterner()
        let bytes = Array("HKQuantityTypeIdentifierHeartRateVariabilitySDNN".utf8)
        let strings = bytes.withUnsafeBufferPointer { b in
            (0..<3).map { _ in interner.intern(ByteSpan(start: b.baseAddress!, count: b.count)) }
        }
        XCTAssertEqual(Set(strings), ["HKQuantityTypeIdentifierHeartRateVariabilitySDNN"])
        XCTAssertTrue(strings.allSatisfy(Self.isImmortal))
        let unit = Array("ms".utf8).withUnsafeBufferPointer { interner.intern(ByteSpan(start: $0.baseAddress!, count: $0.count)) }
        XCTAssertEqual(unit, "ms")
    }
}
