import Foundation
import XCTest
import TestSupport

/// Issue 26: hostile files. Each one either fails with a sysexits code and a message that names
/// the file and what is wrong, leaving the outputs an earlier import published byte for byte,
/// or is imported with its bad records quarantined. Never a crash, never a hang.
final class HostileFilesTests: XCTestCase {
    private static let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
    private static let stepRecord = HostileInputTests.record(value: "5")

    /// A folder with the sample imported into `out`, and the published outputs' bytes.
    private func publishedFolder() throws -> (dir: URL, out: String, before: [String: Data]) {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        let first = try healthetl(["import", Self.sample, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(first.status, 0, first.stderr)
        return (dir, out, try publishedOutputs(out))
    }

    /// Imports `path` into `out` and expects it refused with `code`, a message naming the file
    /// and saying each of `phrases`, within `seconds`, and nothing published changed.
    private func assertRefused(_ path: String, into out: String, before: [String: Data], code: Int32 = 65,
                               saying phrases: [String], within seconds: TimeInterval = 30,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        try assertImportRefused(path, into: out, code: code, saying: [(path as NSString).lastPathComponent] + phrases,
                                within: seconds, before: before, file: file, line: line)
    }

    // MARK: entities

    func testEntitiesAreNeverExpandedOrLoadedWhereverTheyAppear() throws {
        let (dir, out, before) = try publishedFolder()
        // A FIFO with no writer: opening it to read would hang the import (and the test's timeout).
        let fifo = dir.appendingPathComponent("secret").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let laughs = "<!ENTITY lol \"lol\">" + (2...9).map { level in
            "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 2 ? "" : String(level - 1));", count: 10) + "\">"
        }.joined()
        let record = Self.stepRecord
        func export(prolog: String = "", body: String = record) -> String {
            "<?xml version=\"1.0\"?>\n" + prolog + "<HealthData locale=\"en_US\">\n" + body + "\n</HealthData>\n"
        }
        let inAttribute = record.replacingOccurrences(of: "sourceName=\"x\"", with: "sourceName=\"&lol9;\"")
        let cases: [(name: String, text: String, says: String)] = [
            ("laughs-attribute.xml", export(prolog: "<!DOCTYPE HealthData [\(laughs)]>\n", body: inAttribute), "Entity 'lol9' not defined"),
            ("laughs-content.xml", export(prolog: "<!DOCTYPE HealthData [\(laughs)]>\n", body: record + "&lol9;"), "Entity 'lol9' not defined"),
            ("external.xml", export(prolog: "<!DOCTYPE HealthData [<!ENTITY x SYSTEM \"file://\(fifo)\">]>\n",
                                    body: inAttribute.replacingOccurrences(of: "&lol9;", with: "&x;")), "Entity 'x' not defined"),
            ("parameter.xml", export(prolog: "<!DOCTYPE HealthData [<!ENTITY % p SYSTEM \"file://\(fifo)\"> %p; <!ENTITY x \"y\">]>\n",
                                     body: inAttribute.replacingOccurrences(of: "&lol9;", with: "&x;")), "Entity 'x' not defined"),
            ("after-comment.xml", export(prolog: "<!-- a comment --><?pi data?>\n<!DOCTYPE HealthData [\(laughs)]>\n", body: inAttribute),
             "Entity 'lol9' not defined"),
            ("no-doctype.xml", export(body: inAttribute), "Entity 'lol9' not defined"),
            ("doctype-inside.xml", export(body: record + "\n<!DOCTYPE HealthData [\(laughs)]>\n" + inAttribute), "not well-formed"),
        ]
        for entry in cases {
            try assertRefused(try write(entry.text, to: entry.name, in: dir), into: out, before: before,
                              saying: [entry.says], within: 20)
        }
        // Declared but never referenced, anywhere in the internal subset: the import goes on and
        // the FIFO is never opened.
        let unused = export(prolog: "<!DOCTYPE HealthData [\(laughs)<!ENTITY % p SYSTEM \"file://\(fifo)\"> %p;]>\n")
        let fresh = dir.appendingPathComponent("fresh").path
        let result = try runProcess(TestPaths.binary, ["import", try write(unused, to: "unused.xml", in: dir), "--out", fresh,
                                                       "--quiet", "--timezone", "UTC"], timeout: 30)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try query(fresh + "/health.sqlite", "SELECT source_name, value FROM samples"), ["x"])
    }

    // MARK: sizes and depths

    func testA200MBAttributeIsQuarantinedWithBoundedMemory() throws {
        let dir = try temporaryFolder(self)
        let path = dir.appendingPathComponent("huge-attribute.xml").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(("<HealthData locale=\"en_US\">\n" + Self.stepRecord.dropLast(2) + " device=\"").utf8))
        let megabyte = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<200 { try handle.write(contentsOf: megabyte) }
        let good = HostileInputTests.record(value: "7", start: "2024-02-14 10:00:00 +0000", end: "2024-02-14 11:00:00 +0000")
        try handle.write(contentsOf: Data(("\"/>\n" + good + "\n</HealthData>\n").utf8))
        try handle.close()

        let out = dir.appendingPathComponent("out").path
        let (result, peak) = try runMeasuringPeakMemory(["import", path, "--out", out, "--quiet", "--timezone", "UTC"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT reason FROM quarantine"),
                       ["unreadable device value of 209715200 bytes (over the 65536-byte limit)"])
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT sum(value) FROM samples"), ["7.0"])
        // libxml2 holds the start tag whole (about 300 MB); before the cap a copy of each value
        // followed it (1.3 GB). Nothing of ours may multiply it.
        XCTAssertLessThan(peak, 700 << 20, "peak memory \(peak >> 20) MB")
    }

    func testAHundredThousandNestedElementsEndQuickly() throws {
        let dir = try temporaryFolder(self)
        let depth = 100_000
        let nestings = [
            ("unknown", "<a>", "</a>"),
            ("records", Self.stepRecord.dropLast(2) + ">", "</Record>"),
            ("workouts", "<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"10\" durationUnit=\"min\" "
                + "sourceName=\"x\" startDate=\"2024-02-13 10:00:00 +0000\" endDate=\"2024-02-13 11:00:00 +0000\">", "</Workout>"),
            ("metadata", "<MetadataEntry key=\"k\" value=\"v\">", "</MetadataEntry>"),
        ]
        for (name, open, close) in nestings {
            let nesting = String(repeating: open, count: depth) + String(repeating: close, count: depth)
            let text = ExportXML.document([Self.stepRecord, nesting], exportDate: nil, declaration: false)
            let out = dir.appendingPathComponent("out-\(name)").path
            let started = Date()
            let result = try runProcess(TestPaths.binary, ["import", try write(text, to: "\(name).xml", in: dir), "--out", out,
                                                           "--quiet", "--json", "--timezone", "UTC"], timeout: 60)
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertLessThan(Date().timeIntervalSince(started), 20, name)
            // The first record, outside the nesting, is imported whatever the nesting holds.
            XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM samples WHERE source_name = 'x' AND value = 5"),
                           ["1"], name)
        }
    }

    // MARK: zips

    func testAZipBombIsRefusedPastTheDocumentedRatio() throws {
        let (dir, out, before) = try publishedFolder()
        let zip = dir.appendingPathComponent("bomb.zip").path
        // 300 MiB of spaces inside a valid export: about 300 KB of deflate.
        try makeZip(zip, """
            with z.open('apple_health_export/export.xml', 'w', force_zip64=True) as f:
                f.write(b'<HealthData locale="en_US">\\n')
                for _ in range(300): f.write(b' ' * (1 << 20))
                f.write(b'</HealthData>\\n')
            """)
        try assertRefused(zip, into: out, before: before, saying: ["apple_health_export/export.xml", "refused as a zip bomb"],
                          within: 30)
    }

    func testHostileZipEntriesAreRefusedOrNeverFollowed() throws {
        let (dir, out, before) = try publishedFolder()
        let export = HostileInputTests.export([Self.stepRecord])
        let link = "zi = zipfile.ZipInfo(NAME); zi.create_system = 3; zi.external_attr = 0o120777 << 16; z.writestr(zi, TARGET)"
        // An export whose only XML is a symbolic link (to /etc/passwd): never followed.
        let symlink = dir.appendingPathComponent("symlink.zip").path
        try makeZip(symlink, link.replacingOccurrences(of: "NAME", with: "'apple_health_export/export.xml'")
            .replacingOccurrences(of: "TARGET", with: "'/etc/passwd'"))
        try assertRefused(symlink, into: out, before: before, saying: ["symbolic links are never followed", "export.xml"])

        // An encrypted entry.
        let encrypted = dir.appendingPathComponent("encrypted.zip").path
        try makeZip(encrypted, "z.writestr('apple_health_export/export.xml', sys.argv[2])", export)
        try setEncryptedFlag(encrypted)
        try assertRefused(encrypted, into: out, before: before, saying: ["is encrypted"])

        // Central directories cut short, with and without their end record.
        let whole = dir.appendingPathComponent("whole.zip").path
        try makeZip(whole, "z.writestr('apple_health_export/export.xml', sys.argv[2])", export)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let directory = try XCTUnwrap(bytes.range(of: Data([0x50, 0x4B, 0x01, 0x02]))).lowerBound
        let end = try XCTUnwrap(bytes.range(of: Data([0x50, 0x4B, 0x05, 0x06]))).lowerBound
        let cut = dir.appendingPathComponent("cut-directory.zip")
        try bytes[..<(directory + 20)].write(to: cut)
        try assertRefused(cut.path, into: out, before: before, saying: ["truncated"])
        let cutWithEnd = dir.appendingPathComponent("cut-directory-with-end.zip")
        try (bytes[..<(directory + 20)] + bytes[end...]).write(to: cutWithEnd)
        try assertRefused(cutWithEnd.path, into: out, before: before, saying: ["central directory"])

        // Entries named `../x` and `/abs` are only ever read, never written anywhere: the import
        // takes one, and the folder holds nothing new but the output.
        let traversal = dir.appendingPathComponent("traversal.zip").path
        try makeZip(traversal, "z.writestr('../../x/export.xml', sys.argv[2]); z.writestr('/abs/export.xml', sys.argv[2])", export)
        let listed = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        let fresh = dir.appendingPathComponent("fresh").path
        let result = try healthetl(["import", traversal, "--out", fresh, "--quiet", "--timezone", "UTC"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try query(fresh + "/health.sqlite", "SELECT count(*) FROM samples"), ["1"])
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)), listed.union(["fresh"]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("x").path))

        // A route whose zip entry is a symbolic link is a missing route (saying why), not a read of its target.
        let route = dir.appendingPathComponent("route-link.zip").path
        let withRoute = export.replacingOccurrences(of: "</HealthData>", with: """
            <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="60" durationUnit="min" sourceName="x" \
            startDate="2024-02-13 10:00:00 +0000" endDate="2024-02-13 11:00:00 +0000"><WorkoutRoute sourceName="x" \
            startDate="2024-02-13 10:00:00 +0000" endDate="2024-02-13 11:00:00 +0000"><FileReference path="/workout-routes/r.gpx"/>\
            </WorkoutRoute></Workout>
            </HealthData>
            """)
        try makeZip(route, "z.writestr('apple_health_export/export.xml', sys.argv[2]); "
            + link.replacingOccurrences(of: "NAME", with: "'apple_health_export/workout-routes/r.gpx'")
                .replacingOccurrences(of: "TARGET", with: "'/etc/passwd'"), withRoute)
        let routeOut = dir.appendingPathComponent("route-out").path
        let routed = try healthetl(["import", route, "--out", routeOut, "--quiet", "--json", "--timezone", "UTC"])
        XCTAssertEqual(routed.status, 0, routed.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(routed.stdout.utf8)) as? [String: Any]
        let missing = summary?["route_files_missing"] as? [String] ?? []
        XCTAssertEqual(missing.count, 1, routed.stdout)
        XCTAssertTrue(missing.first?.hasPrefix("/workout-routes/r.gpx (") ?? false, routed.stdout)
        XCTAssertTrue(missing.first?.contains("is a symbolic link, which is never followed") ?? false, routed.stdout)
        XCTAssertEqual(try query(routeOut + "/health.sqlite", "SELECT count(*) FROM workout_route_points"), ["0"])
    }

    // MARK: dates and numbers

    func testDatesAndNumbersAtAndPastEveryLimit() throws {
        let dir = try temporaryFolder(self)
        let unreadableStarts = [
            "0001-01-01 00:00:00 +0000", "9999-12-30 10:00:00 +0000", "9999-12-31 22:00:00 -1400", "10000-01-01 00:00:00 +0000", "-001-01-01 00:00:00 +0000",
            "0000-00-00 00:00:00 +0000", "2024-13-01 10:00:00 +0000", "2024-02-32 10:00:00 +0000", "2024-02-13 24:00:00 +0000",
            "2024-02-13 10:00:00 +9999", "2024-02-13 10:00:00 +1960", "99991231235959-9999", "2024-02-13", "yesterday",
            "99999999999999999999-01-01 00:00:00 +0000",
        ]
        var records = unreadableStarts.map { HostileInputTests.record(value: "5", start: $0) }
        records.append(HostileInputTests.record(value: "5", start: "", end: ""))
        let unreadableValues = ["1e400", "-1e400", "NaN", "nan", "Infinity", "", "1e", "--5", "5..0", "0x1p3", "1,5"]
        records += unreadableValues.map { HostileInputTests.record(value: $0) }
        records += ["1e308", "99999999999999999999", "1000001"].map { HostileInputTests.record(value: $0) }
        // At the limits, and read.
        records += [
            HostileInputTests.record(value: "1", start: "0001-01-02 10:00:00 +0000", end: "0001-01-02 11:00:00 +0000"),
            HostileInputTests.record(value: "2", start: "9999-12-24 10:00:00 +0000", end: "9999-12-24 11:00:00 +0000"),
            HostileInputTests.record(value: "1000000", start: "2024-02-13 10:00:00 +1400", end: "2024-02-13 11:00:00 -1200"),
            HostileInputTests.record(value: "4.9e-324"),
        ]
        let path = try write(HostileInputTests.export(records), to: "limits.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let result = try healthetl(["import", path, "--out", out, "--quiet", "--timezone", "Pacific/Kiritimati"], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let reasons = try query(out + "/health.sqlite", "SELECT reason FROM quarantine ORDER BY line")
        let expectedDates = unreadableStarts.map { _ in "unreadable startDate" } + ["missing startDate"]
        let expectedValues = unreadableValues.map { "unreadable value '\($0)'" }
        XCTAssertEqual(Array(reasons.prefix(expectedDates.count + expectedValues.count)), expectedDates + expectedValues)
        let ranges = reasons.dropFirst(expectedDates.count + expectedValues.count)
        XCTAssertEqual(ranges.count, 3, "\(reasons)")
        for reason in ranges { XCTAssertTrue(reason.contains("beyond") || reason.contains("outside"), reason) }
        // Kiritimati is +14 today but kept local mean time (−10:29) in year 1, so the first
        // record's day is the one before its UTC day.
        // Every stored sample has a start, an end and a local day that SQL can read.
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM samples WHERE start_utc IS NULL OR end_utc IS NULL "
            + "OR local_date IS NULL OR date(local_date) IS NULL"), ["0"])
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT local_date || ' ' || value FROM samples ORDER BY start_utc"),
                       ["0001-01-01 1.0", "2024-02-13 1000000.0", "2024-02-14 4.94065645841247e-324", "9999-12-25 2.0"])
    }

    /// An export is UTF-8 whatever its XML declaration says: a declared ISO-8859-1 used to turn
    /// names into mojibake, and a declared EUC-JP or UTF-16 stopped the import (65) after
    /// libxml2 had printed its own lines on stderr ("encoding error : input conversion failed").
    func testAnEncodingDeclarationIsIgnoredAndLibxml2PrintsNothing() throws {
        let dir = try temporaryFolder(self)
        for encoding in ["ISO-8859-1", "EUC-JP", "UTF-16", "x-unknown"] {
            let export = #"<?xml version="1.0" encoding="\#(encoding)"?>"# + "\n"
                + HostileInputTests.export([#"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="Wätch Οx" unit="count" "#
                    + #"startDate="2024-02-13 10:00:00 +0000" endDate="2024-02-13 11:00:00 +0000" value="5"/>"#])
            let path = try write(export, to: "\(encoding).xml", in: dir)
            let out = dir.appendingPathComponent("out-\(encoding)").path
            let result = try healthetl(["import", path, "--out", out, "--quiet", "--timezone", "UTC"])
            XCTAssertEqual(result.status, 0, "\(encoding): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", encoding)
            XCTAssertEqual(try query(out + "/health.sqlite", "SELECT source_name FROM samples"), ["Wätch Οx"], encoding)
        }
    }

    /// A workout whose start or end is missing or unreadable is quarantined with the reason (as
    /// a record is), not stored without dates; its route is not read into the store.
    func testWorkoutsThatCannotBePlacedInTimeAreQuarantined() throws {
        let dir = try temporaryFolder(self)
        func workout(_ dates: String) -> String {
            #"<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="x" \#(dates)>"#
                + #"<WorkoutRoute sourceName="x"><FileReference path="/workout-routes/r.gpx"/></WorkoutRoute></Workout>"#
        }
        let elements = [
            workout(#"startDate="2024-02-13 25:00:00 +0000" endDate="2024-02-13 11:00:00 +0000""#),
            workout(#"startDate="2024-02-13 10:00:00 +0000""#),
            workout(#"startDate="2024-02-14 10:00:00 +0000" endDate="2024-02-14 10:30:00 +0000""#),
        ]
        let path = try write(HostileInputTests.export(elements), to: "workouts.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let result = try healthetl(["import", path, "--out", out, "--quiet", "--timezone", "UTC"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT element || ' ' || type || ': ' || reason FROM quarantine ORDER BY line"),
                       ["Workout HKWorkoutActivityTypeRunning: missing or unreadable startDate",
                        "Workout HKWorkoutActivityTypeRunning: missing or unreadable endDate"])
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT local_date || ' ' || duration_min FROM workouts"), ["2024-02-14 30.0"])
    }

    // MARK: helpers

    /// Writes a zip with Python's zipfile (tooling): `body` runs with `z` open for writing,
    /// `sys.argv[2]` holding `text`.
    private func makeZip(_ path: String, _ body: String, _ text: String = "") throws {
        let script = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n"
            + body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n"
        let result = try runProcess(try TestTools.python(), ["-c", script, path, text], timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// Sets general-purpose flag bit 0 (encrypted) in every local and central header.
    private func setEncryptedFlag(_ path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for i in 0..<(bytes.count - 8) where bytes[i] == 0x50 && bytes[i + 1] == 0x4B {
            if bytes[i + 2] == 3 && bytes[i + 3] == 4 { bytes[i + 6] |= 1 }
            if bytes[i + 2] == 1 && bytes[i + 3] == 2 { bytes[i + 8] |= 1 }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Runs healthetl and samples its peak resident memory (VmHWM) until it ends.
    private func runMeasuringPeakMemory(_ arguments: [String]) throws -> (ProcessResult, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.binary)
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        try process.run()
        var peak = 0
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline {
            if let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
               let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") {
                peak = max(peak, kilobytes << 10)
            }
            usleep(20_000)
        }
        if process.isRunning {   // a hang is a failure, as in runProcess
            process.terminate()
            process.waitUntilExit()
            throw NSError(domain: "test", code: 1, userInfo: [NSLocalizedDescriptionKey: "healthetl \(arguments) timed out after 120 s"])
        }
        process.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (ProcessResult(status: process.terminationStatus, stdout: "", stderr: stderr), peak)
    }
}
