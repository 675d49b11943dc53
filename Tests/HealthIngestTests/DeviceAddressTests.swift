import XCTest
@testable import HealthCore
@testable import HealthIngest
import TestSupport

/// The sanitizer cuts the address out of device descriptions before libxml2 parses them. The
/// device each record ends up with must be the one the handler makes of the uncut value.
final class DeviceAddressTests: XCTestCase {
    private func match(_ text: String) -> (rest: String, tail: String)? {
        let bytes = Array(text.utf8)
        guard let at = bytes.firstIndex(of: UInt8(ascii: "&")) else { return nil }
        return bytes.withUnsafeBufferPointer { buf in
            DeviceAddress.match(buf.baseAddress!, at: at, count: buf.count).map {
                (String(decoding: buf[$0.rest], as: UTF8.self), String(decoding: buf[$0.rest.upperBound..<$0.quote + 1], as: UTF8.self))
            }
        }
    }

    func testTheExportFormIsMatched() throws {
        let standard = try XCTUnwrap(match(#" device="&lt;&lt;HKDevice: 0x283a1b00&gt;, name:Apple Watch, model:Watch, software:10.3&gt;"/>"#))
        XCTAssertEqual(standard.rest, "name:Apple Watch, model:Watch, software:10.3")
        XCTAssertEqual(standard.tail, "&gt;\"")
        let references = try XCTUnwrap(match("\n device=\"&lt;&lt;HKDevice: 0xABCdef&gt;,name:Anna&#8217;s Watch&gt;&gt;\""))
        XCTAssertEqual(references.rest, "name:Anna&#8217;s Watch")
        XCTAssertEqual(try XCTUnwrap(match(#" device="&lt;&lt;HKDevice: 0x1&gt;, iPhone""#)).rest, "iPhone")
    }

    func testOtherFormsAreLeftAlone() {
        let values = [
            #"xdevice="&lt;&lt;HKDevice: 0x1&gt;, name:W&gt;""#,             // another attribute
            #" device='&lt;&lt;HKDevice: 0x1&gt;, name:W&gt;'"#,              // single quotes
            #" device="&lt;&lt;HKDevice: 0x&gt;, name:W&gt;""#,               // no address
            #" device="&lt;&lt;HKDevice: 0x12g&gt;, name:W&gt;""#,            // not hexadecimal
            #" device="&lt;&lt;HKDevice: 0x1, name:W&gt;""#,                  // no bracket after it
            #" device="&lt;&lt;HKDevice: 0x1&gt;, &amp;name&gt;""#,          // a reference first
            #" device="&lt;&lt;HKDevice: 0x1&gt;, \#tname&gt;""#,             // a tab first
            #" device="&lt;&lt;HKDevice: 0x1&gt;, name:W>&gt;""#,             // a literal `>` left at the end
            #" device="&lt;&lt;HKDevice: 0x1&gt;, name:W&#62;&gt;""#,         // a reference left at the end
            #" device="&lt;&lt;HKDevice: 0x1&gt;, name:<W&gt;""#,             // not well-formed
            #" device="&lt;&lt;HKDevice: 0x1&gt;, name:Jürgen&gt;""#,         // not ASCII
            #" device="&lt;&lt;HKDevice: 0x1&gt;, &gt;""#,                    // nothing left
            #" device="&lt;&lt;HKDevice: 0x1&gt;, name:W&gt;"#,               // no closing quote yet
            " device=\"&lt;&lt;HKDevice: 0x1&gt;, name:" + String(repeating: "W", count: 2_000) + "\"",
        ]
        for value in values { XCTAssertNil(match(value), value) }
    }

    /// Records read in chunks too small for any device value (nothing is cut) and in one
    /// chunk (the usual form is cut) must come out the same, tricky values included.
    func testRecordsAreTheSameWithAndWithoutTheCut() throws {
        let devices = [
            "&lt;&lt;HKDevice: 0x283a1b00&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, software:10.3&gt;",
            "&lt;&lt;HKDevice: 0x1&gt;,name:Anna&#8217;s Watch&gt;&gt;",
            "&lt;&lt;HKDevice: 0x2&gt;, name:W&#62;&gt;",
            "&lt;&lt;HKDevice: 0x3&gt;, &amp;name&gt;",
            "&lt;&lt;HKDevice: 0x4&gt;, name:Jürgen&gt;",
            "&lt;&lt;HKDevice: 0x5&gt;, name:W>&gt;",
            "&lt;&lt;HKDevice: 0x6&gt;, iPhone",
            "name:Plain, model:Watch",
        ]
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        for (k, device) in devices.enumerated() {
            xml += " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"S\(k)\" unit=\"count\""
                + " creationDate=\"2024-01-10 11:30:00 +0100\" startDate=\"2024-01-10 11:00:00 +0100\""
                + " endDate=\"2024-01-10 11:30:00 +0100\" value=\"\(k)\" device=\"\(device)\"/>\n"
        }
        xml += "</HealthData>\n"
        let path = try write(xml, to: "export.xml", in: try temporaryFolder(self))
        func records(chunk: Int) throws -> [ExportRecord] {
            let box = BatchBox()
            _ = try ExportReader(source: ExportSource(path: path), batchSize: 3, chunkSize: chunk).run { box.batches.append($0) }
            return box.batches.flatMap(\.records)
        }
        let uncut = try records(chunk: 7), cut = try records(chunk: 1 << 20)
        XCTAssertEqual(uncut.map(\.source.device), cut.map(\.source.device))
        XCTAssertEqual(uncut.map(\.line), cut.map(\.line))
        XCTAssertEqual(cut.map(\.source.device), [
            "name:Apple Watch, manufacturer:Apple Inc., model:Watch, software:10.3", "name:Anna\u{2019}s Watch",
            "name:W", "&name", "name:Jürgen", "name:W", "iPhone", "name:Plain, model:Watch",
        ])
        // In one chunk, the address is cut where that is safe, and only there; lines stay.
        var sanitizer = XMLSanitizer()
        let bytes = Array(xml.utf8)
        var out = [UInt8](repeating: 0, count: bytes.count + XMLSanitizer.outputSlack)
        let n = bytes.withUnsafeBufferPointer { src in out.withUnsafeMutableBufferPointer { sanitizer.filter(src, into: $0.baseAddress!) } }
        let sanitized = String(decoding: out[..<n], as: UTF8.self)
        XCTAssertFalse(sanitized.contains("0x283a1b00"), sanitized)
        XCTAssertFalse(sanitized.contains("0x1&gt;"), sanitized)
        XCTAssertTrue(sanitized.contains("0x2&gt;"), "a value that must stay whole: \(sanitized)")
        XCTAssertEqual(sanitized.filter { $0 == "\n" }.count, xml.filter { $0 == "\n" }.count)
    }

    /// Found by `make fuzz TARGET=xml`: a `device` attribute on `Me` kept its address when read
    /// in small chunks and lost it in one chunk, so the profile depended on the read's chunking.
    func testADeviceOnAnyElementIsTheSameWithAndWithoutTheCut() throws {
        let xml = "<HealthData locale=\"en_US\">\n <Me HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexMale\" "
            + "device=\"&lt;&lt;HKDevice: 0x3008d6850&gt;, name:Apple Watch, model:Watch, software:10.2&gt;\"/>\n</HealthData>\n"
        let path = try write(xml, to: "export.xml", in: try temporaryFolder(self))
        func profile(chunk: Int) throws -> [String: String]? {
            let box = BatchBox()
            _ = try ExportReader(source: ExportSource(path: path), batchSize: 3, chunkSize: chunk).run { box.batches.append($0) }
            return box.batches.compactMap(\.profile).first?.characteristics
        }
        let cut = try profile(chunk: 1 << 20)
        XCTAssertEqual(try profile(chunk: 7), cut)
        XCTAssertEqual(cut?["device"], "name:Apple Watch, model:Watch, software:10.2")
    }

    /// The sanitizer passes clean text 32, 16 and 8 bytes at a time: the `&` that starts a
    /// device value must stop each of them wherever in the block it falls.
    func testTheAddressIsCutWhereverTheDeviceFallsInABlock() {
        for pad in 0..<70 {
            let xml = "<HealthData>\n <Record sourceName=\"\(String(repeating: "x", count: pad))\" "
                + "device=\"&lt;&lt;HKDevice: 0x283a1b00&gt;, name:Apple Watch, model:Watch&gt;\" value=\"1\"/>\n</HealthData>\n"
            var sanitizer = XMLSanitizer()
            let bytes = Array(xml.utf8)
            var out = [UInt8](repeating: 0, count: bytes.count + XMLSanitizer.outputSlack)
            let n = bytes.withUnsafeBufferPointer { src in out.withUnsafeMutableBufferPointer { sanitizer.filter(src, into: $0.baseAddress!) } }
            let sanitized = String(decoding: out[..<n], as: UTF8.self)
            XCTAssertEqual(sanitized, xml.replacingOccurrences(of: "&lt;&lt;HKDevice: 0x283a1b00&gt;, name:Apple Watch, model:Watch&gt;",
                                                               with: "name:Apple Watch, model:Watch"), "pad \(pad)")
        }
    }

    /// Every cut is noted, to map parser offsets back to the file. With no resume point asked
    /// for (a nightly run skips nearly everything), the notes must still not pile up.
    func testNotesStayAboutAChunkLong() throws {
        let record = " <Record type=\"T\" sourceName=\"S\" startDate=\"2024-01-10 11:00:00 +0100\""
            + " device=\"&lt;&lt;HKDevice: 0x283a1b00&gt;, name:Apple Watch, model:Watch&gt;\"/>\n"
        let parser = try SAXPushParser(handler: SAXHandler(), fileName: "export.xml")
        let chunk = Array(("<HealthData>\n" + String(repeating: record, count: 200)).utf8)
        var most = 0
        for _ in 0..<100 {   // 20,000 records, 200 to a chunk
            try chunk.withUnsafeBytes { try parser.feed($0) }
            most = max(most, parser.sanitizerHeldNotes)
        }
        XCTAssertGreaterThan(most, 0, "the addresses are cut and noted")
        XCTAssertLessThanOrEqual(most, 2 * 200 * 2, "notes of about two chunks at most")
    }
}
