import Foundation
import XCTest
import TestSupport

/// `healthetl-xmlfloor`, the parse floor `make bench` measures against: with `--two-parsers`
/// (issue 35's moonshot, two parsers over the two halves of the body) it must count the same
/// elements as one parser over the whole file, so the cut falls between top-level elements.
final class ParseFloorTests: XCTestCase {
    private func floor(_ arguments: [String]) throws -> [String: Any] {
        let binary = URL(fileURLWithPath: TestPaths.binary).deletingLastPathComponent()
            .appendingPathComponent("healthetl-xmlfloor").path
        guard FileManager.default.isExecutableFile(atPath: binary) else { throw XCTSkip("healthetl-xmlfloor is not built") }
        let r = try runProcess(binary, arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    func testTwoParsersCountWhatOneCounts() throws {
        let xml = try temporaryFolder(self).appendingPathComponent("export.xml").path
        try generateExport(["--out", xml, "--days", "4", "--seed", "35", "--broken-dtd"])
        let one = try floor([xml]), two = try floor(["--two-parsers", xml])
        let elements = try XCTUnwrap(one["elements"] as? Int)
        XCTAssertGreaterThan(elements, 1000)
        XCTAssertEqual(two["elements"] as? Int, elements)
        XCTAssertEqual(one["parsers"] as? Int, 1)
        XCTAssertEqual(two["parsers"] as? Int, 2)
        XCTAssertEqual(one["removed_doctype"] as? Bool, true, "the broken DTD is dropped, or libxml2 stops at it")
        XCTAssertEqual(two["removed_doctype"] as? Bool, true)
        // The elements of the file, counted here by their start tags (no comments or CDATA in it).
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        let body = try XCTUnwrap(text.range(of: "<HealthData"))
        let starts = text[body.lowerBound...].split(separator: "<", omittingEmptySubsequences: true)
            .filter { $0.first.map { $0 != "/" && $0 != "!" && $0 != "?" } ?? false }.count
        XCTAssertEqual(elements, starts)
    }
}
