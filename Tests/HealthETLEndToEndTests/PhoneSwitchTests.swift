import Foundation
import XCTest
import TestSupport

/// Issue 60: a person who moved from an iPhone to an Android phone, with three weeks (4–24
/// March 2025) in which both recorded. The iPhone export runs 1–24 March, the Health Connect
/// export 4–31 March; a Withings scale wrote the same weights to both phones.
///
/// Counted by hand (Europe/Berlin days). The iPhone walks 1000 + 20·d steps from 09:00 to 10:00
/// on day d; the Pixel (Health Connect) 2000 from 09:30 to 10:30. Health Connect's records begin
/// later, so by default (`newer-phone`) it counts first where both recorded:
///   1–3 March:   the iPhone's alone, 1000 + 20·d;
///   4–24 March:  the Pixel's 2000, and the iPhone's 09:00–09:30 half, 500 + 10·d;
///   25–31 March: the Pixel's 2000.
final class PhoneSwitchTests: XCTestCase {
    static let pixel = "com.google.android.apps.fitness", withings = "com.withings.wiscale2"

    static func expectedSteps(_ d: Int, appleFirst: Bool = false) -> Int {
        switch d {
        case 1...3: 1000 + 20 * d
        case 4...24: appleFirst ? 1000 + 20 * d + 1000 : 2000 + 500 + 10 * d
        default: 2000
        }
    }

    static func day(_ d: Int, _ time: String) -> String { String(format: "2025-03-%02d %@ +0100", d, time) }

    /// The iPhone's export of days `1...last` (its weights: the 10th and 17th, as the scale sent them).
    static func appleExport(through last: Int, at path: String) throws {
        let device = #" sourceVersion="18.3" device="&lt;&lt;HKDevice: 0x1&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone16,1, software:18.3&gt;""#
        var records = (1...last).map { d in
            ExportXML.record("StepCount", source: "Alex’s iPhone", unit: "count", value: "\(1000 + 20 * d)",
                             start: day(d, "09:00:00"), end: day(d, "10:00:00"), created: day(d, "10:01:00"), attributes: device)
        }
        for d in [10, 17] where d <= last {
            records.append(ExportXML.record("BodyMass", source: "Withings", unit: "kg", value: d == 10 ? "70.3" : "69.8",
                                            start: day(d, "07:00:00"), end: day(d, "07:00:00"), created: day(d, "07:02:00")))
        }
        let me = #"<Me HKCharacteristicTypeIdentifierDateOfBirth="1990-04-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>"#
        try ExportXML.document([me] + records, exportDate: day(last, "22:00:00"))
            .write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The Health Connect export of days `4...last`; `weights`: the scale's, in kg (`deleting`:
    /// a day whose steps the Pixel's app deleted since the last export).
    static func healthConnectExport(through last: Int, at path: String, weights: [Int: Double] = [10: 70.3, 17: 69.8],
                                    deleting: Int? = nil) throws {
        var s = HealthConnectScenario()
        s.apps = [(pixel, "Fit"), (withings, "Withings")]
        s.devices = [["manufacturer": "Google", "model": "Pixel 8", "type": 2]]
        s.priority = ["ACTIVITY": [pixel]]
        func at(_ d: Int, _ time: String) -> String { String(format: "2025-03-%02dT%@+01:00", d, time) }
        for d in 4...last where d != deleting {
            s.add("steps_record_table", app: pixel, ["uuid": String(format: "%032x", d), "device": 0, "start": at(d, "09:30:00"),
                                                     "end": at(d, "10:30:00"), "count": 2000, "last_modified": at(d, "10:31:00")])
        }
        for (d, kg) in weights where d <= last {
            s.add("weight_record_table", app: withings, ["uuid": String(format: "%032x", 1000 + d), "time": at(d, "07:00:00"),
                                                        "weight": kg * 1000, "last_modified": at(d, "07:02:00")])
        }
        try s.write(to: path)
    }

    static let steps = "SELECT date || ' ' || steps FROM daily_analytics WHERE date BETWEEN '2025-03-01' AND '2025-03-31' ORDER BY date"
    static let samples = "SELECT type, source_name, device_model, start_utc, end_utc, local_date, value, unit FROM samples ORDER BY type, start_utc, source_name, value"
    static let shares = "SELECT date, metric, platform, counted, all_sources_sum, samples FROM reconciliation_platforms ORDER BY date, metric, platform"

    /// Nightly runs of either export, in either order, and a run after the Pixel's app deleted a
    /// record: each ends with the store a full build of both exports makes, every day as counted.
    func testEveryDayIsCountedOnceAndNightlyRunsInEitherOrderEqualAFullOfBoth() throws {
        let dir = try temporaryFolder(self)
        func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try Self.appleExport(through: 15, at: file("apple-15.xml"))
        try Self.appleExport(through: 24, at: file("apple-24.xml"))
        try Self.healthConnectExport(through: 20, at: file("hc-20.zip"))
        try Self.healthConnectExport(through: 31, at: file("hc-31.zip"))
        try Self.healthConnectExport(through: 31, at: file("hc-31-deleted.zip"), deleting: 12)

        let full = file("full"), appleFirst = file("apple-first"), androidFirst = file("android-first")
        let both = try importJSON(file("apple-24.xml"), full, ["--full", file("hc-31.zip")])
        XCTAssertEqual(both["mode"] as? String, "full")
        let expected = (1...31).map { String(format: "2025-03-%02d %d", $0, Self.expectedSteps($0)) }
        XCTAssertEqual(try query(full + "/health.sqlite", Self.steps), expected)
        // The 10th: the Pixel's 2000 and the iPhone's half hour, 500 + 100; the iPhone's hour was 1200.
        let tenth = "SELECT platform || '|' || counted || '|' || all_sources_sum || '|' || samples FROM reconciliation_platforms "
            + "WHERE date = '2025-03-10' AND metric = 'steps' ORDER BY platform"
        XCTAssertEqual(try query(full + "/health.sqlite", tenth),
                       ["apple-health|600.0|1200.0|1", "health-connect|2000.0|2000.0|1"])

        // The same in HealthQL and in the files.
        let ql = try healthetl(["query", "--out", full, "--format", "csv",
                                "SELECT platform, counted FROM reconciliation_platforms WHERE date = '2025-03-10' AND metric = 'steps'"])
        XCTAssertEqual(ql.stdout.split(whereSeparator: \.isNewline).dropFirst().map(String.init), ["apple-health,600", "health-connect,2000"], ql.stderr)
        let csv = try String(contentsOfFile: full + "/csv/reconciliation_platforms.csv", encoding: .utf8)
        XCTAssertTrue(csv.contains("2025-03-10,steps,apple-health,600"), csv)

        // FHIR: the Pixel's app says it came through Health Connect, the iPhone does not.
        XCTAssertEqual(try healthetl(["export-fhir", "--out", full]).status, 0)
        let devices = try String(contentsOfFile: full + "/fhir/Device.ndjson", encoding: .utf8).split(whereSeparator: \.isNewline)
        XCTAssertTrue(devices.contains { $0.contains(#""name":"Fit""#) && $0.contains("Android Health Connect") }, "\(devices)")
        XCTAssertTrue(devices.contains { $0.contains("Alex’s iPhone") && !$0.contains("Health Connect") }, "\(devices)")

        var notes: [String] = []
        for (out, order) in [(appleFirst, ["apple-15.xml", "hc-20.zip", "apple-24.xml", "hc-31.zip"]),
                             (androidFirst, ["hc-20.zip", "apple-15.xml", "hc-31.zip", "apple-24.xml"])] {
            for name in order {
                let summary = try importJSON(file(name), out)
                notes += summary["notes"] as? [String] ?? []
            }
            XCTAssertEqual(try query(out + "/health.sqlite", Self.steps), expected, out)
            XCTAssertEqual(try analyticsSnapshot(out + "/health.sqlite"), try analyticsSnapshot(full + "/health.sqlite"), out)
            XCTAssertEqual(try queryRows(out + "/health.sqlite", Self.samples), try queryRows(full + "/health.sqlite", Self.samples), out)
            XCTAssertEqual(try queryRows(out + "/health.sqlite", Self.shares), try queryRows(full + "/health.sqlite", Self.shares), out)
        }
        // The second platform was taken as the same person's for the weights both hold.
        XCTAssertTrue(notes.contains { $0.contains("the same person (1 body measurement in both exports") }, "\(notes)")

        // Both exports listed; status names both platforms.
        let status = try healthetl(["status", "--out", appleFirst])
        XCTAssertTrue(status.stdout.contains("platforms: apple-health + health-connect"), status.stdout)
        XCTAssertTrue(status.stdout.contains("Apple Health export: \(file("apple-24.xml"))"), status.stdout)
        XCTAssertTrue(status.stdout.contains("Health Connect export: \(file("hc-31.zip"))"), status.stdout)

        // A deletion in Health Connect rebuilds the store from both exports (the iPhone's read
        // again from where it was imported): the 12th is then the iPhone's alone.
        let rebuilt = try importJSON(file("hc-31-deleted.zip"), appleFirst)
        XCTAssertEqual(rebuilt["mode"] as? String, "full", "\(rebuilt)")
        XCTAssertEqual(try query(appleFirst + "/health.sqlite", "SELECT steps FROM daily_analytics WHERE date = '2025-03-12'"),
                       ["\(1000 + 240)"])
        let reference = file("reference")
        try importJSON(file("apple-24.xml"), reference, ["--full", file("hc-31-deleted.zip")])
        XCTAssertEqual(try analyticsSnapshot(appleFirst + "/health.sqlite"), try analyticsSnapshot(reference + "/health.sqlite"))
        // Without the iPhone's export the rebuild cannot be done, and says so; nothing changes.
        try FileManager.default.removeItem(atPath: file("apple-24.xml"))
        let before = try analyticsSnapshot(androidFirst + "/health.sqlite")
        let refused = try healthetl(["import", file("hc-31-deleted.zip"), "--out", androidFirst, "--timezone", "Europe/Berlin"])
        XCTAssertEqual(refused.status, 66, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("holds your Apple Health export too") && refused.stderr.contains("import --full"),
                      refused.stderr)
        XCTAssertEqual(try analyticsSnapshot(androidFirst + "/health.sqlite"), before)
    }

    /// The person's own priority: the iPhone first for activity. Days both recorded then take
    /// the iPhone's hour and the Pixel's 10:00–10:30 half (1000).
    func testAPlatformPriorityPerCategory() throws {
        let dir = try temporaryFolder(self)
        func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try Self.appleExport(through: 24, at: file("apple.xml"))
        try Self.healthConnectExport(through: 31, at: file("hc.zip"))
        let pipeline = file("pipeline.json")
        try #"{"outputs": [], "platformPriority": {"activity": "apple-health"}}"#.write(toFile: pipeline, atomically: true, encoding: .utf8)
        let out = file("out")
        try importJSON(file("apple.xml"), out, ["--pipeline", pipeline])
        try importJSON(file("hc.zip"), out, ["--pipeline", pipeline])
        XCTAssertEqual(try query(out + "/health.sqlite", Self.steps),
                       (1...31).map { String(format: "2025-03-%02d %d", $0, Self.expectedSteps($0, appleFirst: true)) })
        let bad = try healthetl(["people", "set", "alex", "--out", file("family"), "--platform-priority", "activity=android"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("newer-phone, apple-health, health-connect"), bad.stderr)
    }

    /// Another person's Health Connect export is refused (its weights are not this body's), as
    /// is one whose data cannot tell, until `--same-person` says it is theirs.
    func testAnotherPersonAcrossPlatformsIsRefused() throws {
        let dir = try temporaryFolder(self)
        func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try Self.appleExport(through: 24, at: file("apple.xml"))
        try Self.healthConnectExport(through: 31, at: file("someone.zip"), weights: [10: 95.1, 17: 94.7])
        try Self.healthConnectExport(through: 31, at: file("unknown.zip"), weights: [:])
        let out = file("out")
        try importJSON(file("apple.xml"), out)
        let before = try analyticsSnapshot(out + "/health.sqlite")

        let other = try healthetl(["import", file("someone.zip"), "--out", out, "--timezone", "Europe/Berlin"])
        XCTAssertEqual(other.status, 65, other.stderr)
        XCTAssertTrue(other.stderr.contains("looks like another person's export: 2 of its 2 weights differ"), other.stderr)
        XCTAssertTrue(other.stderr.contains("--same-person") && other.stderr.contains("--person ID"), other.stderr)

        let unknown = try healthetl(["import", file("unknown.zip"), "--out", out, "--timezone", "Europe/Berlin"])
        XCTAssertEqual(unknown.status, 65, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("nothing in the two tells whether they are one person's"), unknown.stderr)
        XCTAssertEqual(try analyticsSnapshot(out + "/health.sqlite"), before, "a refused export changes nothing")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/.healthetl/checkpoint.json"))

        let confirmed = try importJSON(file("unknown.zip"), out, ["--same-person"])
        XCTAssertTrue((confirmed["notes"] as? [String] ?? []).contains { $0.contains("as --same-person said") }, "\(confirmed)")
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT steps FROM daily_analytics WHERE date = '2025-03-30'"), ["2000"])
        // From then on the store holds both: a later export of either needs no option.
        try importJSON(file("unknown.zip"), out)
    }
}
