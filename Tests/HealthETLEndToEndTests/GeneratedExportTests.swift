import XCTest
@testable import HealthCore
import TestSupport

/// Exports made by `tools/generate_export.py`, which also writes the truth it built
/// them from: distinct records, duplicates, workouts, route points.
final class GeneratedExportTests: XCTestCase {
    struct Truth: Decodable {
        var distinct_top_level_records: Int
        var duplicates: Int
        var workouts: Int
        var route_points_inline: Int
        var route_points_gpx: Int
        var activity_summaries: Int
    }

    private func generate(_ dir: URL, _ name: String, _ extra: [String]) throws -> (path: String, truth: Truth) {
        let out = dir.appendingPathComponent(name).path
        let truthPath = dir.appendingPathComponent(name + ".truth.json").path
        try generateExport(["--out", out, "--days", "12", "--truth", truthPath] + extra)
        let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: truthPath)))
        return (out, truth)
    }

    private func dump(_ out: String) throws -> [String] {
        try query(out + "/health.sqlite", """
            SELECT type || '|' || source_name || '|' || ifnull(device_model, '') || '|' || start_utc || '|' || end_utc
                   || '|' || ifnull(value, '') || '|' || ifnull(unit, '') || '|' || ifnull(category_value, '')
                   || '|' || ifnull(metadata, '') FROM samples ORDER BY 1
            """)
    }

    /// zip (localized `导出.xml`), folder (`Exportieren.xml`) and bare XML give the same rows,
    /// and the counts match the generator's truth.
    func testInputFormsAndLocalizedNames() throws {
        let dir = try temporaryFolder(self)
        let xml = try generate(dir, "export.xml", ["--layout", "xml"])
        let zip = try generate(dir, "export.zip", ["--layout", "zip", "--xml-name", "导出.xml"])
        let folder = try generate(dir, "unzipped", ["--layout", "folder", "--xml-name", "Exportieren.xml"])
        var dumps: [[String]] = []
        for (i, input) in [xml, zip, folder].enumerated() {
            let out = dir.appendingPathComponent("out\(i)").path
            let summary = try importJSON(input.path, out)
            XCTAssertEqual(summary["samples"] as? Int, input.truth.distinct_top_level_records, input.path)
            XCTAssertEqual(summary["duplicates"] as? Int, input.truth.duplicates)
            XCTAssertEqual(summary["workouts"] as? Int, input.truth.workouts)
            XCTAssertEqual(summary["quarantined"] as? Int, 0)
            XCTAssertEqual((summary["unknown_elements"] as? [String: Int]) ?? [:], [:])
            let gpx = i == 0 ? 0 : input.truth.route_points_gpx   // a bare XML has no route files beside it
            XCTAssertEqual(summary["route_points"] as? Int, input.truth.route_points_inline + gpx, input.path)
            XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM activity_summaries"),
                           ["\(input.truth.activity_summaries)"])
            dumps.append(try dump(out))
        }
        XCTAssertEqual(dumps[0].count, xml.truth.distinct_top_level_records)
        XCTAssertEqual(dumps[0], dumps[1], "zip differs from xml")
        XCTAssertEqual(dumps[0], dumps[2], "folder differs from xml")
    }

    /// The broken iOS 16 DTD and stray `\x0b` characters are repaired without user action.
    func testBrokenDTDAndVerticalTabs() throws {
        let dir = try temporaryFolder(self)
        let clean = try generate(dir, "clean.xml", [])
        let broken = try generate(dir, "broken.xml", ["--broken-dtd", "--vertical-tabs"])
        let raw = try Data(contentsOf: URL(fileURLWithPath: broken.path))
        XCTAssertTrue(raw.contains(0x0B), "generator must have written vertical tabs")
        let summary = try importJSON(broken.path, dir.appendingPathComponent("o1").path)
        XCTAssertEqual(summary["samples"] as? Int, broken.truth.distinct_top_level_records)
        XCTAssertEqual(summary["removed_doctype"] as? Bool, true)
        XCTAssertGreaterThan(summary["repaired_bytes"] as? Int ?? 0, 0)
        // Reference: the same bytes repaired by hand (vertical tabs deleted, DOCTYPE cut out).
        var text = String(decoding: raw.filter { $0 != 0x0B }, as: UTF8.self)
        let doctype = try XCTUnwrap(text.range(of: #"<!DOCTYPE[\s\S]*?\]>"#, options: .regularExpression))
        text.removeSubrange(doctype)
        let reference = try write(text, to: "reference.xml", in: dir)
        _ = try importJSON(reference, dir.appendingPathComponent("o2").path)
        let repaired = try dump(dir.appendingPathComponent("o1").path)
        let expected = try dump(dir.appendingPathComponent("o2").path)
        XCTAssertFalse(repaired.contains { $0.contains("\u{0B}") })
        XCTAssertEqual(repaired.count, broken.truth.distinct_top_level_records)
        XCTAssertEqual(try dump(dir.appendingPathComponent("o1").path).count, try {
            _ = try importJSON(clean.path, dir.appendingPathComponent("o3").path)
            return try dump(dir.appendingPathComponent("o3").path).count }())
        XCTAssertEqual(repaired, expected, "repaired export reads like the clean one")
    }
}

private extension Data {
    func contains(_ byte: UInt8) -> Bool { firstIndex(of: byte) != nil }
}
