import Foundation
import HealthPipeline
import XCTest
import TestSupport

/// Issue 59: the Python wheel `make dist` builds (make test builds it first). Installed into a
/// fresh place each of three ways, `pip install` in a new venv, `pipx install` and `uv tool
/// install`, it puts `healthetl` on PATH; that binary imports the sample as `make build`'s does
/// (scripts/compare-outputs.sh); uninstalling leaves the place as it was. The module finds and
/// runs the binary, `python -m healthetl` runs it, `read_table` opens the Parquet outputs.
/// pipx and uv come from the tests' venv (`make venv`); the Python of the fresh venvs is the
/// machine's python3, as a person's would be.
final class PythonWheelTests: XCTestCase {
    static var machine: String { ReleaseTarballTests.machine }

    static func wheel() throws -> String {
        let folder = ReleaseArtifacts.dist.path
        let name = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .first { $0.hasPrefix("healthetl-\(Release.version)-py3-none-manylinux_") && $0.hasSuffix("_\(machine).whl") }
        return try ReleaseArtifacts.path(name ?? "healthetl-\(Release.version)-py3-none-manylinux_2_36_\(machine).whl")
    }

    /// The tests' venv's own program (pipx, uv), which `make venv` installs.
    private func venvTool(_ name: String) throws -> String {
        let python = try TestTools.python()
        let path = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestTools.missing(.python, "\(path) is missing: run make venv (it installs pipx and uv)")
        }
        return path
    }

    private func systemPython() throws -> String {
        try XCTUnwrap(ReleaseArtifacts.tool("python3"), "python3")
    }

    func testTheWheelsTagIsTheGlibcItsBinaryNeedsAndItHoldsTheTarballsBinary() throws {
        let wheel = try Self.wheel()
        let folder = try temporaryFolder(self)
        let unzip = try runProcess(try systemPython(), ["-c", """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            info = z.getinfo('healthetl-\(Release.version).data/scripts/healthetl')
            print(oct(info.external_attr >> 16))
            open(sys.argv[2], 'wb').write(z.read(info))
            print(z.read('healthetl-\(Release.version).dist-info/WHEEL').decode())
            """, wheel, folder.appendingPathComponent("healthetl").path])
        XCTAssertEqual(unzip.status, 0, unzip.stderr)
        XCTAssertTrue(unzip.stdout.hasPrefix("0o100755\n"), "the script is executable: \(unzip.stdout)")
        XCTAssertTrue(unzip.stdout.contains("Root-Is-Purelib: false"), unzip.stdout)
        let binary = folder.appendingPathComponent("healthetl").path
        let minor = try ReleaseArtifacts.newestGlibcMinor(binary)
        XCTAssertTrue(unzip.stdout.contains("Tag: py3-none-manylinux_2_\(minor)_\(Self.machine)\n"), unzip.stdout)
        XCTAssertEqual(URL(fileURLWithPath: wheel).lastPathComponent, "healthetl-\(Release.version)-py3-none-manylinux_2_\(minor)_\(Self.machine).whl")
        let tarball = try DebianPackageTests.extractedTarballBinary(self)
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: binary)) == Data(contentsOf: URL(fileURLWithPath: tarball)),
                      "the wheel's binary is the tarball's")
    }

    func testPipInstallPutsItOnPathImportsAsMakeBuildsDoesAndPipUninstallLeavesTheVenvAsItWas() throws {
        let wheel = try Self.wheel()
        let venv = try temporaryFolder(self).appendingPathComponent("venv")
        let made = try runProcess(try systemPython(), ["-m", "venv", venv.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let before = Set(relativePaths(under: venv.path))
        let pip = venv.appendingPathComponent("bin/pip").path
        let install = try runProcess(pip, ["install", "--no-index", "--no-cache-dir", wheel], timeout: 300)
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        let bin = venv.appendingPathComponent("bin").path
        try assertOnPathAndSameOutputs(bin: bin)

        // The module, in that venv: binary(), run() with its summary and its error, python -m,
        // and read_table's message where pandas and pyarrow are not installed.
        let python = venv.appendingPathComponent("bin/python").path
        let out = try temporaryFolder(self).appendingPathComponent("out").path
        let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
        let module = try runProcess(python, ["-c", """
            import sys, healthetl
            print(healthetl.binary())
            summary = healthetl.run(["import", sys.argv[1], "--out", sys.argv[2], "--timezone", "Europe/Berlin"])
            print(summary["mode"], summary["days"], summary["healthetl"].split()[0], healthetl.__version__)
            try:
                healthetl.run(["import", sys.argv[2] + "/missing.zip", "--out", sys.argv[2]])
            except healthetl.HealthETLError as failure:
                print("error", failure.returncode, failure.message)
            try:
                healthetl.read_table(sys.argv[2], "daily")
            except ImportError as missing:
                print("import-error", missing)
            """, sample, out], timeout: 300)
        XCTAssertEqual(module.status, 0, module.stdout + module.stderr)
        let lines = module.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, bin + "/healthetl")
        XCTAssertEqual(lines.dropFirst().first, "full 30 \(Release.version) \(Release.version)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("error 66 healthetl: ") && $0.contains("missing.zip") }, module.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("import-error healthetl.read_table needs pandas and pyarrow") }, module.stdout)
        let dashM = try runProcess(python, ["-m", "healthetl", "--version"])
        XCTAssertEqual(dashM.status, 0, dashM.stderr)
        XCTAssertEqual(dashM.stdout, try runProcess(bin + "/healthetl", ["--version"]).stdout)

        // read_table where pandas and pyarrow are: the tests' venv, with this venv's package on its path.
        let site = try XCTUnwrap(relativePaths(under: venv.path).first { $0.hasSuffix("/site-packages/healthetl") }, "the installed package")
        let read = try runProcess(try TestTools.python(importing: ["pandas", "pyarrow"]), ["-c", """
            import sys
            sys.path.insert(0, sys.argv[1])
            import sqlite3, healthetl
            daily = healthetl.read_table(sys.argv[2], "daily")
            store = sqlite3.connect(sys.argv[2] + "/health.sqlite").execute("SELECT COUNT(*), SUM(steps) FROM daily_analytics").fetchone()
            print(type(daily).__name__, len(daily), int(daily["steps"].sum()), store[0], int(store[1]))
            """, venv.appendingPathComponent(site).deletingLastPathComponent().path, out])
        XCTAssertEqual(read.status, 0, read.stdout + read.stderr)
        let words = read.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        XCTAssertEqual(words.first, "DataFrame", read.stdout)
        XCTAssertEqual(words.count, 5, read.stdout)
        if words.count == 5 {
            XCTAssertEqual(words[1], words[3], "as many rows as the store's daily table")
            XCTAssertEqual(words[2], words[4], "the same steps as the store's")
            XCTAssertEqual(words[1], "30")
        }

        let uninstall = try runProcess(pip, ["uninstall", "-y", "healthetl"])
        XCTAssertEqual(uninstall.status, 0, uninstall.stdout + uninstall.stderr)
        let after = Set(relativePaths(under: venv.path))
        XCTAssertEqual(after.subtracting(before).sorted(), [], "left behind by pip uninstall")
        XCTAssertEqual(before.subtracting(after).sorted(), [])
    }

    func testPipxInstallPutsItOnPathImportsAsMakeBuildsDoesAndPipxUninstallRemovesIt() throws {
        let wheel = try Self.wheel()
        let pipx = try venvTool("pipx")
        let place = try temporaryFolder(self)
        let environment = ["PIPX_HOME": place.path + "/pipx", "PIPX_BIN_DIR": place.path + "/bin", "PIPX_MAN_DIR": place.path + "/man",
                           "PIPX_DEFAULT_PYTHON": try systemPython(), "HOME": place.path]
        let install = try runProcess(pipx, ["install", wheel], timeout: 300, environment: environment)
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        try assertOnPathAndSameOutputs(bin: place.path + "/bin")
        let uninstall = try runProcess(pipx, ["uninstall", "healthetl"], environment: environment)
        XCTAssertEqual(uninstall.status, 0, uninstall.stdout + uninstall.stderr)
        XCTAssertEqual(relativePaths(under: place.path + "/bin"), [], "no healthetl left on PATH")
        // pipx keeps its lock file (.healthetl.lock) beside the venvs: pipx's own, not the package's.
        XCTAssertEqual(relativePaths(under: place.path + "/pipx/venvs").filter { !$0.hasSuffix(".lock") }, [], "no venv left")
    }

    func testUvToolInstallPutsItOnPathImportsAsMakeBuildsDoesAndUvToolUninstallRemovesIt() throws {
        let wheel = try Self.wheel()
        let uv = try venvTool("uv")
        let place = try temporaryFolder(self)
        let environment = ["UV_TOOL_DIR": place.path + "/tools", "UV_TOOL_BIN_DIR": place.path + "/bin", "UV_CACHE_DIR": place.path + "/cache",
                           "UV_PYTHON": try systemPython(), "UV_PYTHON_DOWNLOADS": "never", "UV_OFFLINE": "1", "HOME": place.path]
        let install = try runProcess(uv, ["tool", "install", wheel], timeout: 300, environment: environment)
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        try assertOnPathAndSameOutputs(bin: place.path + "/bin")
        let uninstall = try runProcess(uv, ["tool", "uninstall", "healthetl"], environment: environment)
        XCTAssertEqual(uninstall.status, 0, uninstall.stdout + uninstall.stderr)
        XCTAssertEqual(relativePaths(under: place.path + "/bin"), [], "no healthetl left on PATH")
        XCTAssertEqual(relativePaths(under: place.path + "/tools").filter { !$0.hasPrefix(".") }, [], "no tool left")
    }

    /// `healthetl` is what a shell with `bin` on PATH finds (and nothing else of the environment),
    /// says the tarball's version, and gives the sample's outputs as make build's binary does.
    private func assertOnPathAndSameOutputs(bin: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let found = try runProcess("/usr/bin/env", ["-i", "PATH=\(bin):/usr/bin:/bin", "/bin/sh", "-c", "command -v healthetl && healthetl --version"])
        XCTAssertEqual(found.status, 0, found.stderr, file: file, line: line)
        let tarball = try DebianPackageTests.extractedTarballBinary(self)
        XCTAssertEqual(found.stdout, bin + "/healthetl\n" + (try runProcess(tarball, ["--version"]).stdout), file: file, line: line)
        let built = TestPaths.packageRoot.appendingPathComponent(".build/release/healthetl").path
        let compare = try runProcess(TestPaths.packageRoot.appendingPathComponent("scripts/compare-outputs.sh").path,
                                     [built, bin + "/healthetl"], timeout: 600)
        XCTAssertEqual(compare.status, 0, String(compare.stdout.suffix(3000)) + String(compare.stderr.suffix(3000)), file: file, line: line)
        XCTAssertTrue(compare.stdout.contains("same: plain full.dump") && compare.stdout.contains("same: person incr.sums"), compare.stdout,
                      file: file, line: line)
        XCTAssertFalse(compare.stdout.contains("DIFFERENT"), compare.stdout, file: file, line: line)
    }
}
