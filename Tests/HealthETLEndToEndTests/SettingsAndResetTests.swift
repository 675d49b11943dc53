import Foundation
import XCTest
import TestSupport

/// Issue 29, items 5–7: a changed setting takes effect (and the run says so), `reset` removes
/// every output and asks first, and the run summary says what the run did.
final class SettingsAndResetTests: XCTestCase {
    /// A small export: steps and walking distance on `days` days from 1 March 2024 (UTC), a run,
    /// each record created at its end (so later exports add new ones past the anchors).
    static func export(days: Int) -> String {
        var records: [String] = []
        for day in 0..<days {
            let date = String(format: "2024-03-%02d", day + 1)
            for hour in [8, 12, 18] {
                let start = "\(date) \(String(format: "%02d", hour)):00:00 +0000"
                let end = "\(date) \(String(format: "%02d", hour)):30:00 +0000"
                records.append(ExportXML.record("StepCount", source: "Phone", unit: "count", value: "\(1000 + day * 10 + hour)",
                                                start: start, end: end, created: end))
                records.append(ExportXML.record("DistanceWalkingRunning", source: "Phone", unit: "km", value: "\(1 + day)",
                                                start: start, end: end, created: end))
            }
        }
        let run = #"<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" totalDistance="5" totalDistanceUnit="km" totalEnergyBurned="300" totalEnergyBurnedUnit="kcal" sourceName="Watch" creationDate="2024-03-01 07:31:00 +0000" startDate="2024-03-01 07:00:00 +0000" endDate="2024-03-01 07:30:00 +0000"/>"#
        return ExportXML.document([#"<Me HKCharacteristicTypeIdentifierDateOfBirth="1980-05-17"/>"#] + records + [run],
                                  exportDate: "2024-03-\(String(format: "%02d", days + 1)) 10:00:00 +0000")
    }

    private func file(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func testChangedUnitsShowInTheNextReportAndImportRewritesTheFiles() throws {
        let dir = try temporaryFolder(self)
        let path = try write(Self.export(days: 3), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", path, "--out", out, "--person", "bob", "--timezone", "UTC"]).status, 0)
        let bob = out + "/people/bob"
        let csvBefore = try file(bob + "/csv/daily.csv")
        let reportBefore = try file(bob + "/report/index.html")

        let set = try healthetl(["people", "set", "bob", "--units", "imperial", "--out", out])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stdout.contains("units unset → imperial"), set.stdout)
        let show = try healthetl(["people", "show", "bob", "--out", out])
        XCTAssertTrue(show.stdout.contains("units: imperial"), show.stdout)
        XCTAssertTrue(show.stdout.contains("source priority: (not set"), show.stdout)

        // The next report shows it, without an import.
        let report = try healthetl(["report", "--out", out, "--person", "bob"])
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertNotEqual(try file(bob + "/report/index.html"), reportBefore, "the report is in imperial units")

        // The next import of the same export (nothing new) rewrites CSV and says why.
        let again = try healthetl(["import", path, "--out", out, "--person", "bob"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("units changed (metric → imperial): rewrote csv"), again.stderr)
        XCTAssertNotEqual(try file(bob + "/csv/daily.csv"), csvBefore, "CSV in imperial units")
        // And only once: the run after it has nothing to rewrite.
        let third = try healthetl(["import", path, "--out", out, "--person", "bob"])
        XCTAssertFalse(third.stderr.contains("units changed"), third.stderr)
        XCTAssertTrue(third.stderr.contains("unchanged: \(bob)/csv"), third.stderr)
    }

    func testChangedDialectAndGoalsRewriteTheirFiles() throws {
        let dir = try temporaryFolder(self)
        let path = try write(Self.export(days: 3), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", path, "--out", out, "--timezone", "UTC"]).status, 0)
        let report = try file(out + "/report/index.html")
        let pipeline = try write(#"{"csvDialect": "excel-semicolon", "goals": {"steps": 3000}}"#, to: "p.json", in: dir)
        let run = try healthetl(["import", path, "--out", out, "--pipeline", pipeline])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("CSV dialect changed (rfc4180 → excel-semicolon)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("goals changed (steps 10000"), run.stderr)
        let header = try String(contentsOfFile: out + "/csv/daily.csv", encoding: .utf8).split(separator: "\n")[0]
        XCTAssertTrue(header.contains(";"), String(header))
        XCTAssertNotEqual(try file(out + "/report/index.html"), report)
    }

    func testChangedZoneRebuildsAndSaysWhy() throws {
        let dir = try temporaryFolder(self)
        let path = try write(Self.export(days: 3), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", path, "--out", out, "--person", "bob", "--timezone", "UTC"]).status, 0)
        XCTAssertEqual(try healthetl(["people", "set", "bob", "--timezone", "Asia/Tokyo", "--out", out]).status, 0)
        let report = try healthetl(["report", "--out", out, "--person", "bob"])
        XCTAssertTrue(report.stderr.contains("the stored days are in UTC; the next import rebuilds them"), report.stderr)
        let run = try healthetl(["import", path, "--out", out, "--person", "bob"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("zone changed (UTC → Asia/Tokyo): rebuilt every day"), run.stderr)
        XCTAssertTrue(run.stderr.contains("local days in Asia/Tokyo (the timezone setting)"), run.stderr)
        let store = out + "/people/bob/health.sqlite"
        XCTAssertEqual(try query(store, "SELECT mode FROM runs ORDER BY id DESC LIMIT 1"), ["full"])
        // 18:00 UTC is 03:00 the next day in Tokyo: the last evening's steps make a fourth day.
        XCTAssertEqual(try query(store, "SELECT count(*) FROM daily_analytics"), ["4"])
    }

    func testResetListsEveryOutputAndRemovesNothingWithoutYes() throws {
        let dir = try temporaryFolder(self)
        let path = try write(Self.export(days: 3), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", path, "--out", out, "--timezone", "UTC"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/health.xlsx"))
        // Issue 57: the opt-in output too (reset left fhir/, the Patient and every Observation).
        XCTAssertEqual(try healthetl(["export-fhir", "--out", out]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/fhir/Patient.ndjson"))
        let before = relativePaths(under: out)
        let dry = try healthetl(["reset", "--out", out])
        XCTAssertEqual(dry.status, 64, dry.stderr)
        for name in ["health.sqlite", "csv/", "parquet/", "report/", "health.xlsx", "fhir/ (4 files)", ".healthetl/runs.log", "--yes"] {
            XCTAssertTrue(dry.stderr.contains(name), "\(name) in \(dry.stderr)")
        }
        XCTAssertEqual(relativePaths(under: out), before, "nothing removed without --yes")

        let reset = try healthetl(["reset", "--out", out, "--yes"])
        XCTAssertEqual(reset.status, 0, reset.stderr)
        XCTAssertTrue(reset.stdout.contains("health.xlsx"), reset.stdout)
        XCTAssertEqual(relativePaths(under: out), [".healthetl", ".healthetl/lock"], "every output gone, the lock file stays")
        XCTAssertEqual(try healthetl(["reset", "--out", out, "--yes"]).status, 66, "nothing left to reset")
    }

    func testResetOfAPersonRemovesTheirDatasetPartitionsAndKeepsTheirSettings() throws {
        let dir = try temporaryFolder(self)
        let path = try write(Self.export(days: 3), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        for person in ["ann", "bob"] {
            XCTAssertEqual(try healthetl(["import", path, "--out", out, "--person", person, "--timezone", "UTC"]).status, 0)
        }
        XCTAssertEqual(try healthetl(["people", "set", "bob", "--units", "imperial", "--out", out]).status, 0)
        let ann = relativePaths(under: out + "/people/ann")
        let dry = try healthetl(["reset", "--out", out, "--person", "bob"])
        XCTAssertEqual(dry.status, 64)
        XCTAssertTrue(dry.stderr.contains("dataset/daily/person=bob"), dry.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/dataset/daily/person=bob"))

        let reset = try healthetl(["reset", "--out", out, "--person", "bob", "--yes"])
        XCTAssertEqual(reset.status, 0, reset.stderr)
        XCTAssertEqual(relativePaths(under: out + "/people/bob"), [".healthetl", ".healthetl/lock", "person.json"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/dataset/daily/person=bob"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/dataset/daily/person=ann"))
        XCTAssertEqual(relativePaths(under: out + "/people/ann"), ann, "ann untouched")
        XCTAssertTrue(try healthetl(["people", "show", "bob", "--out", out]).stdout.contains("units: imperial"))
    }

    func testSummaryOfAnIncrementalRunSaysWhatItDid() throws {
        let dir = try temporaryFolder(self)
        let first = try write(Self.export(days: 3), to: "first.xml", in: dir)
        let later = try write(Self.export(days: 5), to: "later.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let full = try healthetl(["import", first, "--out", out, "--timezone", "UTC"])
        XCTAssertEqual(full.status, 0, full.stderr)
        // The zone as asked for, not Foundation's "GMT".
        XCTAssertTrue(full.stderr.contains("local days in UTC (the --timezone option)"), full.stderr)
        XCTAssertFalse(full.stderr.contains("GMT"), full.stderr)
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT timezone FROM runs"), ["UTC"])
        // The report names it so too (Foundation's identifier for UTC is "GMT").
        let report = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertTrue(report.contains("UTC"), "the report names the zone")
        XCTAssertFalse(report.contains("GMT"), "the report names the zone as given")

        // Nothing new (the same records, in a file saved again so that it is read): no "0 days"
        // that reads as an empty store, and no file claimed rewritten.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: first)
        let same = try healthetl(["import", first, "--out", out])
        XCTAssertTrue(same.stderr.contains("analytics: no day to recompute; 3 days, 0 sleep nights in the store"), same.stderr)
        XCTAssertFalse(same.stderr.contains("0 days"), same.stderr)
        XCTAssertFalse(same.stderr.contains("→ wrote"), same.stderr)
        XCTAssertTrue(same.stderr.contains("unchanged: \(out)/csv, \(out)/parquet, \(out)/report/index.html, \(out)/health.xlsx"),
                      same.stderr)
        XCTAssertTrue(same.stderr.contains("local days in UTC (the zone of the earlier imports"), same.stderr)

        // Two new days: one count of recomputed days (with the neighbours either side), what had
        // data among them, and the store's total.
        let more = try healthetl(["import", later, "--out", out, "--json"])
        XCTAssertEqual(more.status, 0, more.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(more.stdout.utf8)) as? [String: Any] ?? [:]
        let touched = try XCTUnwrap(json["touched_days"] as? Int)
        let withData = try XCTUnwrap(json["days"] as? Int)
        XCTAssertEqual(json["store_days"] as? Int, 5)
        XCTAssertEqual(json["outputs_written"] as? [String], ["health.sqlite", "csv/", "parquet/", "report/index.html", "health.xlsx"])
        _ = try healthetl(["import", first, "--out", dir.appendingPathComponent("out3").path, "--timezone", "UTC"])
        let incremental = try healthetl(["import", later, "--out", dir.appendingPathComponent("out3").path])
        let lines = incremental.stderr.split(separator: "\n").filter { $0.contains("recomputed") }
        XCTAssertEqual(lines.count, 1, incremental.stderr)
        XCTAssertTrue(incremental.stderr.contains("analytics: \(touched) days recomputed (\(withData) with data, 0 sleep nights); "
            + "5 days, 0 sleep nights in the store"), incremental.stderr)
        XCTAssertTrue(incremental.stderr.contains("→ wrote "), incremental.stderr)
        XCTAssertFalse(incremental.stderr.contains("unchanged:"), incremental.stderr)
    }
}
