import XCTest
import HealthCore
@testable import HealthIngest
import TestSupport

/// The scan for an export's first `HKTimeZone` (a first import with no zone set) finds the
/// same zone whatever the chunks are: a match cut by a chunk boundary, a value that names no
/// zone before one that does, none at all.
final class ZoneScanTests: XCTestCase {
    private func export(_ zones: [String], padding: Int = 5000) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        xml += " <ExportDate value=\"2024-02-01 09:00:00 +0100\"/>\n"
        // Quantity records first (no zone), as real exports list them, past the head.
        for k in 0..<padding {
            xml += " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Watch\" unit=\"count\" value=\"\(k)\""
                + " startDate=\"2024-01-10 11:00:00 +0100\" endDate=\"2024-01-10 11:30:00 +0100\"/>\n"
        }
        for zone in zones {
            xml += " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Watch\" value=\"HKCategoryValueSleepAnalysisAsleepCore\""
                + " startDate=\"2024-01-10 01:00:00 +0100\" endDate=\"2024-01-10 02:00:00 +0100\">\n"
                + "  <MetadataEntry key=\"HKTimeZone\" value=\"\(zone)\"/>\n </Record>\n"
        }
        return xml + "</HealthData>\n"
    }

    /// Every chunk size from a few bytes to larger than the file gives the same answer, and a
    /// boundary falls at every byte of the match for some size.
    private func assertScan(_ xml: String, finds expected: String?, line: UInt = #line) throws {
        let folder = try temporaryFolder(self)
        let path = try write(xml, to: "export.xml", in: folder)
        let source = try ExportSource(path: path)
        for chunk in [7, 40, 100, 4096, 4096 * 3 + 5, 1 << 20] {
            XCTAssertEqual(try ExportZoneHints.firstTimeZone(in: source, chunkSize: chunk), expected, "chunks of \(chunk)", line: line)
        }
        // The scan itself fed two pieces, the cut at each byte around the first match.
        if let at = xml.utf8.firstIndex(of: UInt8(ascii: "Z")).map({ xml.utf8.distance(from: xml.utf8.startIndex, to: $0) }) {
            var scan = ExportZoneHints.ZoneScan()
            let bytes = Array(xml.utf8)
            for cut in (at - 20)...min(at + 60, bytes.count) {
                scan = ExportZoneHints.ZoneScan()
                _ = bytes[..<cut].withUnsafeBytes { scan.look(at: $0) } || bytes[cut...].withUnsafeBytes { scan.look(at: $0) }
                XCTAssertEqual(scan.found, expected, "cut at byte \(cut)", line: line)
            }
        }
    }

    func testTheFirstZoneIsFoundWhereverTheChunksEnd() throws {
        try assertScan(export(["Europe/Berlin", "America/New_York"]), finds: "Europe/Berlin")
    }

    func testAValueThatNamesNoZoneIsPassedOver() throws {
        try assertScan(export(["Mars/Olympus_Mons", "", "Asia/Tokyo"]), finds: "Asia/Tokyo")
    }

    func testAnExportWithoutAZoneHasNone() throws {
        try assertScan(export([]), finds: nil)
        try assertScan(export(["Nowhere/At_All"]), finds: nil)
    }

    func testAZoneInTheHeadIsFoundThere() throws {
        let folder = try temporaryFolder(self)
        let path = try write(export(["Europe/Lisbon"], padding: 2), to: "export.xml", in: folder)
        XCTAssertEqual(try ExportZoneHints.read(ExportSource(path: path)).timeZoneName, "Europe/Lisbon")
    }
}
