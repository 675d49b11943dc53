import Foundation
import XCTest
@testable import HealthCore
@testable import HealthIngest
@testable import SQLite
@testable import HealthStore

/// ECG recordings (`electrocardiograms/ecg_….csv`): the reader on files made here (English and
/// German headers, units, decimal commas, line ends, damage), then whole imports of an export
/// folder and a zip holding such files, checked value by value in the store and in Parquet.
final class ECGTests: XCTestCase {
    // MARK: Fixtures

    /// Voltages as a watch prints them (three decimals), from a seeded generator.
    static func voltageTexts(_ count: Int, seed: UInt64) -> [String] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let fraction = Double(state >> 11) / Double(1 << 53)
            return String(format: "%.3f", fraction * 2000 - 500)
        }
    }

    static func english(recorded: String = "2020-03-15 09:41:23 -0700", classification: String = "Sinus Rhythm",
                        device: String = "Watch4,4", unit: String = "µV", extraHeader: [String] = [],
                        voltages: [String]) -> String {
        (["Name,Jane Appleseed", "Date of Birth,\"Jan 1, 1980\"", "Recorded Date,\(recorded)",
          "Classification,\(classification)", "Symptoms,", "Software Version,1.70", "Device,\"\(device)\"",
          "Sample Rate,512 hertz"] + extraHeader + [",", "Lead,Lead I", "Unit,\(unit)", ",", ","] + voltages)
            .joined(separator: "\n") + "\n"
    }

    /// German keys, millivolts with decimal commas (quoted, as the files write them), CRLF, BOM.
    static func german(voltages: [String]) -> String {
        "\u{FEFF}" + (["Name,Max Mustermann", "Geburtsdatum,01.01.1980", "Aufnahmedatum,2020-03-16 10:00:00 +0100",
                       "Klassifizierung,Sinusrhythmus", "Symptome,Schwindel", "Softwareversion,1.70",
                       "Gerät,\"Watch5,1\"", "Abtastrate,\"512,000 Hertz\"", ",", "Ableitung,Ableitung I", "Einheit,mV", ",", ","]
            + voltages.map { "\"\($0.replacingOccurrences(of: ".", with: ","))\"" }).joined(separator: "\r\n") + "\r\n"
    }

    private func parse(_ text: String, _ name: String = "electrocardiograms/ecg_test.csv") throws -> ECGRecording {
        try ECGReader.parse(bytes: Array(text.utf8), fileName: name)
    }

    private func assertUnreadable(_ text: String, _ reason: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(text), file: file, line: line) { error in
            XCTAssertTrue((error as? ECGUnreadable)?.reason.contains(reason) == true, "\(error)", file: file, line: line)
        }
    }

    // MARK: Reader

    func testEnglishFileGivesEveryFieldAndEveryVoltageInOrder() throws {
        let voltages = Self.voltageTexts(15_360, seed: 1)
        let r = try parse(Self.english(voltages: voltages))
        XCTAssertEqual(r.recordedAt.iso8601, "2020-03-15T16:41:23Z")
        XCTAssertEqual(r.classification, "Sinus Rhythm")
        XCTAssertNil(r.symptoms)
        XCTAssertEqual(r.softwareVersion, "1.70")
        XCTAssertEqual(r.device, "Watch4,4")
        XCTAssertEqual(r.sampleRateHz, 512)
        XCTAssertEqual(r.lead, "Lead I")
        XCTAssertEqual(r.unit, "µV")
        XCTAssertNil(r.averageHeartRate)
        XCTAssertEqual(r.microvolts, voltages.map { Double($0)! })
        XCTAssertEqual(r.skippedLines, 0)
        XCTAssertEqual(r.sourceFile, "electrocardiograms/ecg_test.csv")
    }

    func testGermanFileWithMillivoltsDecimalCommasCRLFAndByteOrderMark() throws {
        let voltages = Self.voltageTexts(50, seed: 2).map { String(format: "%.3f", Double($0)! / 1000) }
        let r = try parse(Self.german(voltages: voltages))
        XCTAssertEqual(r.recordedAt.iso8601, "2020-03-16T09:00:00Z")
        XCTAssertEqual(r.classification, "Sinusrhythmus")
        XCTAssertEqual(r.symptoms, "Schwindel")
        XCTAssertEqual(r.device, "Watch5,1")
        XCTAssertEqual(r.sampleRateHz, 512)
        XCTAssertEqual(r.lead, "Ableitung I")
        XCTAssertEqual(r.unit, "mV")
        XCTAssertEqual(r.microvolts, voltages.map { Double($0)! * 1000 })
    }

    func testUnquotedDecimalCommaVoltsAndMissingOptionalLines() throws {
        // Only the recorded date and the voltages; an unquoted decimal comma splits a line in two fields.
        let r = try parse("Recorded Date,2021-01-02 03:04:05 +0000\r\nUnit,V\r\n,\r\n-0,000061\r\n0,0005\r\n")
        XCTAssertEqual(r.recordedAt.iso8601, "2021-01-02T03:04:05Z")
        XCTAssertEqual(r.microvolts, [-0.000061 * 1_000_000, 0.0005 * 1_000_000])
        XCTAssertNil(r.classification)
        XCTAssertNil(r.device)
        XCTAssertNil(r.sampleRateHz)
        XCTAssertNil(r.lead)
    }

    func testNewHeaderLinesAreSkippedAndAverageHeartRateIsRead() throws {
        let r = try parse(Self.english(extraHeader: ["Average Heart Rate,72 BPM", "Pacemaker,None"], voltages: ["1.5", "2.5"]))
        XCTAssertEqual(r.averageHeartRate, 72)
        XCTAssertEqual(r.softwareVersion, "1.70")
        XCTAssertEqual(r.microvolts, [1.5, 2.5])
        // Without that line, a rate in the classification counts.
        let inClassification = try parse(Self.english(classification: "Sinus Rhythm 64 BPM", voltages: ["1"]))
        XCTAssertEqual(inClassification.averageHeartRate, 64)
        XCTAssertEqual(inClassification.classification, "Sinus Rhythm 64 BPM")
    }

    /// A language whose keys we do not know: the date, rate and watch by their shape, the rest
    /// by Apple's order of the lines.
    func testUnknownLanguageByShapeAndPosition() throws {
        let text = ["Имя,Иван", "Дата рождения,\"1 янв. 1980 г.\"", "Дата записи,15.03.2020 17:41:23 +0100",
                    "Классификация,Синусовый ритм", "Симптомы,", "Версия ПО,1.70", "Устройство,\"Watch4,4\"",
                    "Частота дискретизации,512 Гц", ",", "Отведение,Отведение I", "Единицы,мкВ", ",", "12.5", "-3.25"]
            .joined(separator: "\n")
        let r = try parse(text)
        XCTAssertEqual(r.recordedAt.iso8601, "2020-03-15T16:41:23Z")
        XCTAssertEqual(r.classification, "Синусовый ритм")
        XCTAssertEqual(r.softwareVersion, "1.70")
        XCTAssertEqual(r.device, "Watch4,4")
        XCTAssertEqual(r.sampleRateHz, 512)
        XCTAssertEqual(r.lead, "Отведение I")
        XCTAssertEqual(r.microvolts, [12.5, -3.25])
    }

    func testGarbageAmongTheVoltagesIsSkippedAndCounted() throws {
        let r = try parse(Self.english(voltages: ["1.25", "garbage", "2.5", "1e400", "nan", "0x10", "", ",", "-3.75"]))
        XCTAssertEqual(r.microvolts, [1.25, 2.5, -3.75])
        XCTAssertEqual(r.skippedLines, 4)
    }

    func testRecordedDateForms() {
        let instant = ECGDateText.instant("2020-03-15 09:41:23 -0700")
        XCTAssertEqual(instant?.iso8601, "2020-03-15T16:41:23Z")
        for form in ["15.03.2020 17:41:23 +0100", "15.03.2020, 17:41:23 +01:00", "2020-03-15T16:41:23Z",
                     "2020-03-15 16:41:23 UTC", "2020/03/15 18:41:23 GMT+0200", "2020-03-15 16:41 +0000"] {
            XCTAssertEqual(ECGDateText.instant(form)?.iso8601, form.hasSuffix("41 +0000") ? "2020-03-15T16:41:00Z"
                           : instant?.iso8601, form)
        }
        // Birth dates, a time without its offset and nonsense are not instants.
        for text in ["Jan 1, 1980", "01.01.1980", "2020-03-15 09:41:23", "2020-13-15 09:41:23 +0000",
                     "2020-03-15 25:00:00 +0000", "03/15/2020 09:41:23 +0000", "99999-01-01 00:00:00 +0000", ""] {
            XCTAssertNil(ECGDateText.instant(text), text)
        }
    }

    func testChunksOfAnySizeGiveTheSameRecording() throws {
        let text = Self.german(voltages: Self.voltageTexts(300, seed: 3))
        let whole = try parse(text)
        let bytes = Array(text.utf8)
        for size in [1, 2, 3, 7, 64] {
            var parser = ECGParser(fileName: "electrocardiograms/ecg_test.csv")
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + size, bytes.count)
                try bytes[offset..<end].withUnsafeBytes { try parser.feed($0) }
                offset = end
            }
            let chunked = try parser.finish()
            XCTAssertEqual(chunked.microvolts, whole.microvolts, "chunks of \(size)")
            XCTAssertEqual(chunked.recordedAt, whole.recordedAt, "chunks of \(size)")
            XCTAssertEqual(chunked.classification, whole.classification, "chunks of \(size)")
        }
    }

    func testUnreadableFilesSayWhy() {
        assertUnreadable("", "no recorded date")
        assertUnreadable(Self.english(voltages: []), "no voltages")
        assertUnreadable("\u{0}\u{1}PK\u{3}\u{4} binary junk\n\u{FF}\u{FE}\n", "no recorded date")
        assertUnreadable(Self.english(recorded: "yesterday", voltages: ["1"]), "its recorded date 'yesterday' cannot be read")
        assertUnreadable(Self.english(unit: "mmHg", voltages: ["1"]), "its unit 'mmHg' is not a voltage")
        assertUnreadable("Recorded Date,2020-03-15 09:41:23 -0700\n" + String(repeating: "1", count: 5000) + "\n",
                         "line 2 is longer than \(ECGReader.maximumLineBytes) bytes")
    }

    /// A hostile file cannot make the reader hold more than `maximumSamples` voltages.
    func testTooManyVoltagesIsUnreadable() throws {
        var parser = ECGParser(fileName: "electrocardiograms/ecg_big.csv")
        try Array("Recorded Date,2020-03-15 09:41:23 -0700\n".utf8).withUnsafeBytes { try parser.feed($0) }
        let block = Array(String(repeating: "1\n", count: 100_000).utf8)
        var failure: ECGUnreadable?
        for _ in 0..<11 where failure == nil {
            do { try block.withUnsafeBytes { try parser.feed($0) } } catch let error as ECGUnreadable { failure = error }
        }
        XCTAssertEqual(failure?.reason, "more than \(ECGReader.maximumSamples) voltages")
    }

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
        let long = Self.voltageTexts(15_360, seed: 11)
        let short = Self.voltageTexts(400, seed: 12).map { String(format: "%.3f", Double($0)! / 1000) }
        try write(Self.english(voltages: long), to: "ecg_2020-03-15.csv", in: ecg)
        try write(Self.german(voltages: short), to: "ecg_2020-03-16.csv", in: ecg)
        try write("this is not an ECG\n1\n2\n", to: "ecg_2020-03-17.csv", in: ecg)
        let expected = ["electrocardiograms/ecg_2020-03-15.csv": long.map { Double($0)! },
                        "electrocardiograms/ecg_2020-03-16.csv": short.map { Double($0)! * 1000 }]
        guard zip else { return Export(path: root.path, expected: expected) }
        let zipPath = folder.appendingPathComponent("export.zip").path
        let script = """
            import os, sys, zipfile
            root, out = sys.argv[1], sys.argv[2]
            base = os.path.dirname(root)
            with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
                for d, _, files in os.walk(root):
                    for f in sorted(files):
                        p = os.path.join(d, f)
                        z.write(p, os.path.relpath(p, base))
                z.writestr('__MACOSX/apple_health_export/electrocardiograms/._ecg_2020-03-15.csv', b'\\x00\\x05\\x16\\x07junk')
            """
        let made = try runProcess("/usr/bin/env", ["python3", "-c", script, root.path, zipPath])
        XCTAssertEqual(made.status, 0, made.stderr)
        try FileManager.default.removeItem(at: root)   // only the zip remains
        return Export(path: zipPath, expected: expected)
    }

    private func importJSON(_ export: String, _ out: String) throws -> [String: Any] {
        let result = try healthetl(["import", export, "--out", out, "--timezone", "Europe/Berlin", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
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
        let result = try runProcess(try pythonWithPyarrow(), ["-c", script, out])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["recordings"] as? Int, expected.count, file: file, line: line)
        XCTAssertEqual(json["counts"] as? [String: Int], expected.mapValues(\.count), file: file, line: line)
        let voltages = (json["voltages"] as? [String: [String]])?.mapValues { $0.map { Double($0) ?? .nan } }
        XCTAssertEqual(voltages, expected, file: file, line: line)
    }

    /// `HEALTHETL_PYTHON` when set, else the package's `.venv`, else `python3`: one that has pyarrow.
    private func pythonWithPyarrow() throws -> String {
        let candidates = ProcessInfo.processInfo.environment["HEALTHETL_PYTHON"].map { [$0] }
            ?? [TestPaths.packageRoot.appendingPathComponent(".venv/bin/python").path, "/usr/bin/python3"]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            if try runProcess(candidate, ["-c", "import pyarrow"]).status == 0 { return candidate }
        }
        throw OutputFilesTests.Failure("no Python with pyarrow in \(candidates): run `make venv` or set HEALTHETL_PYTHON")
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

        let added = Self.voltageTexts(512, seed: 13)
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'a', zipfile.ZIP_DEFLATED) as z:
                z.writestr('apple_health_export/electrocardiograms/ecg_2020-03-18.csv', sys.argv[2])
            """
        let text = Self.english(recorded: "2020-03-18 07:00:00 +0100", device: "Watch6,1", voltages: added)
        XCTAssertEqual(try runProcess("/usr/bin/env", ["python3", "-c", script, export.path, text]).status, 0)
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
