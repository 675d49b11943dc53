import Foundation
import XCTest
import TestSupport

/// Issue 30, item 5: commands that explain themselves (help generated from each command's
/// declarations, `--version`, "did you mean") and errors that tell the truth.
final class CommandHelpTests: XCTestCase {
    static let commands = ["import", "import-all", "people", "report", "export-fhir", "query", "repl", "mcp", "status", "reset", "completions"]

    func testHelpOfEveryCommandIsTheSameEitherWayAndListsEveryOptionOfItsUsage() throws {
        let overview = try healthetl(["--help"])
        XCTAssertEqual(overview.status, 0)
        XCTAssertEqual(try healthetl(["help"]).stdout, overview.stdout)
        for command in Self.commands {
            XCTAssertTrue(overview.stdout.contains("\n  \(command) "), "\(command) in the overview")
            let help = try healthetl(["help", command])
            XCTAssertEqual(help.status, 0, help.stderr)
            let flag = try healthetl([command, "--help"])
            XCTAssertEqual(flag.status, 0, "\(command) --help: \(flag.stderr)")
            XCTAssertEqual(flag.stdout, help.stdout)
            // Every option in the usage line has a line of help of its own.
            let usage = try XCTUnwrap(help.stdout.split(separator: "\n").first { $0.hasPrefix("usage: healthetl \(command)") })
            let options = usage.split(separator: "[").compactMap { part -> String? in
                part.hasPrefix("--") ? String(part.prefix { $0 != "]" && $0 != " " }) : nil
            }
            XCTAssertFalse(options.isEmpty, command)
            for option in options {
                XCTAssertTrue(help.stdout.contains("\n  \(option)"), "\(command) help explains \(option)")
            }
        }
        // --help wins over what else is on the line (nothing is run).
        let out = try temporaryFolder(self).appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", "/no/such/export.zip", "--out", out, "--help"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let version = try healthetl(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("healthetl ") && version.stdout.contains("."), version.stdout)
    }

    /// docs/commands.md holds the binary's own help (`scripts/update-commands-doc.py` copies it).
    func testTheCommandsDocumentHoldsTheGeneratedHelp() throws {
        let doc = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        let blocks = doc.components(separatedBy: "<!-- help: ").dropFirst()
        XCTAssertGreaterThanOrEqual(blocks.count, Self.commands.count + 1)
        var documented: Set<String> = []
        for block in blocks {
            let header = try XCTUnwrap(block.range(of: " -->\n```\n"))
            let arguments = block[..<header.lowerBound].split(separator: " ").map(String.init)
            let body = try XCTUnwrap(block[header.upperBound...].range(of: "\n```\n<!-- /help -->"))
            let text = String(block[header.upperBound..<body.lowerBound])
            let help = try healthetl(arguments)
            XCTAssertEqual(help.status, 0)
            XCTAssertEqual(text, String(help.stdout.dropLast()), "docs/commands.md, block \(arguments): run scripts/update-commands-doc.py")
            documented.insert(arguments.last ?? "")
        }
        XCTAssertTrue(Set(Self.commands).isSubset(of: documented), "every command documented: \(documented)")
    }

    func testMistypedCommandsOptionsAndActionsGetASuggestion() throws {
        let command = try healthetl(["improt", "export.zip"])
        XCTAssertEqual(command.status, 64)
        XCTAssertTrue(command.stderr.contains("unknown command 'improt' (did you mean 'import'?)"), command.stderr)
        let option = try healthetl(["import", "export.zip", "--ful"])
        XCTAssertEqual(option.status, 64)
        XCTAssertTrue(option.stderr.contains("unknown option --ful (did you mean --full?)"), option.stderr)
        XCTAssertTrue(try healthetl(["status", "--persn", "bob"]).stderr.contains("did you mean --person?"))
        let action = try healthetl(["people", "sho", "bob"])
        XCTAssertEqual(action.status, 64)
        XCTAssertTrue(action.stderr.contains("did you mean 'show'?"), action.stderr)
        // Nothing close: no guess.
        XCTAssertFalse(try healthetl(["import", "export.zip", "--zzzzzz"]).stderr.contains("did you mean"))
    }

    func testAFileThatIsNeitherXMLNorZipIsNamedSo() throws {
        let dir = try temporaryFolder(self)
        let readme = try write("# My notes\n\nNothing to see.\n", to: "README.md", in: dir)
        let fakeZip = try write("PKxyz", to: "export.zip", in: dir)
        let empty = try write("", to: "export.xml", in: dir)
        for (path, expected) in [(readme, "neither XML nor a zip archive"), (fakeZip, "neither XML nor a zip archive"),
                                 (empty, "the file is empty")] {
            let out = dir.appendingPathComponent("out").path
            let r = try healthetl(["import", path, "--out", out])
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertTrue(r.stderr.contains(expected), r.stderr)
            XCTAssertFalse(r.stderr.contains("Document is empty"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/.healthetl/load.sqlite"))
        }
    }

    func testAFailedFirstImportLeavesNothingToResume() throws {
        let dir = try temporaryFolder(self)
        let broken = try write("<HealthData><Record", to: "broken.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", broken, "--out", out]).status, 65)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/.healthetl/load.sqlite"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/.healthetl/checkpoint.json"))
        let status = try healthetl(["status", "--out", out])
        XCTAssertEqual(status.status, 66, "no store, nothing pending: \(status.stdout)")
    }

    func testImportAllWithABrokenExportLeavesNoGhostPerson() throws {
        let dir = try temporaryFolder(self)
        let exports = dir.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        _ = try write(SettingsAndResetTests.export(days: 2), to: "ann.xml", in: exports)
        _ = try write("<HealthData><Record", to: "bob.xml", in: exports)
        let out = dir.appendingPathComponent("out").path
        let run = try healthetl(["import-all", exports.path, "--out", out])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out + "/people"), ["ann"])
        // A person who existed before keeps their folder when an import of theirs fails.
        XCTAssertEqual(try healthetl(["people", "set", "bob", "--name", "Bob", "--out", out]).status, 0)
        XCTAssertEqual(try healthetl(["import-all", exports.path, "--out", out]).status, 65)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out + "/people").sorted(), ["ann", "bob"])
    }

    func testPeopleSetOnAnUnknownIdSaysItCreatesThem() throws {
        let out = try temporaryFolder(self).path
        let created = try healthetl(["people", "set", "carol", "--name", "Carol", "--out", out])
        XCTAssertEqual(created.status, 0, created.stderr)
        XCTAssertTrue(created.stdout.hasPrefix("created person carol (name Carol)"), created.stdout)
        let updated = try healthetl(["people", "set", "carol", "--name", "Caro", "--out", out])
        XCTAssertTrue(updated.stdout.hasPrefix("updated carol: name Carol → Caro"), updated.stdout)
    }

    func testPipelineMistakesNameTheKeyOrTheLine() throws {
        let dir = try temporaryFolder(self)
        let export = try write(SettingsAndResetTests.export(days: 2), to: "export.xml", in: dir)
        let cases = [
            ("{\n  \"timezone\": \"UTC\",\n  \"outputs\": [\"csv\"\n}", "not valid JSON at line 4, column 1"),
            (#"{"timeZone": "UTC"}"#, "unknown pipeline key 'timeZone'"),
            (#"{"goals": {"step": 8000}}"#, "unknown pipeline key 'goals.step'"),
            (#"{"weekStart": 1}"#, "pipeline key 'weekStart' must be a string"),
            (#"{"outputs": ["csv", 3]}"#, "pipeline key 'outputs[1]' must be a string"),
        ]
        for (text, expected) in cases {
            let pipeline = try write(text, to: "pipeline.json", in: dir)
            let r = try healthetl(["import", export, "--out", dir.appendingPathComponent("out").path, "--pipeline", pipeline])
            XCTAssertEqual(r.status, 64, r.stderr)
            XCTAssertTrue(r.stderr.contains(expected), "\(expected) in \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("DecodingError"), r.stderr)
        }
    }

    func testReadingCommandsInAFamilyFolderListThePeople() throws {
        let dir = try temporaryFolder(self)
        let export = try write(SettingsAndResetTests.export(days: 2), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        for person in ["ann", "bob"] {
            XCTAssertEqual(try healthetl(["import", export, "--out", out, "--person", person, "--quiet"]).status, 0)
        }
        for command in [["report"], ["status"], ["query", "SELECT sum(value) FROM steps"]] {
            let r = try healthetl(command + ["--out", out])
            XCTAssertEqual(r.status, 66, r.stderr)
            XCTAssertTrue(r.stderr.contains("--person ID, where ID is one of: ann, bob"), r.stderr)
            XCTAssertFalse(r.stderr.contains("no store yet"), r.stderr)
        }
        XCTAssertEqual(try healthetl(["status", "--out", out, "--person", "ann"]).status, 0)
    }
}
