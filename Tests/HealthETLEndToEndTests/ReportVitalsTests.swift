import Foundation
import XCTest
@testable import HealthCore
@testable import HealthReport
import TestSupport

/// Issue 31: the report's "Heart and vitals" section, from an import of VitalsEndToEndTests' export.
final class ReportVitalsTests: XCTestCase {
    func testTheSectionShowsVitalsPressureAndWorkoutsWithZones() throws {
        let dir = try temporaryFolder(self)
        let export = try write(VitalsEndToEndTests.export(days: 10...13, exportDay: 13), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let r = try healthetl(["import", export, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let html = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        let section = try XCTUnwrap(html.components(separatedBy: #"<section id="vitals">"#).dropFirst().first?
            .components(separatedBy: "</section>").first)
        // Weight: the latest day's latest reading (13 March: 70.3), the 7-day average of the
        // four days' latest readings (70.0, 70.1, 70.2, 70.3).
        let average = Format.number([70.0, 70.1, 70.2, 70.3].map { $0 }.reduce(0, +) / 4, places: 1)
        XCTAssertTrue(section.contains("<tr data-vital=weight_kg><td>Weight (kg)</td><td>70.3</td><td>13 Mar 2024</td><td>\(average)</td></tr>"),
                      section)
        XCTAssertTrue(section.contains("<tr data-vital=resting_heart_rate>"), section)
        XCTAssertEqual(section.components(separatedBy: "<tr data-pressure>").count - 1, 4)
        XCTAssertTrue(section.contains("<td>123</td><td>83</td>"), section)
        // The run: 1 minute in zones 1, 2, 4 and 5 (max 180.7), none in 3.
        XCTAssertTrue(section.contains("<td>Running</td>"), section)
        XCTAssertTrue(section.contains("<td>136 / 175</td><td>1</td><td>1</td><td>0</td><td>1</td><td>1</td>"), section)
        XCTAssertTrue(section.contains("<td>Traditional Strength Training</td>"), section)
        XCTAssertTrue(html.contains(##"<a href="#vitals">"##))
    }
}
