import Foundation
import XCTest
@testable import HealthCore
@testable import HealthIngest
@testable import SQLite
@testable import HealthStore
import TestSupport

/// Whole imports of an export folder and a zip holding ECG files, checked value by value in the
/// store and in Parquet (the reader itself: ECGReaderTests).
final class ECGImportTests: XCTestCase {
    // MARK: Whole imports

    struct Export {
        var path: String
        /// File name → voltages in µV, of the files that must be stored.
        var expected: [String: [Double]]
    }

    /// The sample export with two readable ECG files (one of 15,360 voltages) and one that is not,
    /// as a folder or as a zip (with Finder litter that must be ignored).
    private func makeExport(in folder: URL, zip: Bool) throws -> Export {
        let root = folder.appendingPathComponent("apple_health_export")
        let ecg = root.appendingPathComponent("electrocardiograms")
        try FileManager.default.createDirectory(at: ecg, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: OutputFilesTests.sampleExport, toPath: root.appendingPathComponent("export.xml").path)
        let long = ECGText.voltageTexts(15_360, seed: 11)
        let short = ECGText.voltageTexts(400, seed: 12).map { String(format: "%.3f", Double($0)! / 1000) }
        try write(ECGText.english(voltages: long), to: "ecg_2020-03-15.csv", in: ecg)
        try write(ECGText.german(voltages: short), to: "ecg_2020-03-16.csv", in: ecg)
        try write("this is not an ECG\n1\n2\n", to: "ecg_2020-03-17.csv", in: ecg)
        let expected = ["electrocardiograms/ecg_2020-03-15.csv": long.map { Double($0)! },
                        "electrocardiograms/ecg_2020-03-16.csv": short.map { Double($0)! * 1000 }]
        guard zip else { return Export(path: root.path, expected: expected) }
        let zipPath = folder.appendingPathComponent("export.zip").path
        try zipFolder(root.path, into: zipPath, adding: [("__MACOSX/apple_health_export/electrocardiograms/._ecg_2020-03-15.csv",
                                                           Data([0x00, 0x05, 0x16, 0x07]) + Data("junk".utf8))])
        try FileManager.default.removeItem(at: root)   // only the zip remains
        return Export(path: zipPath, expected: expected)
    }

    /// Every stored voltage, per source file, in sample order.
    private func storedVoltages(_ store: String) throws -> [String: [Double]] {
        var out: [String: [Double]] = [:]
        for row in try queryRows(store, """
            SELECT r.source_file, s.microvolts FROM ecg_samples s JOIN ecg_recordings r ON r.id = s.recording_id
            ORDER BY r.id, s.sample_index
            """) {
            out[row[0].string ?? "?", default: []].append(row[1].double ?? .nan)
        }
        return out
    }

    private func assertImported(_ export: Export, into out: String) throws {
        let summary = try importJSON(export.path, out)
        XCTAssertEqual(summary["ecg_recordings"] as? Int, export.expected.count)
        XCTAssertEqual(summary["ecg_files_unreadable"] as? Int, 1)
        let notes = summary["notes"] as? [String] ?? []
        XCTAssertTrue(notes.contains { $0.contains("ecg_2020-03-17.csv") && $0.contains("no recorded date") }, "\(notes)")
        let store = out + "/health.sqlite"
        XCTAssertEqual(try storedVoltages(store), export.expected)
        XCTAssertEqual(try query(store, "SELECT sample_count FROM ecg_recordings ORDER BY recorded_utc"),
                       export.expected.keys.sorted().map { "\(export.expected[$0]!.count)" })
        XCTAssertEqual(try query(store, "SELECT local_date || ' ' || classification || ' ' || device FROM ecg_recordings ORDER BY id"),
                       ["2020-03-15 Sinus Rhythm Watch4,4", "2020-03-16 Sinusrhythmus Watch5,1"])
        try assertParquet(out, equals: export.expected)
        // The report's Heart section lists both, newest first.
        let page = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        XCTAssertEqual(page.components(separatedBy: "<tr data-ecg=").dropFirst().map { String($0.prefix(10)) }, ["2020-03-16", "2020-03-15"])
    }

    /// The Parquet files read back with pyarrow: the same recordings and voltages, in order.
    private func assertParquet(_ out: String, equals expected: [String: [Double]], file: StaticString = #filePath,
                               line: UInt = #line) throws {
        let script = """
            import json, sys
            import pyarrow.parquet as pq
            rec = pq.read_table(sys.argv[1] + '/parquet/ecg_recordings.parquet').to_pydict()
            smp = pq.read_table(sys.argv[1] + '/parquet/ecg_samples.parquet').to_pydict()
            files = dict(zip(rec['id'], rec['source_file']))
            out = {}
            for rid, idx, uv in zip(smp['recording_id'], smp['sample_index'], smp['microvolts']):
                values = out.setdefault(files[rid], [])
                assert idx == len(values), (rid, idx, len(values))
                values.append(repr(uv))   # shortest round-trip text: JSON numbers may not come back exact
            print(json.dumps({'recordings': len(rec['id']), 'counts': dict(zip(rec['source_file'], rec['sample_count'])),
                              'voltages': out}))
            """
        let result = try runProcess(try TestTools.python(importing: ["pyarrow"]), ["-c", script, out])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["recordings"] as? Int, expected.count, file: file, line: line)
        XCTAssertEqual(json["counts"] as? [String: Int], expected.mapValues(\.count), file: file, line: line)
        let voltages = (json["voltages"] as? [String: [String]])?.mapValues { $0.map { Double($0) ?? .nan } }
        XCTAssertEqual(voltages, expected, file: file, line: line)
    }

    func testFolderImportStoresEveryVoltageAndSkipsTheUnreadableFile() throws {
        let folder = try temporaryFolder(self)
        let export = try makeExport(in: folder, zip: false)
        try assertImported(export, into: folder.appendingPathComponent("out").path)
    }

    /// A person's import puts their recordings and every voltage into the cohort dataset too,
    /// byte for byte their own Parquet files.
    func testAPersonsRecordingsAreInTheCohortDataset() throws {
        let folder = try temporaryFolder(self)
        let export = try makeExport(in: folder, zip: false)
        let out = folder.appendingPathComponent("out").path
        let r = try healthetl(["import", export.path, "--out", out, "--person", "ann", "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        try assertParquet(out + "/people/ann", equals: export.expected)
        for table in ["ecg_recordings", "ecg_samples"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/dataset/\(table)/person=ann/part-0.parquet")),
                           try Data(contentsOf: URL(fileURLWithPath: out + "/people/ann/parquet/\(table).parquet")), table)
        }
    }

    /// A zip, then the same zip again (a nightly run over a cumulative export: nothing is added),
    /// then one with a new recording (added, and the files rewritten).
    func testZipImportThenIncrementalRunsAddOnlyNewRecordings() throws {
        let folder = try temporaryFolder(self)
        var export = try makeExport(in: folder, zip: true)
        let out = folder.appendingPathComponent("out").path
        try assertImported(export, into: out)
        let store = out + "/health.sqlite"

        XCTAssertEqual(try importJSON(export.path, out)["mode"] as? String, "unchanged", "the very same zip is not read again")
        let copy = folder.appendingPathComponent("copy.zip").path
        try FileManager.default.copyItem(atPath: export.path, toPath: copy)
        let again = try importJSON(copy, out)
        XCTAssertEqual(again["mode"] as? String, "nothing-new", "the same recordings in another file: read, nothing new")
        XCTAssertEqual(again["new_ecg_recordings"] as? Int, 0)
        XCTAssertEqual(try storedVoltages(store), export.expected)

        let added = ECGText.voltageTexts(512, seed: 13)
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'a', zipfile.ZIP_DEFLATED) as z:
                z.writestr('apple_health_export/electrocardiograms/ecg_2020-03-18.csv', sys.argv[2])
            """
        let text = ECGText.english(recorded: "2020-03-18 07:00:00 +0100", device: "Watch6,1", voltages: added)
        XCTAssertEqual(try runProcess(try TestTools.python(), ["-c", script, export.path, text]).status, 0)
        export.expected["electrocardiograms/ecg_2020-03-18.csv"] = added.map { Double($0)! }
        let third = try importJSON(export.path, out)
        XCTAssertEqual(third["mode"] as? String, "incremental")
        XCTAssertEqual(third["new_ecg_recordings"] as? Int, 1)
        XCTAssertEqual(try storedVoltages(store), export.expected)
        try assertParquet(out, equals: export.expected)
    }

    /// A store of schema 3 (before ECG) stays incremental: the next import adds the tables and
    /// the export's recordings, without rebuilding the store.
    func testStoreOfSchema3IsUpgradedInPlace() throws {
        let folder = try temporaryFolder(self)
        let export = try makeExport(in: folder, zip: false)
        let out = folder.appendingPathComponent("out").path
        _ = try importJSON(export.path, out)
        let store = out + "/health.sqlite"
        do {   // closed before the next import opens the store
            let db = try Database(path: store, mode: .readWrite)
            try db.execute("""
                DROP TABLE ecg_samples; DROP TABLE ecg_recordings; ALTER TABLE daily_analytics DROP COLUMN partial_day;
                PRAGMA user_version = 3
                """)
        }
        let runsBefore = try query(store, "SELECT count(*) FROM runs")

        let upgraded = try importJSON(export.path, out)
        XCTAssertEqual(upgraded["mode"] as? String, "incremental")
        XCTAssertEqual(upgraded["new_ecg_recordings"] as? Int, export.expected.count)
        XCTAssertEqual(try query(store, "PRAGMA user_version"), [String(StoreSchema.version)], "upgraded in place from 3 to the latest")
        XCTAssertEqual(try query(store, "SELECT count(*) - 1 FROM runs"), runsBefore)
        XCTAssertEqual(try storedVoltages(store), export.expected)
        try assertParquet(out, equals: export.expected)
    }
}
