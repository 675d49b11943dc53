import XCTest
import SQLite
import TestSupport

/// A nightly run over a new export file whose records the store already holds (`NothingNew`)
/// leaves the store and every output as published and logs the run; a record the store lacks,
/// or an export made later (its `ExportDate` moved), is imported and published as before.
final class NothingNewTests: XCTestCase {
    private func inode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
    }

    private func modified(_ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }

    /// A generated export imported into `out`, and its text.
    private func imported(_ dir: URL) throws -> (xml: String, out: String, text: String) {
        let xml = dir.appendingPathComponent("export.xml").path, out = dir.appendingPathComponent("out").path
        try generateExport(["--out", xml, "--days", "6", "--start", "2024-03-01", "--seed", "5"])
        XCTAssertEqual(try importJSON(xml, out)["mode"] as? String, "full")
        return (xml, out, try String(contentsOfFile: xml, encoding: .utf8))
    }

    /// The same export written as a new file (another name and time): what a person's next
    /// export looks like when it brings nothing new.
    private func newFile(_ dir: URL, _ text: String) throws -> String {
        let path = dir.appendingPathComponent("next-export-\(UUID().uuidString.prefix(8)).xml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testANewFileOfKnownRecordsPublishesNothingAndLogsTheRun() throws {
        let dir = try temporaryFolder(self)
        let (_, out, text) = try imported(dir)
        let store = out + "/health.sqlite", report = out + "/report/index.html", csv = out + "/csv"
        let before = (try inode(store), try modified(store), try modified(report), try modified(csv))

        let next = try newFile(dir, text)
        let summary = try importJSON(next, out)
        XCTAssertEqual(summary["mode"] as? String, "nothing-new")
        XCTAssertGreaterThan(summary["skipped_by_anchor"] as? Int ?? 0, 0, "the file was read")
        XCTAssertEqual(summary["new_samples"] as? Int, 0)
        XCTAssertEqual(summary["outputs_written"] as? [String], [])
        XCTAssertGreaterThan(summary["store_days"] as? Int ?? 0, 0)
        XCTAssertEqual(try inode(store), before.0, "the store is not replaced")
        XCTAssertEqual(try modified(store), before.1)
        XCTAssertEqual(try modified(report), before.2)
        XCTAssertEqual(try modified(csv), before.3)
        XCTAssertEqual(try query(store, "SELECT count(*) FROM runs"), ["1"])
        let log = try String(contentsOfFile: out + "/.healthetl/runs.log", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(log.count, 2, "the run is logged")
        XCTAssertTrue(log.last?.contains("\"mode\":\"nothing-new\"") == true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/.healthetl/checkpoint.json"), "no load left to resume")

        let status = try healthetl(["status", "--out", out])
        XCTAssertTrue(status.stdout.contains("then 1 run that found nothing new"), status.stdout)
        // The file is now the one the store holds: the next night reads nothing.
        XCTAssertEqual(try importJSON(next, out)["mode"] as? String, "unchanged")
        XCTAssertEqual(try inode(store), before.0)
    }

    func testANewFileWithOneNewRecordImportsIt() throws {
        let dir = try temporaryFolder(self)
        let (_, out, text) = try imported(dir)
        let store = out + "/health.sqlite"
        let storeBefore = try inode(store)
        let record = """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="NothingNewTests" unit="count" \
            creationDate="2024-03-06 21:00:00 +0100" startDate="2024-03-06 20:00:00 +0100" \
            endDate="2024-03-06 20:30:00 +0100" value="1234"/>

            """
        let end = try XCTUnwrap(text.range(of: "</HealthData>"))
        let next = try newFile(dir, text.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: record))
        let summary = try importJSON(next, out)
        XCTAssertEqual(summary["mode"] as? String, "incremental")
        XCTAssertEqual(summary["new_samples"] as? Int, 1)
        XCTAssertNotEqual(try inode(store), storeBefore, "the store is published anew")
        XCTAssertEqual(try query(store, "SELECT count(*) FROM sample_data s JOIN sources src ON src.id = s.source_id "
                                 + "WHERE src.name = 'NothingNewTests'"), ["1"])
        XCTAssertEqual(try query(store, "SELECT count(*) FROM runs"), ["2"])
    }

    /// A new workout among known ones: only it is written to the run's delta (the known ones,
    /// with their events and statistics, are not written again), and the store gains it alone.
    func testANewFileWithOneNewWorkoutWritesOnlyIt() throws {
        let dir = try temporaryFolder(self)
        let (_, out, text) = try imported(dir)
        let store = out + "/health.sqlite"
        let counts = "SELECT (SELECT count(*) FROM workouts) || ' ' || (SELECT count(*) FROM workout_events) || ' ' || "
            + "(SELECT count(*) FROM workout_statistics)"
        let known = try XCTUnwrap(Int(try query(store, "SELECT count(*) FROM workouts")[0]))
        XCTAssertGreaterThan(known, 0, "the export holds workouts to repeat")
        let before = try query(store, counts)
        let workout = """
             <Workout workoutActivityType="HKWorkoutActivityTypeRowing" duration="30" durationUnit="min" \
            sourceName="NothingNewTests" creationDate="2024-03-06 21:00:00 +0100" \
            startDate="2024-03-06 20:00:00 +0100" endDate="2024-03-06 20:30:00 +0100">
              <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-03-06 20:10:00 +0100"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-03-06 20:00:00 +0100" \
            endDate="2024-03-06 20:30:00 +0100" sum="250" unit="kcal"/>
             </Workout>

            """
        let end = try XCTUnwrap(text.range(of: "</HealthData>"))
        let summary = try importJSON(try newFile(dir, text.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: workout)), out)
        XCTAssertEqual(summary["mode"] as? String, "incremental")
        XCTAssertEqual(summary["new_workouts"] as? Int, 1)
        XCTAssertEqual(summary["workouts"] as? Int, 1, "the known workouts were not written again")
        let parts = try XCTUnwrap(before.first).split(separator: " ").compactMap { Int($0) }
        XCTAssertEqual(try query(store, counts), ["\(parts[0] + 1) \(parts[1] + 1) \(parts[2] + 1)"])
        XCTAssertEqual(try query(store, "SELECT activity_type FROM workouts WHERE source_name = 'NothingNewTests'"),
                       ["HKWorkoutActivityTypeRowing"])
    }

    func testALaterExportDateIsPublished() throws {
        let dir = try temporaryFolder(self)
        let (_, out, text) = try imported(dir)
        let store = out + "/health.sqlite"
        let exportedBefore = try query(store, "SELECT export_date_utc FROM profile")
        let pattern = try NSRegularExpression(pattern: #"<ExportDate value="([^"]*)""#)
        let match = try XCTUnwrap(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)))
        let range = try XCTUnwrap(Range(match.range(at: 1), in: text))
        // A day later, at the same time of day.
        let old = String(text[range])
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        let date = try XCTUnwrap(parser.date(from: old)).addingTimeInterval(86_400)
        parser.timeZone = TimeZone(secondsFromGMT: 3600)
        let next = try newFile(dir, text.replacingCharacters(in: range, with: parser.string(from: date)))

        let summary = try importJSON(next, out)
        XCTAssertEqual(summary["mode"] as? String, "incremental", "another export date is a change a reader sees")
        XCTAssertEqual(summary["new_samples"] as? Int, 0)
        XCTAssertNotEqual(try query(store, "SELECT export_date_utc FROM profile"), exportedBefore)
        XCTAssertTrue((summary["outputs_written"] as? [String] ?? []).contains("report/index.html"),
                      "the report shows the export's time and its partial day")
    }

    /// The check reads the delta against the store by the merger's own rules: for every kind of
    /// row it judges, a delta with one row the store lacks is new, and the same rows are not.
    func testTheMergersRulesDecide() throws {
        let dir = try temporaryFolder(self)
        let (_, out, text) = try imported(dir)
        let store = out + "/health.sqlite"
        // A new file with the summaries of one day changed: the merger would replace the row.
        let pattern = try NSRegularExpression(pattern: #"<ActivitySummary [^>]*activeEnergyBurned="([0-9.]+)""#)
        let match = try XCTUnwrap(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)))
        let range = try XCTUnwrap(Range(match.range(at: 1), in: text))
        let grown = try newFile(dir, text.replacingCharacters(in: range, with: "9999"))
        XCTAssertEqual(try importJSON(grown, out)["mode"] as? String, "incremental", "a summary that grew")
        XCTAssertEqual(try query(store, "SELECT count(*) FROM activity_summaries WHERE active_energy_kcal = 9999"), ["1"])
        XCTAssertEqual(try importJSON(try newFile(dir, text.replacingCharacters(in: range, with: "9999")), out)["mode"] as? String,
                       "nothing-new", "the same summaries again")
    }
}
