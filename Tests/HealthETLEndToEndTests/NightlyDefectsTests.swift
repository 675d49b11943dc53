import Foundation
import XCTest
@testable import HealthCore
@testable import HealthIngest
@testable import HealthPipeline
@testable import SQLite
import TestSupport

/// Issue 20.3 and 20.10: a future-dated record must not hide later data from nightly runs;
/// a night is never cut in two; a run without a configured zone uses the export's own.
final class NightlyDefectsTests: XCTestCase {
    private func steps(day: Int, created: String? = nil) -> String {
        let stamp = String(format: "2024-02-%02d", day)
        return #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" "#
            + #"creationDate="\#(created ?? stamp + " 09:00:00 +0000")" startDate="\#(stamp) 08:00:00 +0000" "#
            + #"endDate="\#(stamp) 08:30:00 +0000" value="100"/>"#
    }

    private func export(exportDate: String, _ records: [String], locale: String = "en_US") -> String {
        ExportXML.document(records, exportDate: exportDate, locale: locale, declaration: false)
    }

    func testAFutureDatedRecordDoesNotHideLaterRecordsFromTheNightlyRun() throws {
        let dir = try temporaryFolder(self)
        let future = #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" "#
            + #"creationDate="2030-01-01 00:00:00 +0000" startDate="2030-01-01 08:00:00 +0000" endDate="2030-01-01 08:30:00 +0000" value="5"/>"#
        let first = (1...12).map { steps(day: $0) } + [future]
        let later = first + (14...18).map { steps(day: $0) }
        let a = try write(export(exportDate: "2024-02-13 10:00:00 +0000", first), to: "a.xml", in: dir)
        let b = try write(export(exportDate: "2024-02-19 10:00:00 +0000", later), to: "b.xml", in: dir)
        let nightly = dir.appendingPathComponent("nightly").path, fresh = dir.appendingPathComponent("fresh").path
        let zone = ["--timezone", "UTC", "--quiet"]
        XCTAssertEqual(try healthetl(["import", a, "--out", nightly] + zone).status, 0)
        let second = try healthetl(["import", b, "--out", nightly, "--json"] + zone)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try healthetl(["import", b, "--out", fresh] + zone).status, 0)
        let count = "SELECT count(*) FROM sample_data"
        XCTAssertEqual(try query(fresh + "/health.sqlite", count), ["18"])
        XCTAssertEqual(try query(nightly + "/health.sqlite", count), ["18"], "the nightly run kept the later records")
        // The anchor stopped at the export date; the run summary counts the future-dated record.
        XCTAssertEqual(try query(nightly + "/health.sqlite", "SELECT max(newest_creation_us) FROM anchors"),
                       [String(Timestamp(iso8601: "2024-02-18T09:00:00Z")!.microseconds)])
        let summary = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(summary?["future_dated"] as? Int, 1)
    }

    func testAStoreWithAnAnchorPastItsExportIsRepaired() throws {
        let dir = try temporaryFolder(self)
        let a = try write(export(exportDate: "2024-02-13 10:00:00 +0000", (1...12).map { steps(day: $0) }), to: "a.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", a, "--out", out, "--timezone", "UTC", "--quiet"]).status, 0)
        // As an earlier version left it: the anchor in 2030.
        let db = try Database(path: out + "/health.sqlite", mode: .readWrite)
        try db.execute("UPDATE anchors SET newest_creation_us = 1893456000000000")
        let b = try write(export(exportDate: "2024-02-19 10:00:00 +0000", (1...18).map { steps(day: $0) }), to: "b.xml", in: dir)
        XCTAssertEqual(try healthetl(["import", b, "--out", out, "--timezone", "UTC", "--quiet"]).status, 0)
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM sample_data"), ["18"])
    }

    /// A night in Seoul, 22:30 to 06:30 KST, as sleep records 20 s apart.
    private func seoulNight(hkTimeZone: Bool) -> [String] {
        var records: [String] = []
        let meta = hkTimeZone ? #"<MetadataEntry key="HKTimeZone" value="Asia/Seoul"/>"# : ""
        var t = Timestamp(iso8601: "2024-03-04T13:30:00Z")!.microseconds
        let end = Timestamp(iso8601: "2024-03-04T21:30:00Z")!.microseconds
        while t < end {
            let s = Timestamp(microseconds: t), e = Timestamp(microseconds: t + 600_000_000)
            records.append(#"<Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" "#
                + #"creationDate="2024-03-05 07:00:00 +0900" startDate="\#(Self.kst(s))" endDate="\#(Self.kst(e))" "#
                + #"value="HKCategoryValueSleepAnalysisAsleepCore">\#(meta)</Record>"#)
            t += 620_000_000   // 10 min records, 20 s apart
        }
        return records
    }

    /// `yyyy-MM-dd HH:mm:ss +0900`, as a phone in Seoul prints instants.
    static func kst(_ t: Timestamp) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "Asia/Seoul")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return f.string(from: Date(timeIntervalSince1970: t.seconds))
    }

    func testANightAcrossTheCutoffOfAServerZoneIsOneNight() throws {
        let dir = try temporaryFolder(self)
        let path = try write(export(exportDate: "2024-03-06 08:00:00 +0900", seoulNight(hkTimeZone: false), locale: "ko-Kore_KR"),
                             to: "seoul.xml", in: dir)
        let out = dir.appendingPathComponent("utc").path
        // Read in UTC, the night runs 13:30–21:30 across the 18:00 cutoff: still one night.
        XCTAssertEqual(try healthetl(["import", path, "--out", out, "--timezone", "UTC", "--quiet"]).status, 0)
        let nights = try queryRows(out + "/health.sqlite", "SELECT night_date, asleep_minutes FROM sleep_sessions")
        XCTAssertEqual(nights.count, 1, "\(nights)")
        XCTAssertEqual(nights.first?[1].double ?? 0, 8 * 60 * 600 / 620, accuracy: 10)
    }

    func testWithoutAConfiguredZoneTheExportsOwnIsUsedAndNamed() throws {
        let dir = try temporaryFolder(self)
        let cases: [(String, Bool, String, String)] = [
            ("ko-Kore_KR", true, "Asia/Seoul", "HKTimeZone metadata in the export"),
            ("ko-Kore_KR", false, "Asia/Seoul", "the ExportDate's offset +0900 in the locale's region (ko-Kore_KR)"),
        ]
        for (n, (locale, hk, zone, reason)) in cases.enumerated() {
            let path = try write(export(exportDate: "2024-03-06 08:00:00 +0900", seoulNight(hkTimeZone: hk), locale: locale),
                                 to: "e\(n).xml", in: dir)
            let out = dir.appendingPathComponent("out\(n)").path
            // A server in UTC: its own zone must not be taken.
            let r = try runProcess(TestPaths.binary, ["import", path, "--out", out, "--json", "--quiet"], environment: ["TZ": "UTC"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let summary = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            XCTAssertEqual(summary?["time_zone"] as? String, zone)
            XCTAssertEqual(summary?["time_zone_reason"] as? String, reason)
            XCTAssertEqual(try query(out + "/health.sqlite", "SELECT night_date FROM sleep_sessions"), ["2024-03-05"])
            // The nightly run keeps the zone of the earlier imports (the file saved again: read).
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: path)
            let again = try runProcess(TestPaths.binary, ["import", path, "--out", out, "--json", "--quiet"], environment: ["TZ": "UTC"])
            let second = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
            XCTAssertEqual(second?["mode"] as? String, "nothing-new")
            XCTAssertEqual(second?["time_zone_reason"] as? String, "the zone of the earlier imports into this folder")
        }
        XCTAssertEqual(TimeZoneChoice.region(of: "en_US"), "US")
        XCTAssertNil(TimeZoneChoice.region(of: "en"))
        // An export that names nothing: the machine's zone, said so.
        let bare = try write(ExportXML.document([], exportDate: nil, locale: "en", declaration: false), to: "bare.xml", in: dir)
        let r = try runProcess(TestPaths.binary, ["import", bare, "--out", dir.appendingPathComponent("bare").path, "--json", "--quiet"],
                               environment: ["TZ": "America/Chicago"])
        let summary = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(summary?["time_zone_reason"] as? String, "the machine's zone (the export names none)")
    }
}
