import Foundation
import XCTest
import TestSupport

/// Issue 56, the smaller items: what an export's file names print, how many notes a run keeps,
/// a read-only output folder, a killed `export-fhir`'s staging.
final class HostileInputsRoundThreeTests: XCTestCase {
    /// An export folder: the sample's XML and `clinical-records/` holding `names`, each a file
    /// that is not a resource.
    private func exportFolder(badClinicalFiles names: [String], in dir: URL) throws -> String {
        let root = dir.appendingPathComponent("apple_health_export")
        let folder = root.appendingPathComponent("clinical-records")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: OutputFilesTests.sampleExport, toPath: root.appendingPathComponent("export.xml").path)
        for name in names { try Data("[]".utf8).write(to: folder.appendingPathComponent(name)) }
        return root.path
    }

    /// A clinical file of 16 MiB of `{}`s took Foundation's parser to about a gigabyte (32 MiB:
    /// 2.14 GB); the check builds nothing per value, so the import costs the file's bytes a few
    /// times over, and the resource is stored whole.
    func testAClinicalFileOfEmptyObjectsCostsItsBytesNotAnObjectEach() throws {
        let dir = try temporaryFolder(self)
        let export = try exportFolder(badClinicalFiles: [], in: dir)
        let items = 16 << 20 / 3
        let body = #"{"resourceType":"Basic","x":["# + String(repeating: "{},", count: items) + "{}]}"
        try Data(body.utf8).write(to: URL(fileURLWithPath: export + "/clinical-records/Basic-1.json"))
        let out = dir.appendingPathComponent("out").path
        let run = try healthetlPeakMemory(["import", export, "--out", out, "--timezone", "Europe/Berlin", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT length(resource) FROM clinical_resources"), ["\(body.utf8.count)"])
        let without = try healthetlPeakMemory(["import", OutputFilesTests.sampleExport, "--out", dir.appendingPathComponent("plain").path,
                                               "--timezone", "Europe/Berlin", "--quiet"])
        print("peak memory: \(Int(run.mib)) MiB with a 16 MiB clinical file of {}s, \(Int(without.mib)) MiB without")
        // Under AddressSanitizer freed memory waits in its quarantine: the figure is make test's.
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
            XCTAssertLessThan(run.mib, without.mib + 8 * 16, "a few times the file's bytes, not an object each")
        }
    }

    /// A newline in a file name forged a `note:` line; an OSC sequence set the window title.
    func testAFileNamesControlCharactersAreShownNotObeyed() throws {
        let dir = try temporaryFolder(self)
        let forged = "a\n  note: everything is fine.json", title = "b\u{1B}]0;pwned\u{07}.json", bidi = "c\u{202E}nosj.exe.json"
        let export = try exportFolder(badClinicalFiles: [forged, title, bidi], in: dir)
        let r = try healthetl(["import", export, "--out", dir.appendingPathComponent("out").path, "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let printed = r.stdout + r.stderr
        XCTAssertFalse(printed.contains("\u{1B}]"), "no escape sequence reaches the terminal")
        XCTAssertFalse(printed.contains("\u{202E}"))
        XCTAssertFalse(printed.contains("\n  note: everything is fine"), printed)
        XCTAssertTrue(printed.contains(#"a\u{A}  note: everything is fine.json: not a JSON object"#), printed)
        XCTAssertTrue(printed.contains(#"b\u{1B}]0;pwned\u{7}.json"#), printed)
        XCTAssertTrue(printed.contains(#"c\u{202E}nosj.exe.json"#), printed)
    }

    /// Every bad file is counted; twenty are named; the run log's line stays small.
    func testTheNotesOfManyUnreadableFilesAreCapped() throws {
        let dir = try temporaryFolder(self)
        let count = 3000
        let export = try exportFolder(badClinicalFiles: (0..<count).map { String(format: "Observation-%05d.json", $0) }, in: dir)
        let out = dir.appendingPathComponent("out").path
        let summary = try importJSON(export, out)
        XCTAssertEqual(summary["clinical_files_unreadable"] as? Int, count)
        let notes = summary["notes"] as? [String] ?? []
        let named = notes.filter { $0.hasPrefix("Clinical record file not readable, skipped: clinical-records/Observation-") }
        XCTAssertEqual(named.count, 20, notes.joined(separator: "\n"))
        XCTAssertTrue(notes.contains("Clinical record file not readable, skipped: \(count - 20) more not named"), "\(notes)")
        let log = try String(contentsOfFile: out + "/.healthetl/runs.log", encoding: .utf8)
        XCTAssertLessThan(log.utf8.count, 20_000, "one short line, not one per file")
        let status = try healthetl(["status", "--out", out])
        XCTAssertEqual(status.status, 0, status.stderr)
    }

    /// A store on a file system mounted read-only afterwards: exit 73 naming the folder, not
    /// 70 "internal error" from SQLite's temporary folder. Needs a mount namespace (unshare).
    func testAReadOnlyOutputFolderIsExit73() throws {
        let dir = try temporaryFolder(self)
        let mount = dir.appendingPathComponent("mnt").path
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let script = """
            set -e
            mount -t tmpfs -o size=64m tmpfs "$1"
            "$2" import "$3" --out "$1/out" --quiet --timezone Europe/Berlin
            mount -o remount,ro "$1"
            set +e
            "$2" import "$3" --out "$1/out" --quiet --timezone Europe/Berlin
            echo "exit=$?"
            """
        let probe = try runProcess("/usr/bin/env", ["unshare", "-rm", "true"])
        try XCTSkipIf(probe.status != 0, "this machine allows no mount namespace (unshare -rm): \(probe.stderr)")
        let r = try runProcess("/usr/bin/env", ["unshare", "-rm", "bash", "-c", script, "-", mount, TestPaths.binary,
                                                OutputFilesTests.sampleExport])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("exit=73"), r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("\(mount)/out/.healthetl: cannot write there"), r.stderr)
        XCTAssertFalse(r.stderr.contains("internal error"), r.stderr)
    }

    /// A killed `export-fhir` left `.healthetl/staging-PID/`; the next `export-fhir` removes it.
    func testAKilledExportFHIRsStagingIsRemovedByTheNext() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        _ = try importJSON(OutputFilesTests.sampleExport, out)
        let left = out + "/.healthetl/staging-999999/fhir"
        try FileManager.default.createDirectory(atPath: left, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: left + "/Observation.ndjson"))
        let r = try healthetl(["export-fhir", "--out", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let state = try FileManager.default.contentsOfDirectory(atPath: out + "/.healthetl")
        XCTAssertEqual(state.filter { $0.hasPrefix("staging-") }, [], "\(state)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/fhir/Observation.ndjson"))
    }
}
