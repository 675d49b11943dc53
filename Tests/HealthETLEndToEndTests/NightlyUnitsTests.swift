import Foundation
import HealthPipeline
import XCTest
import TestSupport

/// Issue 59: the systemd user units (healthetl-nightly.service and .timer) as the tarball's
/// `make install` installs them pass `systemd-analyze verify` (which also finds a unit's binary
/// and man page, so they must be installed where the unit says), and the service's command, with
/// its settings file, and the README's cron line each import the sample under cron's bare
/// environment. The .deb's copy of the units runs in a bare Debian root: DebianPackageTests.
final class NightlyUnitsTests: XCTestCase {
    private func installedTarball() throws -> URL {
        let folder = try temporaryFolder(self)
        XCTAssertEqual(try runProcess("/bin/tar", ["-xzf", try ReleaseTarballTests.tarball(), "-C", folder.path]).status, 0)
        let prefix = folder.appendingPathComponent("prefix")
        let install = try runProcess("/usr/bin/make", ["-C", folder.appendingPathComponent(ReleaseTarballTests.name).path, "install",
                                                       "PREFIX=\(prefix.path)"])
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        return prefix
    }

    private func verify(_ units: [String], prefix: URL) throws -> ProcessResult {
        guard let analyze = ReleaseArtifacts.tool("systemd-analyze") else {
            throw ReleaseArtifacts.cannotRun("systemd-analyze is missing: apt-get install -y systemd")
        }
        let runtime = try temporaryFolder(self)
        chmod(runtime.path, 0o700)
        // A user manager's checks need its runtime folder; MANPATH lets it find the installed page.
        return try runProcess(analyze, ["--user", "verify"] + units,
                              environment: ["XDG_RUNTIME_DIR": runtime.path, "MANPATH": prefix.appendingPathComponent("share/man").path + ":"])
    }

    func testTheInstalledUnitsPassSystemdAnalyzeVerifyAndAMisspeltOneDoesNot() throws {
        let prefix = try installedTarball()
        let user = prefix.appendingPathComponent("share/systemd/user")
        let service = user.appendingPathComponent("healthetl-nightly.service").path
        let timer = user.appendingPathComponent("healthetl-nightly.timer").path
        let text = try String(contentsOfFile: service, encoding: .utf8)
        XCTAssertTrue(text.contains("ExecStart=\(prefix.path)/bin/healthetl import ${HEALTHETL_EXPORT} --out ${HEALTHETL_OUT} "
                                    + "--pipeline \(prefix.path)/share/healthetl/pipelines/nightly.json --quiet\n"), text)
        XCTAssertFalse(text.contains("@PREFIX@"))
        let verified = try verify([service, timer], prefix: prefix)
        XCTAssertEqual(verified.status, 0, verified.stdout + verified.stderr)
        XCTAssertEqual(verified.stdout + verified.stderr, "", "systemd-analyze verify says nothing of the units")

        // The check can fail: a misspelt key is a warning, a missing binary an error.
        let broken = try write(text.replacingOccurrences(of: "ExecStart=", with: "ExecStrat=") + "ExecStart=/nonexistent/healthetl\n",
                               to: "healthetl-nightly.service", in: try temporaryFolder(self))
        let refused = try verify([broken], prefix: prefix)
        XCTAssertNotEqual(refused.status, 0, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("Unknown key 'ExecStrat'") && refused.stderr.contains("/nonexistent/healthetl"), refused.stderr)

        // make uninstall takes the units away too.
        let release = prefix.deletingLastPathComponent().appendingPathComponent(ReleaseTarballTests.name).path
        XCTAssertEqual(try runProcess("/usr/bin/make", ["-C", release, "uninstall", "PREFIX=\(prefix.path)"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: user.path))
    }

    func testTheServicesCommandAndTheReadmesCronLineImportUnderCronsBareEnvironment() throws {
        let prefix = try installedTarball()
        let home = try temporaryFolder(self).appendingPathComponent("home with space")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config/healthetl"), withIntermediateDirectories: true)
        let export = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
        // The settings file as the README writes it, parsed as systemd's EnvironmentFile.
        _ = try write("HEALTHETL_EXPORT=\(export)\nHEALTHETL_OUT=\(home.path)/health\n", to: ".config/healthetl/nightly.env", in: home)
        let settings = try String(contentsOf: home.appendingPathComponent(".config/healthetl/nightly.env"), encoding: .utf8)
            .split(separator: "\n").reduce(into: [String: String]()) { found, line in
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2, !line.hasPrefix("#") { found[parts[0]] = parts[1] }
            }
        let unit = try String(contentsOfFile: prefix.path + "/share/systemd/user/healthetl-nightly.service", encoding: .utf8)
        let command = try execStart(ofUnit: unit, home: home.path, settings: settings)
        let bare = ["-i", "PATH=/usr/bin:/bin", "HOME=\(home.path)", "TZ=Europe/Berlin"]
        let first = try runProcess("/usr/bin/env", bare + command, timeout: 300)
        XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
        XCTAssertEqual(first.stdout + first.stderr, "", "--quiet")
        DebianPackageTests.assertPrivateStore(home.path + "/health")
        // Again: the same export, nothing new, still exit 0 (a timer's run must not fail then).
        let again = try runProcess("/usr/bin/env", bare + command, timeout: 300)
        XCTAssertEqual(again.status, 0, again.stderr)
        // Without a settings file the defaults are ~/Exports/export.zip and ~/health.
        XCTAssertEqual(Array(try execStart(ofUnit: unit, home: "/h", settings: [:]).prefix(5)),
                       ["\(prefix.path)/bin/healthetl", "import", "/h/Exports/export.zip", "--out", "/h/health"])

        // The README's cron line with the tarball's paths (it names the .deb's /usr ones), by sh, as cron runs it.
        let cron = try DebianPackageTests.readmeCronCommand()
        XCTAssertTrue(cron.hasPrefix("/usr/bin/healthetl import "), cron)
        let tarballs = cron.replacingOccurrences(of: "/usr/bin/healthetl", with: "'\(prefix.path)/bin/healthetl'")
            .replacingOccurrences(of: "/usr/share/healthetl/", with: "'\(prefix.path)/share/healthetl/'")
        let cronHome = try temporaryFolder(self)
        try FileManager.default.createDirectory(at: cronHome.appendingPathComponent("Exports"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: export, toPath: cronHome.appendingPathComponent("Exports/export.xml").path)
        let ran = try runProcess("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", "HOME=\(cronHome.path)", "/bin/sh", "-c",
                                                  tarballs.replacingOccurrences(of: "export.zip", with: "export.xml")], timeout: 300)
        XCTAssertEqual(ran.status, 0, ran.stdout + ran.stderr)
        DebianPackageTests.assertPrivateStore(cronHome.path + "/health")
        let log = try String(contentsOfFile: cronHome.path + "/healthetl-nightly.log", encoding: .utf8)
        XCTAssertEqual(log, "", "--quiet: nothing in the log but errors")
    }
}
