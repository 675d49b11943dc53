import Foundation
@testable import CSV
import XCTest
import TestSupport

/// Issue 33: the excel-semicolon dialect writes instants as local wall-clock date-times
/// (`2024-03-20 00:09:18`) that Excel and LibreOffice read as date-times; rfc4180 keeps ISO
/// 8601 UTC. (A German LibreOffice reads them back in `Scripts/check_workbook.py`.)
final class CSVLocalDateTimeTests: XCTestCase {
    private func write(_ dialect: CSVDialect, zone: TimeZone?, _ stamps: [Int64]) throws -> [String] {
        let path = try temporaryFolder(self).appendingPathComponent("t.csv").path
        var offset: (@Sendable (Int64) -> Int)?
        if let zone { offset = { seconds in zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))) } }
        let w = try CSVWriter(path: path, columns: [CSVColumn(name: "t", format: .timestamp)], dialect: dialect, localOffset: offset)
        for s in stamps { try w.appendRow { r in r.timestamp(0, microseconds: s, otherwise: "?") } }
        try w.close()
        var text = try String(contentsOfFile: path, encoding: .utf8)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return Array(text.components(separatedBy: "\r\n").dropFirst().dropLast())
    }

    func testTheSemicolonDialectWritesLocalDateTimesAcrossDaylightSaving() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        // 2024-03-19T23:09:18.5Z (winter, +1), 2024-03-31T00:59:59Z and 01:00:00Z (the change to +2), 1969-12-31T23:00:00Z.
        let stamps: [Int64] = [1_710_889_758_500_000, 1_711_846_799_000_000, 1_711_846_800_000_000, -3_600_000_000]
        XCTAssertEqual(try write(.excelSemicolon, zone: berlin, stamps),
                       ["2024-03-20 00:09:18", "2024-03-31 01:59:59", "2024-03-31 03:00:00", "1970-01-01 00:00:00"])
        XCTAssertEqual(try write(.rfc4180, zone: berlin, stamps).first, "2024-03-19T23:09:18.5Z", "rfc4180 stays UTC")
        XCTAssertEqual(try write(.excelSemicolon, zone: nil, stamps).first, "2024-03-19T23:09:18.5Z",
                       "without a zone the instant stays ISO 8601 UTC, never a wall clock of unknown zone")
    }
}
