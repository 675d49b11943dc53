import XCTest
@testable import HealthIngest
import TestSupport

/// The byte filter in front of libxml2: DOCTYPE removal (line numbers kept), forbidden
/// control bytes, invalid UTF-8, and the same output whatever the chunk boundaries.
final class SanitizerTests: XCTestCase {
    private func filter(_ input: [UInt8], chunk: Int) -> [UInt8] {
        var sanitizer = XMLSanitizer()
        var output: [UInt8] = []
        var i = 0
        var scratch = [UInt8](repeating: 0, count: chunk + XMLSanitizer.outputSlack)
        while i < input.count {
            let n = min(chunk, input.count - i)
            let written = input[i..<i + n].withUnsafeBufferPointer { src in
                scratch.withUnsafeMutableBufferPointer { sanitizer.filter(src, into: $0.baseAddress!) }
            }
            output += scratch[0..<written]
            i += n
        }
        return output + sanitizer.finish()
    }

    private let brokenDTD = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!ATTLIST VisionPrescription
      type CDATA #REQUIRED
      dateIssued CDATA #REQUIRED
    <!ELEMENT Attachment EMPTY>
    ]>
    <HealthData locale="en_US">
     <Record type="T" sourceName="Wat\u{0B}ch ü 导" value="1"/>
    </HealthData>
    """

    func testRemovesDoctypeKeepsLinesDropsControlBytes() {
        let out = String(decoding: filter(Array(brokenDTD.utf8), chunk: 1 << 20), as: UTF8.self)
        XCTAssertFalse(out.contains("DOCTYPE"))
        XCTAssertFalse(out.contains("ATTLIST"))
        XCTAssertEqual(out.split(separator: "\n", omittingEmptySubsequences: false).count,
                       brokenDTD.split(separator: "\n", omittingEmptySubsequences: false).count)
        XCTAssertTrue(out.contains("sourceName=\"Watch ü 导\""), out)
    }

    func testChunkBoundariesDoNotMatter() {
        let input = Array(brokenDTD.utf8)
        let whole = filter(input, chunk: input.count)
        for chunk in [1, 2, 3, 5, 7, 13, 64] {
            XCTAssertEqual(filter(input, chunk: chunk), whole, "chunk \(chunk)")
        }
    }

    /// The sixteen- and eight-byte fast paths against a byte-by-byte model, on random bodies
    /// where every kind of byte that needs a look falls at every offset of a block, whole and
    /// in random chunks.
    func testFastPathsMatchAByteByByteModel() {
        let pieces: [(input: [UInt8], kept: [UInt8])] = [
            (Array("a".utf8), Array("a".utf8)), (Array("Z9 =\"/".utf8), Array("Z9 =\"/".utf8)),
            (Array("&amp;".utf8), Array("&amp;".utf8)), ([0x0A], [0x0A]), ([0x09], [0x09]), ([0x0D], [0x0D]),
            ([0x0B], []), ([0x00], []), ([0x1F], []), (Array("ü".utf8), Array("ü".utf8)),
            (Array("导".utf8), Array("导".utf8)), (Array("’".utf8), Array("’".utf8)), (Array("🫀".utf8), Array("🫀".utf8)),
            ([0xFF], Array("?".utf8)), ([0x80], Array("?".utf8)), ([0x7F], [0x7F]),
        ]
        var rng = SystemRandomNumberGenerator()
        for round in 0..<200 {
            var input = Array("<HealthData>".utf8), expected = input
            for _ in 0..<Int.random(in: 0...120, using: &rng) {
                // Mostly plain text, so that whole blocks pass before a byte that needs a look:
                // single letters, and runs that fill 8-, 16- and 32-byte blocks (the byte that
                // stops one anywhere in either half of it).
                switch Int.random(in: 0..<6, using: &rng) {
                case 0:
                    let piece = pieces.randomElement(using: &rng)!
                    input += piece.input; expected += piece.kept
                case 1:
                    let run = [UInt8](repeating: UInt8(ascii: "x"), count: Int.random(in: 1...80, using: &rng))
                    input += run; expected += run
                default:
                    input += pieces[0].input; expected += pieces[0].kept
                }
            }
            XCTAssertEqual(filter(input, chunk: input.count), expected, "round \(round)")
            let chunk = Int.random(in: 1...40, using: &rng)
            XCTAssertEqual(filter(input, chunk: chunk), expected, "round \(round), chunk \(chunk)")
        }
    }

    func testInvalidUTF8BecomesQuestionMarks() {
        var input = Array("<a b=\"x".utf8)
        input += [0xFF, 0xC3, 0x28, 0xE2, 0x82]      // bad byte, bad continuation, cut sequence
        input += Array("\"/>".utf8)
        let out = filter(input, chunk: 3)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "<a b=\"x??(?\"/>")
    }

    /// Each maximal valid start of a sequence becomes one `?` and the byte that broke it is
    /// looked at anew, wherever the chunk boundaries fall (a sequence cut by a boundary used
    /// to become one `?` and the same bytes uncut one `?` each, so a source name read
    /// differently depending on where a read ended: found by `make fuzz TARGET=xml`).
    func testInvalidSequencesReadTheSameWhereverTheyAreCut() {
        let cases: [(bytes: [UInt8], text: String)] = [
            ([0xE0, 0x80, 0x80], "???"),        // overlong: E0 needs A0…BF next
            ([0xED, 0xA0, 0x80], "???"),        // a UTF-16 surrogate
            ([0xF4, 0x90, 0x80, 0x80], "????"), // past U+10FFFF
            ([0xC0, 0xAF], "??"),               // C0 is never a lead
            ([0xE2, 0x82], "?"),                // a valid start, broken by `y`
            ([0xF0, 0x9F, 0x98], "?"),
            ([0xE2, 0x82, 0xAC], "€"),
            ([0xF5, 0x80], "??"),
        ]
        for (bytes, text) in cases {
            let input = Array("<a b=\"x".utf8) + bytes + Array("y\"/>".utf8)
            let expected = "<a b=\"x\(text)y\"/>"
            for chunk in 1...input.count {
                XCTAssertEqual(String(decoding: filter(input, chunk: chunk), as: UTF8.self), expected, "\(bytes), chunk \(chunk)")
            }
        }
        // Cut at the very end of the input: the valid start left over is one `?`.
        XCTAssertEqual(String(decoding: filter(Array("<a>x".utf8) + [0xF0, 0x9F], chunk: 5), as: UTF8.self), "<a>x?")
    }

    func testParserAcceptsRepairedInput() throws {
        let dir = try temporaryFolder(self)
        let path = try write(brokenDTD, to: "export.xml", in: dir)
        let (batches, summary) = try readBatches(path)
        XCTAssertTrue(summary.removedDoctype)
        XCTAssertEqual(summary.repairedBytes, 1)
        XCTAssertEqual(batches.flatMap(\.records).map(\.source.name), ["Watch ü 导"])
    }

    /// Issue 47: the sanitizer (which removes the DOCTYPE) and the known-record skipper (which
    /// reads past it) share one rule, `XMLSyntax.DoctypeEnd`: the sanitizer removes exactly up
    /// to the end the rule finds, for an iOS 16 subset, `]` inside a subset, `] ]>` and none.
    func testTheDoctypeRuleIsOneAndTheSanitizerRemovesUpToIt() {
        let prologs = ["<!DOCTYPE HealthData [\n<!ATTLIST ExportDate\n  value CDATA #REQUIRED\n>\n<!ELEMENT Me (#PCDATA)]>\n]>",
                       "<!DOCTYPE HealthData [ <!ENTITY a \"]\"> ]>", "<!DOCTYPE HealthData [ ] ]  >", "<!DOCTYPE HealthData>"]
        for prolog in prologs {
            let head = "<?xml version=\"1.0\"?>\n", rest = "\n<HealthData locale=\"en\"/>"
            let bytes = Array(prolog.utf8)
            var rule = XMLSyntax.DoctypeEnd()
            let end = (9..<bytes.count).first { rule.ends(at: bytes[$0]) }.map { $0 + 1 }
            XCTAssertNotNil(end, prolog)
            let removed = bytes[..<(end ?? 0)].filter { $0 == 0x0A }
            let expected = Array(head.utf8) + removed + bytes[(end ?? 0)...] + Array(rest.utf8)
            for chunk in [1, 7, 4096] {
                XCTAssertEqual(String(decoding: filter(Array((head + prolog + rest).utf8), chunk: chunk), as: UTF8.self),
                               String(decoding: expected, as: UTF8.self), "\(prolog), chunks of \(chunk)")
            }
        }
        // XML 1.0's NameStartChar: `:` starts a name, for both filters.
        XCTAssertTrue(XMLSyntax.isNameStart(UInt8(ascii: ":")) && XMLSyntax.isNameStart(UInt8(ascii: "H")) && XMLSyntax.isNameStart(0xC3))
        XCTAssertFalse(XMLSyntax.isNameStart(UInt8(ascii: "1")) || XMLSyntax.isNameStart(UInt8(ascii: "-")))
    }
}
