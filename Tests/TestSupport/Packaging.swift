import Foundation
import XCTest

/// What the packaging tests (issue 59) share: the release's artifacts in dist/, the skip rule for
/// what needs root or a Debian tool, and the systemd unit's command line as systemd would run it.
package enum ReleaseArtifacts {
    package static var dist: URL { TestPaths.packageRoot.appendingPathComponent("dist") }

    /// An artifact of `make dist` (make test runs it first), or a failure that says how to make it.
    package static func path(_ name: String) throws -> String {
        let path = dist.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            XCTFail("\(path) is missing: run make dist (make test runs it first)")
            throw XCTSkip("no \(name)")
        }
        return path
    }

    /// The newest `GLIBC_2.N` symbol version `binary` asks for (objdump -T): N.
    package static func newestGlibcMinor(_ binary: String) throws -> Int {
        let dump = try runProcess("/usr/bin/objdump", ["-T", binary])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let minors = dump.stdout.matches(of: /GLIBC_2\.(\d+)/).compactMap { Int($0.output.1) }
        return try XCTUnwrap(minors.max(), "no GLIBC_2.N symbol versions in \(binary)")
    }

    /// A test that cannot run here (not root, a tool missing): a skip with `reason`, except under
    /// CI (`CI=true`, as `.ci/run` runs), which runs as root with every tool installed, so there
    /// it fails: a CI that lost a package must not pass by skipping.
    package static func cannotRun(_ reason: String) -> Error {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            return TestTools.Missing(description: reason + " (CI=true: .ci/run installs it and runs as root)")
        }
        return XCTSkip(reason)
    }

    /// `program` on the PATH or in the sbin folders (debootstrap), or nil.
    package static func tool(_ program: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
        return folders.map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// The `ExecStart=` of a systemd service as the user manager runs it: `%h` is `home`; the
/// `Environment=` defaults, then the `EnvironmentFile=` lines (`settings`, NAME=VALUE) win; `${NAME}`
/// is one word, its value. Enough for healthetl-nightly.service, checked against
/// `systemd-analyze verify` by the same test.
package func execStart(ofUnit unit: String, home: String, settings: [String: String]) throws -> [String] {
    var environment: [String: String] = [:]
    var command: String?
    for line in unit.split(separator: "\n").map(String.init) {
        let expanded = line.replacingOccurrences(of: "%h", with: home)
        if expanded.hasPrefix("Environment=") {
            for pair in expanded.dropFirst("Environment=".count).split(separator: " ") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { environment[parts[0]] = parts[1] }
            }
        } else if expanded.hasPrefix("ExecStart=") {
            command = String(expanded.dropFirst("ExecStart=".count))
        }
    }
    environment.merge(settings) { $1 }
    let words = try XCTUnwrap(command, "no ExecStart= in the unit").split(separator: " ").map(String.init)
    return try words.map { word in
        guard let name = word.wholeMatch(of: /\$\{(\w+)\}/)?.output.1 else { return word }
        return try XCTUnwrap(environment[String(name)], "the unit's ${\(name)} has no value")
    }
}
