import Foundation
import XCTest
@testable import HealthCore
import TestSupport

/// Issue 20: hostile values, spans, metadata and attributes. Each case once crashed, ate
/// memory or time, or stored nonsense; now the record goes to quarantine with its reason and
/// the import goes on.
final class HostileInputTests: XCTestCase {
    /// A step record of 2024-02-13 with `extra` attributes (and its own value and span).
    static func record(type: String = "StepCount", unit: String = "count", value: String,
                       start: String = "2024-02-13 10:00:00 +0000", end: String = "2024-02-13 11:00:00 +0000",
                       extra: String = "", children: String = "") -> String {
        ExportXML.record(type, source: "x", unit: unit, value: value, start: start, end: end,
                         created: "2024-02-13 12:00:00 +0000", attributes: extra, children: children)
    }

    static func export(_ records: [String]) -> String {
        ExportXML.document(records, exportDate: nil, declaration: false)
    }

    /// Imports `records` plus one good step record (value 7) and returns the quarantine reasons.
    private func importQuarantining(_ records: [String], timeout: TimeInterval = 60,
                                    file: StaticString = #filePath, line: UInt = #line) throws -> (reasons: [String], out: String) {
        let dir = try temporaryFolder(self)
        let good = Self.record(value: "7", start: "2024-02-14 10:00:00 +0000", end: "2024-02-14 10:30:00 +0000")
        let path = try write(Self.export(records + [good]), to: "hostile.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let r = try runProcess(TestPaths.binary, ["import", path, "--out", out, "--quiet", "--timezone", "UTC"], timeout: timeout)
        XCTAssertEqual(r.status, 0, "the import must go on: \(r.stderr)", file: file, line: line)
        // The good record made it, whole.
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT steps FROM daily_analytics WHERE date = '2024-02-14'"), ["7"],
                       file: file, line: line)
        return (try query(out + "/health.sqlite", "SELECT reason FROM quarantine ORDER BY line"), out)
    }

    func testValuesTooLargeForTheirTypeAreQuarantinedNotFatal() throws {
        let (reasons, out) = try importQuarantining([
            Self.record(value: "1e19"),
            Self.record(type: "FlightsClimbed", value: "1e19"),
            Self.record(type: "AppleExerciseTime", unit: "min", value: "9e18"),
            Self.record(type: "HeartRate", unit: "count/min", value: "1e19"),
            Self.record(type: "ActiveEnergyBurned", unit: "kcal", value: "1e300"),
        ])
        XCTAssertEqual(reasons.count, 5, "\(reasons)")
        XCTAssertTrue(reasons[0].contains("outside 0…1,000,000 for one steps record"), reasons[0])
        XCTAssertTrue(reasons[3].contains("outside 0…400"), reasons[3])
        XCTAssertTrue(reasons[4].contains("beyond"), reasons[4])
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM sample_data"), ["1"])
    }

    func testNumbersAreReadAsAppleWritesThemAndCumulativeValuesCannotBeNegative() throws {
        let (reasons, out) = try importQuarantining([
            Self.record(value: "0x10"), Self.record(value: "inf"), Self.record(value: "nan"), Self.record(value: "1e400"),
            Self.record(value: ""), Self.record(value: "-5"), Self.record(type: "DistanceWalkingRunning", unit: "km", value: "-0.5"),
            // Discrete types may be negative (a wrist temperature is a deviation).
            Self.record(type: "AppleSleepingWristTemperature", unit: "degC", value: "-0.4"),
        ])
        XCTAssertEqual(reasons, ["unreadable value '0x10'", "unreadable value 'inf'", "unreadable value 'nan'",
                                 "unreadable value '1e400'", "unreadable value ''",
                                 "negative value -5.0 of a cumulative type (steps)",
                                 "negative value -500.0 of a cumulative type (walking_running_distance)"])
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM sample_data"), ["2"])
        XCTAssertEqual(DecimalText.double("1.23457e+06"), 1_234_570)
        XCTAssertEqual(DecimalText.double(".5"), 0.5)
        XCTAssertNil(DecimalText.double("1e"))
        XCTAssertNil(DecimalText.double("12 "))
    }

    func testARecordSpanningMillenniaIsQuarantinedFastAndWithoutMemory() throws {
        let started = Date()
        let (reasons, _) = try importQuarantining([
            Self.record(value: "100", start: "0001-01-02 10:00:00 +0000", end: "9999-02-13 11:00:00 +0000"),
            Self.record(value: "100", start: "1024-02-13 10:00:00 +0000", end: "2024-02-13 11:00:00 +0000"),
            Self.record(type: "HeartRate", unit: "count/min", value: "60", start: "2023-01-01 00:00:00 +0000"),
        ], timeout: 30)
        XCTAssertEqual(reasons.count, 3, "\(reasons)")
        XCTAssertTrue(reasons[0].contains("spans 3651736 days, more than the 31 days one steps record may"), reasons[0])
        // Before: 42 s and 2.5 GB for the thousand years alone.
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
    }

    func testManyMetadataEntriesAndAttributesTakeLinearTime() throws {
        let entries = (0..<100_000).map { #"<MetadataEntry key="k\#($0 % 50_000)" value="v\#($0)"/>"# }.joined()
        let attributes = (0..<100_000).map { #" a\#($0)="\#($0)""# }.joined()
        let started = Date()
        let dir = try temporaryFolder(self)
        let path = try write(Self.export([Self.record(value: "5", children: entries),
                                          Self.record(value: "6", start: "2024-02-13 12:00:00 +0000",
                                                      end: "2024-02-13 12:30:00 +0000", extra: attributes)]),
                             to: "wide.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let r = try runProcess(TestPaths.binary, ["import", path, "--out", out, "--quiet", "--timezone", "UTC"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        // Before: 33 s and 36 s (pairwise key comparisons).
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        let metadata = try query(out + "/health.sqlite", "SELECT metadata FROM sample_data ORDER BY start_us")
        XCTAssertEqual(metadata.count, 2)
        // Repeated keys became arrays, nothing lost: 50,000 keys with two values each.
        XCTAssertEqual(try query(out + "/health.sqlite",
                                 "SELECT count(*) || '/' || sum(json_array_length(j.value)) FROM sample_data, json_each(metadata) j WHERE start_us = (SELECT min(start_us) FROM sample_data)"),
                       ["50000/100000"])
        XCTAssertEqual(try query(out + "/health.sqlite",
                                 "SELECT count(*) FROM sample_data, json_each(metadata) WHERE start_us = (SELECT max(start_us) FROM sample_data)"),
                       ["100000"])
    }

    func testOverlongValuesAreNotKeptAndTheirRecordIsQuarantined() throws {
        let long = String(repeating: "x", count: 1 << 20)
        let (reasons, _) = try importQuarantining([
            Self.record(value: "5", extra: #" HKSomething="\#(long)""#),
            Self.record(value: "6", children: #"<MetadataEntry key="HKNote" value="\#(long)"/>"#),
        ])
        XCTAssertEqual(reasons, ["unreadable HKSomething value of 1048576 bytes (over the 65536-byte limit)",
                                 "unreadable metadata value of 1048576 bytes (over the 65536-byte limit)"])
    }
}
