import Foundation
import XCTest
import TestSupport

/// Issue 43, items 3 and 4: the man page and the bash, zsh and fish completions are generated
/// from the binary's own command declarations, so each names every command and option; the
/// completions complete commands, options, people, zones, words and paths in real shells; and
/// `--version` says what a bug report needs.
final class ManPageAndCompletionsTests: XCTestCase {
    /// Every command and its options, as the binary's own help lists them.
    private func declaredCommands() throws -> [(name: String, options: [String])] {
        let overview = try healthetl(["--help"]).stdout
        let listed = overview.components(separatedBy: "\ncommands:\n")[1].components(separatedBy: "\n\n")[0]
        let names = listed.split(separator: "\n").map { String($0.dropFirst(2).prefix { $0 != " " }) }.filter { $0 != "help" }
        XCTAssertTrue(names.contains("completions") && names.contains("import") && names.count >= 10, "\(names)")
        return try names.map { name in
            let help = try healthetl(["help", name]).stdout
            let options = help.components(separatedBy: "\noptions:\n")[1].split(separator: "\n")
                .compactMap { line -> String? in
                    let trimmed = line.drop { $0 == " " }
                    guard trimmed.hasPrefix("--") else { return nil }
                    return String(trimmed.dropFirst(2).prefix { $0 != " " && $0 != "," })
                }
            return (name, options)
        }
    }

    func testTheManPageNamesEveryCommandAndOptionAndRenders() throws {
        let page = try healthetl(["help", "--man"])
        XCTAssertEqual(page.status, 0)
        for (name, options) in try declaredCommands() {
            XCTAssertTrue(page.stdout.contains(".SS \"healthetl \(name.replacingOccurrences(of: "-", with: "\\-"))"),
                          "the man page has a section for \(name)")
            let section = page.stdout.components(separatedBy: ".SS \"healthetl \(name.replacingOccurrences(of: "-", with: "\\-")) ")
                .dropFirst().first?.components(separatedBy: "\n.SS ").first ?? ""
            for option in options where option != "help" {
                XCTAssertTrue(section.contains("\\-\\-" + option.replacingOccurrences(of: "-", with: "\\-")),
                              "the man page explains \(name) --\(option)")
            }
        }
        // man itself renders it, without a warning from groff.
        let man = try TestTools.program("man", missing: .man, install: "apt-get install man-db")
        let file = try write(page.stdout, to: "healthetl.1", in: try temporaryFolder(self))
        let rendered = try runProcess(man, ["--warnings", "-l", file], environment: ["MANWIDTH": "100", "MANPAGER": "cat"])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertEqual(rendered.stderr, "", "groff's warnings")
        XCTAssertTrue(rendered.stdout.contains("healthetl import EXPORT [OTHER-EXPORT] [--out DIR]"), String(rendered.stdout.prefix(2000)))
        XCTAssertTrue(rendered.stdout.contains("EXIT STATUS"))
    }

    func testEveryCompletionScriptNamesEveryCommandAndOption() throws {
        let commands = try declaredCommands()
        for shell in ["bash", "zsh", "fish"] {
            let script = try healthetl(["completions", shell])
            XCTAssertEqual(script.status, 0, script.stderr)
            for (name, options) in commands {
                XCTAssertTrue(script.stdout.contains(name), "\(shell) completes \(name)")
                for option in options where option != "help" {
                    let spelled = shell == "fish" ? "-l \(option)" : "--\(option)"
                    XCTAssertTrue(script.stdout.contains(spelled), "\(shell) completes \(name) --\(option)")
                }
            }
        }
        XCTAssertEqual(try healthetl(["completions", "tcsh"]).status, 64)
    }

    /// A folder with two people, for `--person`.
    private func family() throws -> String {
        let out = try temporaryFolder(self).appendingPathComponent("family")
        for id in ["alice", "bob"] {
            try FileManager.default.createDirectory(at: out.appendingPathComponent("people/\(id)"), withIntermediateDirectories: true)
        }
        return out.path
    }

    func testBashCompletesCommandsOptionsPeopleZonesWordsAndPaths() throws {
        let folder = try temporaryFolder(self)
        let script = try write(try healthetl(["completions", "bash"]).stdout, to: "healthetl.bash", in: folder)
        let out = try family()
        let export = try write(ExportXML.document([], exportDate: nil), to: "export-2024.xml", in: folder)
        // Each case: the words on the line (the last one being completed) and what must be offered.
        let cases: [([String], [String])] = [
            ([""], try declaredCommands().map(\.name) + ["help", "--version"]),
            (["import", "--"], ["--out", "--person", "--pipeline", "--timezone", "--full", "--quiet", "--json", "--help"]),
            (["import", "--out", out, "--person", ""], ["alice", "bob"]),
            (["status", "--out", out, "--person", "a"], ["alice"]),
            (["import", "--timezone", "Europe/Be"], ["Europe/Berlin", "Europe/Belgrade"]),
            (["people", ""], ["list", "show", "set", "remove"]),
            (["people", "set", "alice", "--units", ""], ["metric", "imperial"]),
            (["import", folder.path + "/export-2"], [export]),
            (["help", "imp"], ["import", "import-all"]),
            (["completions", ""], ["bash", "zsh", "fish", "zones", "people"]),
        ]
        for (words, expected) in cases {
            let line = ([TestPaths.binary] + words).map { "'\($0)'" }.joined(separator: " ")
            let driver = "source '\(script)'; COMP_WORDS=(\(line)); COMP_CWORD=\(words.count); _healthetl; printf '%s\\n' \"${COMPREPLY[@]}\""
            let r = try runProcess("/bin/bash", ["--norc", "-c", driver])
            XCTAssertEqual(r.status, 0, r.stderr)
            let offered = Set(r.stdout.split(separator: "\n").map(String.init))
            XCTAssertTrue(Set(expected).isSubset(of: offered), "\(words): offered \(offered.sorted()), expected \(expected)")
            if words == ["people", ""] || words.last == "a" { XCTAssertEqual(offered, Set(expected), "\(words): nothing else offered") }
        }
    }

    func testFishCompletesCommandsOptionsPeopleAndZones() throws {
        let fish = try TestTools.program("fish", missing: .fish, install: "apt-get install fish")
        let folder = try temporaryFolder(self)
        let script = try write(try healthetl(["completions", "fish"]).stdout, to: "healthetl.fish", in: folder)
        let out = try family()
        func complete(_ line: String) throws -> Set<String> {
            // fish completes the command by its name: the binary is linked as `healthetl` in a folder on PATH.
            let r = try runProcess(fish, ["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"],
                                   environment: ["PATH": URL(fileURLWithPath: TestPaths.binary).deletingLastPathComponent().path + ":/usr/bin:/bin"])
            XCTAssertEqual(r.status, 0, r.stderr)
            return Set(r.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) })
        }
        XCTAssertTrue(Set(try declaredCommands().map(\.name) + ["help"]).isSubset(of: try complete("healthetl ")))
        XCTAssertTrue(["--out", "--person", "--timezone", "--full"].allSatisfy(try complete("healthetl import --").contains))
        XCTAssertEqual(try complete("healthetl import --out \(out) --person "), ["alice", "bob"])
        XCTAssertTrue(try complete("healthetl import --timezone Asia/To").contains("Asia/Tokyo"))
        XCTAssertEqual(try complete("healthetl people "), ["list", "show", "set", "remove"])
    }

    func testZshLoadsItsCompletionWithoutErrors() throws {
        let zsh = try TestTools.program("zsh", missing: .zsh, install: "apt-get install zsh")
        let folder = try temporaryFolder(self)
        _ = try write(try healthetl(["completions", "zsh"]).stdout, to: "_healthetl", in: folder)
        // Parsed, found on fpath by compinit and bound to the command: what zsh does at start-up.
        let r = try runProcess(zsh, ["-f", "-c", "fpath=('\(folder.path)' $fpath); autoload -U compinit; compinit -u -D; "
                                     + "print -r -- ${_comps[healthetl]}; zsh -n '\(folder.path)/_healthetl' && print syntax-ok"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "_healthetl\nsyntax-ok\n", r.stderr)
    }

    /// Tab pressed after `typed` in an interactive zsh, in a pseudo-terminal of zsh's own `zpty`
    /// module, with the script of `folder` on fpath and the binary on PATH as `healthetl`; the
    /// line as completion leaves it (a key bound to a widget writes it to a file).
    private func zshCompletion(of typed: String, script folder: URL, in directory: String) throws -> String {
        let zsh = try XCTUnwrap(["/usr/bin/zsh", "/bin/zsh"].first(where: FileManager.default.isExecutableFile(atPath:)))
        let bin = folder.appendingPathComponent("bin")
        try? FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("healthetl").path, withDestinationPath: TestPaths.binary)
        let typedFile = try write(typed, to: "typed", in: folder), result = folder.appendingPathComponent("result").path
        try? FileManager.default.removeItem(atPath: result)
        let driver = """
            zmodload zsh/zpty || exit 3
            zpty z 'zsh -f -i'
            zpty -w z 'cd \(shellQuoted(directory)); fpath=(\(shellQuoted(folder.path)) $fpath); autoload -U compinit; compinit -u -D'
            zpty -w z 'PATH=\(shellQuoted(bin.path)):$PATH; show() { print -r -- "$BUFFER" > \(shellQuoted(result)) }; zle -N show; bindkey "^X" show'
            zpty -w -n z "$(<\(shellQuoted(typedFile)))"$'\\t\\C-x'
            for i in {1..200}; do [[ -s \(shellQuoted(result)) ]] && break; sleep 0.05; done
            zpty -d z
            """
        let r = try runProcess(zsh, ["-f", "-c", driver], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try String(contentsOfFile: result, encoding: .utf8).trimmingCharacters(in: .newlines)
    }

    private func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Issue 56: zsh passed `${out:+--out "$out"}` as one word, so once `--out` was typed
    /// `--person` completed nothing (`completions people '--out DIR'` is an unknown option).
    func testZshCompletesThePeopleOfTheFolderNamedByOut() throws {
        guard ["/usr/bin/zsh", "/bin/zsh"].contains(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("zsh is not installed (apt-get install zsh)")
        }
        let folder = try temporaryFolder(self)
        _ = try write(try healthetl(["completions", "zsh"]).stdout, to: "_healthetl", in: folder)
        let family = try family()
        XCTAssertEqual(try zshCompletion(of: "healthetl status --out \(family) --person a", script: folder, in: folder.path),
                       "healthetl status --out \(family) --person alice ")
        // A folder with a space, typed with a backslash: the folder as the shell reads it.
        let spaced = folder.appendingPathComponent("the family").path
        try FileManager.default.createDirectory(atPath: spaced + "/people/carol", withIntermediateDirectories: true)
        XCTAssertEqual(try zshCompletion(of: "healthetl import --out \(folder.path)/the\\ family --person c", script: folder, in: folder.path),
                       "healthetl import --out \(folder.path)/the\\ family --person carol ")
        // Without --out: the people of ./out.
        try FileManager.default.createDirectory(atPath: folder.path + "/out/people/dana", withIntermediateDirectories: true)
        XCTAssertEqual(try zshCompletion(of: "healthetl status --person d", script: folder, in: folder.path),
                       "healthetl status --person dana ")
    }

    /// Issue 43, item 4: the version, commit, build date and the C libraries the binary runs with
    /// (the ones the system's pkg-config names: Debian's libxml2, SQLite and zlib); the run log says the same.
    func testVersionNamesTheBuildAndTheLibrariesAndTheRunLogCarriesIt() throws {
        let text = try healthetl(["--version"])
        XCTAssertEqual(text.status, 0)
        let json = try healthetl(["--version", "--json"])
        let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: String])
        for key in ["version", "commit", "build_date", "libxml2", "sqlite", "zlib", "platform"] {
            XCTAssertFalse(fields[key, default: ""].isEmpty, "--version --json has \(key)")
        }
        XCTAssertTrue(text.stdout.hasPrefix("healthetl \(fields["version"]!) (commit \(fields["commit"]!), built \(fields["build_date"]!))"),
                      text.stdout)
        // make sets the commit and date; a plain `swift build` says unknown.
        if ProcessInfo.processInfo.environment["HEALTHETL_COMMIT"] != nil {
            XCTAssertNotEqual(fields["commit"], "unknown")
            XCTAssertNotNil(fields["build_date"]!.wholeMatch(of: /\d{4}-\d\d-\d\d/))
        }
        for (key, module) in [("libxml2", "libxml-2.0"), ("sqlite", "sqlite3"), ("zlib", "zlib")] {
            let declared = try runProcess("/usr/bin/env", ["pkg-config", "--modversion", module])
            guard declared.status == 0 else { continue }
            XCTAssertEqual(fields[key], declared.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "\(key) as it reports itself")
        }
        XCTAssertEqual(try healthetl(["--version", "--yaml"]).status, 64)

        // The run log: a successful run and a failed one each name the healthetl that ran.
        let out = try temporaryFolder(self).appendingPathComponent("out").path
        let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
        XCTAssertEqual(try healthetl(["import", sample, "--out", out, "--quiet"]).status, 0)
        let cut = try write("<HealthData locale=\"en_US\">\n<Record type=\"HKQuantityTypeIdentifierStepCount\"",
                            to: "cut.xml", in: try temporaryFolder(self))
        XCTAssertEqual(try healthetl(["import", cut, "--out", out, "--quiet"]).status, 65)
        let log = try String(contentsOfFile: out + "/.healthetl/runs.log", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(log.count, 2)
        let described = "\(fields["version"]!) (commit \(fields["commit"]!), built \(fields["build_date"]!))"
        for line in log {
            let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            XCTAssertEqual(entry["healthetl"] as? String, described, String(line))
        }
    }
}
