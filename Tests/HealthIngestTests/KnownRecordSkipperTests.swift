import Foundation
import XCTest
@testable import HealthCore
@testable import HealthIngest
import TestSupport

/// The byte-level skipper (`KnownRecordSkipper`, in front of libxml2) on exports made here: it drops
/// exactly the records and known workouts the SAX-level prefilter check would drop, for any chunk
/// size (on generated exports: KnownRecordSkipperExportTests).
final class KnownRecordSkipperTests: XCTestCase {
    func testConservativeCases() throws {
        let old = "2024-01-01 10:00:00 +0100", new = "2024-06-01 10:00:00 +0100"
        let dates = #"startDate="2024-01-01 09:00:00 +0100" endDate="2024-01-01 09:00:00 +0100""#
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (Record)*>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2024-06-02 10:00:00 +0100"/>
             <Record type="T" sourceName="A &amp; B" creationDate="\(old)" \(dates) value="1"/>
             <Record type="T" sourceName="W" creationDate="\(old)" \(dates) value="2">
              <MetadataEntry key="k" value="v &lt; w"/>
              <HeartRateVariabilityMetadataList>
               <InstantaneousBeatsPerMinute bpm="60" time="9:00:00.00 AM"/>
              </HeartRateVariabilityMetadataList>
             </Record>
             <Record type='T' sourceName='W' creationDate='\(old)' \(dates) value='3'/>
             <Record
               type="T" sourceName="W"
               creationDate="\(old)" \(dates) value="4"/>
             <Record type="T" sourceName="W\tX" creationDate="\(old)" \(dates) value="5"/>
             <Record type="T" source="W" creationDate="\(old)" \(dates) value="6"/>
             <Record type="T" sourceName="W" creationDate="\(new)" \(dates) value="7"/>
             <Record type="T" sourceName="W" \(dates) value="8"/>
             <Record type="T" sourceName="W" creationDate="\(old)" \(dates) value="9" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch&gt;" HKMeta="&#38;&#x26;"></Record>
             <Correlation type="C" sourceName="W" creationDate="\(old)" \(dates)>
              <MetadataEntry key="k" value="v"/>
              <Record type="T" sourceName="W" creationDate="\(old)" \(dates) value="10"/>
             </Correlation>
             <Workout workoutActivityType="Run" sourceName="W" creationDate="\(old)" \(dates)>
              <WorkoutEvent type="Pause" date="2024-01-01 09:00:00 +0100"/>
             </Workout>
             <Record type="T" sourceName="W" creationDate="\(old)" \(dates) value="11"/>
             <!-- a comment <Record type="T" sourceName="W" creationDate="\(old)"/> -->
             <Record type="T" sourceName="W" creationDate="\(old)" \(dates) value="12"/>
             <Record type="T" sourceName="W" creationDate="\(new)" \(dates) value="13"/>
            </HealthData>

            """
        let path = try write(xml, to: "export.xml", in: try temporaryFolder(self))
        let cutoff = try Self.instant("2024-03-01 00:00:00 +0100")
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": cutoff, "T\u{1}A & B": cutoff, "T\u{1}W\tX": cutoff])
        let off = try parse(path, prefilter, skipper: false, batchSize: 1)
        XCTAssertEqual(off.items.filter { $0.hasPrefix("record") }.map { $0.split(separator: " ").dropLast(2).last! }, ["5", "7", "8", "13"])
        XCTAssertTrue(off.items.contains { $0.hasPrefix("correlation") && $0.contains(" 1: ") && $0.contains(" 10 ") },
                      "the correlation keeps its member record")
        XCTAssertEqual(off.skipped, 8)
        let bytes = Array(xml.utf8)
        for chunk in [1, 2, 3, 5, 7, 13, 64, 4096] {
            let (output, skipper, passed) = skip(bytes, prefilter, chunk: chunk)
            let text = String(decoding: output, as: UTF8.self)
            for value in ["2", "4", "6", "9", "11"] { XCTAssertFalse(text.contains("value=\"\(value)\""), value) }
            XCTAssertFalse(text.contains("value='3'"))
            for value in ["1", "5", "7", "8", "10", "12", "13"] { XCTAssertTrue(text.contains("value=\"\(value)\""), value) }
            XCTAssertEqual(text.split(separator: "\n", omittingEmptySubsequences: false).count,
                           xml.split(separator: "\n", omittingEmptySubsequences: false).count)
            XCTAssertEqual(skipper.recordsSkipped, 6)
            XCTAssertEqual(skipper.dropped(before: Int64(passed) + 1).bytes, Int64(bytes.count - passed))
            assertSame(try parse(path, prefilter, skipper: true, chunkSize: chunk, batchSize: 1), off, "chunk size \(chunk)")
        }
    }

    /// The skipper runs before the sanitizer: a known record it drops is never sanitized, so one
    /// holding a byte the sanitizer would repair (a control byte, broken UTF-8) is passed on for
    /// the sanitizer and the SAX-level check; well-formed UTF-8 is dropped as before. Results,
    /// repairs counted among them, equal those of a run without it.
    func testBytesTheSanitizerRepairsAreLeftToIt() throws {
        let old = "2024-01-01 10:00:00 +0100"
        let dates = #"startDate="2024-01-01 09:00:00 +0100" endDate="2024-01-01 09:00:00 +0100""#
        func record(_ value: String, _ extra: [UInt8] = []) -> [UInt8] {
            Array(#" <Record type="T" sourceName="Alex’s Watch" creationDate="\#(old)" \#(dates) note="a"#.utf8) + extra
                + Array(#"b" value="\#(value)"/>"#.utf8) + [0x0A]
        }
        var bytes = Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (Record)*>
            <!ATTLIST Record type CDATA #REQUIRED>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2024-06-02 10:00:00 +0100"/>

            """.utf8)
        bytes += record("1") + record("2", [0x0B]) + record("3", [0xFF]) + record("4", [0xE2, 0x80]) + record("5", [0xED, 0xA0, 0x80])
            + record("6", [0xC3, 0xA9]) + record("7", [0x01, 0x1F])
        bytes += Array(#" <Record type="T" sourceName="Alex’s Watch" creationDate="\#(old)" \#(dates) value="8">"#.utf8)
            + Array(#"<MetadataEntry key="k" value="v"#.utf8) + [0x0B] + Array(#""/>"#.utf8) + [0x0C]
            + Array("</Record>\n".utf8) + record("9")
        bytes += Array("</HealthData>\n".utf8)
        let path = try temporaryFolder(self).appendingPathComponent("export.xml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let cutoff = try Self.instant("2024-03-01 00:00:00 +0100")
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}Alex’s Watch": cutoff])
        let off = try parse(path, prefilter, skipper: false, batchSize: 1)
        XCTAssertGreaterThan(off.summary.repairedBytes, 0)
        for chunk in [1, 2, 5, 13, 64, 4096] {
            let (output, skipper, _) = skip(bytes, prefilter, chunk: chunk)
            let text = String(decoding: output, as: UTF8.self)
            // Dropped by bytes: the plain records and the one with valid UTF-8; the others
            // passed, and skipping goes on after them.
            for value in ["1", "6", "9"] { XCTAssertFalse(text.contains("value=\"\(value)\""), "\(value), chunk \(chunk)") }
            for value in ["2", "3", "4", "5", "7", "8"] {
                XCTAssertTrue(text.contains("value=\"\(value)\""), "\(value), chunk \(chunk)")
            }
            XCTAssertEqual(skipper.recordsSkipped, 3, "chunk \(chunk)")
            assertSame(try parse(path, prefilter, skipper: true, chunkSize: chunk, batchSize: 1), off, "chunk size \(chunk)")
        }
    }

    /// An export declaring another encoding than UTF-8 is left to the SAX-level check.
    func testOtherEncodingIsPassedOn() throws {
        let old = "2024-01-01 10:00:00 +0100"
        let cutoff = try Self.instant("2024-03-01 00:00:00 +0100")
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": cutoff])
        let folder = try temporaryFolder(self)
        for (k, declaration) in [#"<?xml version="1.0" encoding="ISO-8859-1"?>"#, #"<?xml version='1.0' encoding='utf-8'?>"#,
                                 #"<?xml version="1.0"?>"#].enumerated() {
            let xml = "\(declaration)\n<HealthData>\n <Record type=\"T\" sourceName=\"W\" creationDate=\"\(old)\"/>\n"
                + " <Record type=\"T\" sourceName=\"V\" creationDate=\"\(old)\"/>\n</HealthData>\n"
            let path = try write(xml, to: "e\(k).xml", in: folder)
            XCTAssertEqual(skip(Array(xml.utf8), prefilter, chunk: 7).skipper.recordsSkipped, k == 0 ? 0 : 1, declaration)
            assertSame(try parse(path, prefilter, skipper: true, chunkSize: 7, batchSize: 1),
                       try parse(path, prefilter, skipper: false, batchSize: 1), declaration)
        }
    }

    /// A known record that is not well-formed fails the import with the skipper as without it.
    func testMalformedKnownRecordsStillFail() throws {
        let old = "2024-01-01 10:00:00 +0100"
        let cutoff = try Self.instant("2024-03-01 00:00:00 +0100")
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": cutoff])
        let bad = [
            #"<Record type="T" sourceName="W" creationDate="\#(old)" device="&bogus;"/>"#,
            #"<Record type="T" sourceName="W" creationDate="\#(old)" value="1" value="2"/>"#,
            #"<Record type="T" sourceName="W" creationDate="\#(old)"><MetadataEntry key="k"></Record>"#,
            #"<Record type="T" sourceName="W" creationDate="\#(old)" value="a<b"/>"#,
            #"<Record type="T" sourceName="W" creationDate="\#(old)"value="1"/>"#,
            "<Record type=\"T\" sourceName=\"W\" creationDate=\"\(old)\" value=\"abcdefghij\u{FFFE}\"/>",
            #"<Record type="T" sourceName="W" creationDate="\#(old)" value="&#0;"/>"#,
        ]
        let folder = try temporaryFolder(self)
        for (k, record) in bad.enumerated() {
            let xml = "<HealthData>\n <Record type=\"T\" sourceName=\"W\" creationDate=\"\(old)\"/>\n \(record)\n</HealthData>\n"
            let path = try write(xml, to: "bad\(k).xml", in: folder)
            XCTAssertThrowsError(try parse(path, prefilter, skipper: false), record)
            // The skipper drops the first record and leaves the bad one to libxml2.
            XCTAssertEqual(skip(Array(xml.utf8), prefilter, chunk: 5).skipper.recordsSkipped, 1, record)
            for chunk in [3, 4096] {
                XCTAssertThrowsError(try parse(path, prefilter, skipper: true, chunkSize: chunk), record)
            }
        }
    }
}

extension KnownRecordSkipperTests {
    /// A record whose start tag has the layout of the one before (the same bytes between its
    /// values) and whose content is the same bytes is checked without reading names again:
    /// its values are still checked as strictly, and a line break in a value is still kept.
    func testARecordLikeTheOneBeforeIsCheckedAsStrictly() throws {
        let old = "2024-01-01 10:00:00 +0100"
        let cutoff = try Self.instant("2024-03-01 00:00:00 +0100")
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": cutoff])
        func record(_ value: String, content: Bool) -> String {
            let start = #"<Record type="T" sourceName="W" creationDate="\#(old)" device="&lt;&lt;HKDevice: 0x1&gt;&gt;" value=""#
                + value + "\""
            return content ? start + #"><MetadataEntry key="k" value="v"/></Record>"# : start + "/>"
        }
        let folder = try temporaryFolder(self)
        for content in [false, true] {
            let good = (1...3).map { " " + record("\($0)", content: content) }.joined(separator: "\n")
            for (k, bad) in ["a<b", "&bogus;", "&#0;", "ab\u{FFFE}", "&lt"].enumerated() {
                let xml = "<HealthData>\n\(good)\n \(record(bad, content: content))\n</HealthData>\n"
                let path = try write(xml, to: "bad\(k).xml", in: folder)
                XCTAssertThrowsError(try parse(path, prefilter, skipper: false), bad)
                XCTAssertEqual(skip(Array(xml.utf8), prefilter, chunk: 4096).skipper.recordsSkipped, 3, bad)
                for chunk in [7, 4096] { XCTAssertThrowsError(try parse(path, prefilter, skipper: true, chunkSize: chunk), bad) }
            }
            // A value with a line break: dropped, its line break kept (libxml2's line numbers).
            let xml = "<HealthData>\n\(good)\n \(record("a\nb", content: content))\n \(record("4", content: content))\n</HealthData>\n"
            let (output, skipper, _) = skip(Array(xml.utf8), prefilter, chunk: 4096)
            XCTAssertEqual(skipper.recordsSkipped, 5)
            XCTAssertEqual(output.filter { $0 == 0x0A }.count, xml.utf8.filter { $0 == 0x0A }.count)
            let path = try write(xml, to: "breaks.xml", in: folder)
            assertSame(try parse(path, prefilter, skipper: true, chunkSize: 7, batchSize: 1),
                       try parse(path, prefilter, skipper: false, batchSize: 1), "line break in a value")
        }
    }
}


extension KnownRecordSkipperTests {
    /// The instant of an export date (parsed from a buffer that outlives the parse: a string
    /// literal passed as a C string lives only for the call that makes the pointer).
    static func instant(_ text: String) throws -> Int64 {
        var text = text
        return try text.withUTF8 { bytes in
            try XCTUnwrap(DateParser.parse(ByteSpan(start: bytes.baseAddress!, count: bytes.count))).timestamp.microseconds
        }
    }
}

/// The skipper's work shared by two threads (`SkippingOnTwoThreads`: a second part of each
/// chunk filtered on the consumer's thread, from the top level) passes on the bytes one
/// skipper passes, and logs the same drops — also where the guess that a part starts at the
/// top level is wrong (a correlation's member record indented as a top-level one).
final class SkippingOnTwoThreadsTests: XCTestCase {
    func testTwoThreadsPassAndLogWhatOneSkipperDoes() throws {
        let old = "2024-01-01 10:00:00 +0100", new = "2024-06-01 10:00:00 +0100"
        let dates = #"startDate="2024-01-01 09:00:00 +0100" endDate="2024-01-01 09:00:00 +0100""#
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        for k in 0..<400 {
            let created = k % 5 == 0 ? new : old
            switch k % 23 {
            case 7:   // a member record indented like a top-level one: a wrong guess there
                xml += " <Correlation type=\"C\" sourceName=\"W\" creationDate=\"\(old)\" \(dates)>\n"
                    + " <Record type=\"T\" sourceName=\"W\" creationDate=\"\(old)\" \(dates) value=\"m\(k)\"/>\n </Correlation>\n"
            case 11:  // a known record with children, over several lines
                xml += " <Record type=\"T\" sourceName=\"W\" creationDate=\"\(created)\" \(dates) value=\"\(k)\">\n"
                    + "  <MetadataEntry key=\"k\" value=\"v\"/>\n </Record>\n"
            default:
                xml += " <Record type=\"T\" sourceName=\"W\" creationDate=\"\(created)\" \(dates) value=\"\(k)\"/>\n"
            }
        }
        xml += "</HealthData>\n"
        let bytes = Array(xml.utf8)
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": try KnownRecordSkipperTests.instant("2024-03-01 00:00:00 +0100")])
        var (takenOver, voided) = (0, 0)
        for chunk in [97, 300, 1000, 4096] {
            let (expected, one) = KnownRecordSkipperTests.skipperOutput(bytes, prefilter, chunk: chunk)

            let two = SkippingOnTwoThreads(prefilter: prefilter, startingInBody: false)
            let source = FixedBytes(bytes)
            var passed: [UInt8] = []
            try ReadAhead.stream(chunkSize: chunk, filter: two, fill: { source.read(into: $0) },
                                 progress: { _ in }, consume: { passed += $0 })
            XCTAssertEqual(passed, expected, "chunk \(chunk)")
            XCTAssertEqual(two.log.totalRecords, one.recordsSkipped, "chunk \(chunk)")
            XCTAssertEqual(two.log.totalBytes, one.bytesSkipped, "chunk \(chunk)")
            // Where the parser asks: just after each top-level element passed on.
            let ends = topLevelEnds(passed)
            XCTAssertGreaterThan(ends.count, 50)
            for offset in ends {
                XCTAssertEqual(one.dropped(before: offset), two.log.before(offset), "chunk \(chunk), offset \(offset)")
            }
            takenOver += two.partsTakenOver
            voided += two.partsVoided
        }
        XCTAssertGreaterThan(takenOver, 10, "second parts filtered on the consumer's thread")
        XCTAssertGreaterThan(voided, 0, "a wrong guess, caught")
    }
}

/// Offsets just after each top-level element of `xml` (elements, no comments or CDATA).
private func topLevelEnds(_ xml: [UInt8]) -> [Int64] {
    var ends: [Int64] = []
    var depth = 0, i = 0
    var quote: UInt8? = nil
    var inTag = false, closing = false
    while i < xml.count {
        let b = xml[i]
        if let q = quote {
            if b == q { quote = nil }
        } else if inTag {
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                inTag = false
                let selfClosing = xml[i - 1] == UInt8(ascii: "/")
                if closing { depth -= 1 } else if !selfClosing { depth += 1 }
                // Depth 1: inside the root, so an element of the root's just ended.
                if (closing || selfClosing) && depth == 1 { ends.append(Int64(i + 1)) }
            }
        } else if b == UInt8(ascii: "<"), i + 1 < xml.count, xml[i + 1] != UInt8(ascii: "?") {
            inTag = true
            closing = xml[i + 1] == UInt8(ascii: "/")
        }
        i += 1
    }
    return ends
}

/// Bytes read by the read thread, a chunk at a time.
private final class FixedBytes: @unchecked Sendable {
    let bytes: [UInt8]
    private var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, progress: Int64) {
        let n = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        offset += n
        return (n, Int64(offset))
    }
}

extension KnownRecordSkipperTests {
    /// The skipper's own output (no sanitizer after it) for `bytes` fed in chunks of `chunk`,
    /// and the skipper.
    static func skipperOutput(_ bytes: [UInt8], _ prefilter: SkipperTestPrefilter, chunk: Int)
        -> (output: [UInt8], skipper: KnownRecordSkipper) {
        let skipper = KnownRecordSkipper(prefilter: prefilter, startingInBody: false)
        var output: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(chunk, bytes.count - i)
            output += bytes[i..<(i + n)].withUnsafeBytes { Array(skipper.filter(copying: $0)) }
            i += n
        }
        output += Array(skipper.finish())
        return (output, skipper)
    }

    /// Constructs no generated export holds, each step of the skipper's state machine that
    /// meets them pinned byte for byte, for any chunk size: a comment in the prolog is read
    /// past; anything else unexpected in the prolog, inside a passed element or at the top
    /// level stops skipping there; nested passed elements end in turn; a known record on
    /// CRLF lines leaves its `\r\n`s; a prolog or a known record longer than the skipper
    /// holds is passed on. In each text `%D` is a known record the skipper drops, `%K` one
    /// it passes on.
    func testRareConstructsArePassedOrDroppedAsPinned() throws {
        let old = "2024-01-01 10:00:00 +0100"
        let known = #"<Record type="T" sourceName="W" creationDate="\#(old)" value="1"/>"#
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": try Self.instant("2024-03-01 00:00:00 +0100")])
        let multiLine = "<Record\r\n  type=\"T\" sourceName=\"W\" creationDate=\"\(old)\">\r\n  <MetadataEntry key=\"k\" value=\"v\"/>\r\n</Record>"
        let cases: [(text: String, wellFormed: Bool)] = [
            ("<?xml version=\"1.0\"?>\n<!-- a comment -->\n<HealthData>\n %D\n %D\n</HealthData>\n", true),
            ("<![CDATA[x]]>\n<HealthData>\n %K\n</HealthData>\n", false),
            ("< HealthData>\n %K\n</HealthData>\n", false),
            ("<HealthData =\"x\">\n %K\n</HealthData>\n", false),
            ("<Health>\n %K\n</Health>\n", false),
            ("<HealthData/>\n %K\n", false),
            ("<HealthData>\n %D\n <Correlation type=\"C\">\n  <!-- c -->\n  %K\n </Correlation>\n %K\n</HealthData>\n", true),
            ("<HealthData>\n %D\n <Correlation type=\"C\">\n  <MetadataEntry =\"x\"/>\n </Correlation>\n %K\n</HealthData>\n", false),
            ("<HealthData>\n %D\n <ExportDate =\"x\"/>\n %K\n</HealthData>\n", false),
            ("<HealthData>\n <Correlation type=\"C\">\n  <A>\n   <B/>\n  </A>\n </Correlation>\n %D\n</HealthData>\n", true),
            ("<HealthData>\r\n %D\r\n %M\r\n %D\r\n</HealthData>\r\n", true),
        ]
        let folder = try temporaryFolder(self)
        for (k, (text, wellFormed)) in cases.enumerated() {
            let input = text.replacingOccurrences(of: "%D", with: known).replacingOccurrences(of: "%K", with: known)
                .replacingOccurrences(of: "%M", with: multiLine)
            let expected = text.replacingOccurrences(of: "%D", with: "").replacingOccurrences(of: "%K", with: known)
                .replacingOccurrences(of: "%M", with: "\r\n\r\n\r\n")
            let dropped = text.components(separatedBy: "%D").count - 1 + text.components(separatedBy: "%M").count - 1
            for chunk in [1, 2, 3, 7, 64, 4096] {
                let (output, skipper) = Self.skipperOutput(Array(input.utf8), prefilter, chunk: chunk)
                XCTAssertEqual(String(decoding: output, as: UTF8.self), expected, "case \(k), chunk \(chunk)")
                XCTAssertEqual(skipper.recordsSkipped, dropped, "case \(k), chunk \(chunk)")
            }
            if wellFormed {
                let path = try write(input, to: "rare\(k).xml", in: folder)
                assertSame(try parse(path, prefilter, skipper: true, chunkSize: 7, batchSize: 1),
                           try parse(path, prefilter, skipper: false, batchSize: 1), "case \(k)")
            }
        }
        // Cut by a chunk's end past the most the skipper holds (`maxHeld`): a prolog, and a
        // known record, are passed on and skipping stops.
        let long = [UInt8](repeating: 0x20, count: KnownRecordSkipper.maxHeld + 2048)
        for (before, after, dropped) in [("<?xml version=\"1.0\"?>\n<!--", "-->\n<HealthData>\n %K\n</HealthData>\n", 0),
                                         ("<HealthData>\n %D\n <Record type=\"T\" sourceName=\"W\" creationDate=\"\(old)\">",
                                          "</Record>\n %K\n</HealthData>\n", 1)] {
            func bytes(_ text: String, dropping: Bool) -> [UInt8] {
                Array(text.replacingOccurrences(of: "%D", with: dropping ? "" : known).replacingOccurrences(of: "%K", with: known).utf8)
            }
            let input = bytes(before, dropping: false) + long + bytes(after, dropping: false)
            let (output, skipper) = Self.skipperOutput(input, prefilter, chunk: KnownRecordSkipper.maxHeld + 1024)
            XCTAssertTrue(output == bytes(before, dropping: true) + long + bytes(after, dropping: true), "\(dropped) dropped")
            XCTAssertEqual(skipper.recordsSkipped, dropped)
        }
    }
}
