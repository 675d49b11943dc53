import Foundation
import HealthPipeline
import XCTest
import TestSupport

/// Issue 59: one release. `make dist` writes the tarball, the .deb and the wheel; SHA256SUMS
/// covers the three and checks; each carries the same binary, whose `--version` is the same.
final class ReleaseArtifactsTests: XCTestCase {
    func testSha256SumsCoversTheThreeAndEachCarriesTheBinaryThatSaysTheSameVersion() throws {
        let tarball = try ReleaseTarballTests.tarball()
        let deb = try ReleaseArtifacts.path(DebianPackageTests.name)
        let wheel = try PythonWheelTests.wheel()
        let sums = try String(contentsOf: ReleaseArtifacts.dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        let named = sums.split(separator: "\n").map { String($0.split(separator: " ", omittingEmptySubsequences: true).last ?? "") }
        XCTAssertEqual(named.sorted(), [tarball, deb, wheel].map { URL(fileURLWithPath: $0).lastPathComponent }.sorted(), sums)
        let checked = try runProcess("/bin/sh", ["-c", "cd '\(ReleaseArtifacts.dist.path)' && sha256sum -c --strict SHA256SUMS"])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
        XCTAssertEqual(checked.stdout.components(separatedBy: ": OK\n").count, 4, checked.stdout)

        let folder = try temporaryFolder(self)
        XCTAssertEqual(try runProcess("/bin/tar", ["-xzf", tarball, "-C", folder.path]).status, 0)
        XCTAssertEqual(try runProcess("/usr/bin/dpkg-deb", ["-x", deb, folder.appendingPathComponent("deb").path]).status, 0)
        let unzip = try runProcess(try XCTUnwrap(ReleaseArtifacts.tool("python3")), ["-c",
            "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); z.extractall(sys.argv[2])", wheel, folder.appendingPathComponent("wheel").path])
        XCTAssertEqual(unzip.status, 0, unzip.stderr)
        let binaries = [folder.appendingPathComponent("\(ReleaseTarballTests.name)/bin/healthetl").path,
                        folder.appendingPathComponent("deb/usr/bin/healthetl").path,
                        folder.appendingPathComponent("wheel/healthetl-\(Release.version).data/scripts/healthetl").path]
        var versions: [String] = []
        for binary in binaries {
            chmod(binary, 0o755)  // zipfile's extractall drops the mode
            let version = try runProcess("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", binary, "--version"])
            XCTAssertEqual(version.status, 0, binary + ": " + version.stderr)
            XCTAssertTrue(version.stdout.hasPrefix("healthetl \(Release.version) (commit "), version.stdout)
            versions.append(version.stdout)
        }
        XCTAssertEqual(Set(versions).count, 1, "one --version from the three: \(versions)")
        XCTAssertEqual(Set(try binaries.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }).count, 1, "one binary in the three")
    }
}
