import Foundation
import Synchronization
import XCTest

/// The programs the tests run besides `healthetl` (tooling only: Python and its modules,
/// LibreOffice, Chromium, Java, man, fish, zsh), each found one way, and the one rule for a
/// missing one. CI installs every tool (`.ci/run`) and `make test` and `make check` point
/// `HEALTHETL_PYTHON` at the venv `make venv` fills, so a missing tool is a test failure that
/// names it and how to install it, never a silent pass; `HEALTHETL_ALLOW_MISSING_<TOOL>=1`
/// (`PYTHON`, `LIBREOFFICE`, `CHROMIUM`, `SPARK`, `MAN`, `FISH`, `ZSH`) makes it a skip with the
/// same words, for a machine that lacks the tool on purpose.
package enum TestTools {
    /// What a missing tool is called in its `HEALTHETL_ALLOW_MISSING_…` variable.
    package enum Tool: String, Sendable {
        case python = "PYTHON", libreOffice = "LIBREOFFICE", chromium = "CHROMIUM", spark = "SPARK"
        case man = "MAN", fish = "FISH", zsh = "ZSH"

        package var allowMissing: String { "HEALTHETL_ALLOW_MISSING_" + rawValue }
    }

    /// A tool the test needs is missing: thrown, it fails the test with `description`.
    package struct Missing: Error, CustomStringConvertible {
        package var description: String
    }

    /// The error for a missing `tool`: a failure (`Missing`), or a skip when the machine allows it.
    package static func missing(_ tool: Tool, _ message: String) -> Error {
        if ProcessInfo.processInfo.environment[tool.allowMissing] == "1" { return XCTSkip(message) }
        return Missing(description: message + " (set \(tool.allowMissing)=1 to skip)")
    }

    /// The Python of the tests: `HEALTHETL_PYTHON` when set (and then only it, as `make test`
    /// sets it to the venv's), else the package's `.venv/bin/python`, else `python3` on the PATH;
    /// it must import every one of `modules` (`make venv` installs them). A missing module is
    /// reported as a missing `tool` (`.spark` for the cohort job's pyspark).
    package static func python(importing modules: [String] = [], missing tool: Tool = .python) throws -> String {
        let python = try interpreter()
        guard !modules.isEmpty else { return python }
        if let answer = probed.withLock({ $0[modules] }) {
            if let answer { return answer }
        } else {
            let probe = try runProcess(python, ["-c", "import " + modules.joined(separator: ", ")], timeout: 120)
            let answer = probe.status == 0 ? python : nil
            probed.withLock { $0[modules] = answer }
            if let answer { return answer }
        }
        throw missing(tool, "\(python) cannot import \(modules.joined(separator: ", ")): run `make venv`, "
            + "or set HEALTHETL_PYTHON to a Python that has them")
    }

    /// LibreOffice (`soffice`) for the spreadsheet read-backs; the Python checkers get it in
    /// `HEALTHETL_LIBREOFFICE` (`libreOfficeEnvironment`) rather than looking for it again.
    package static func libreOffice() throws -> String {
        guard let office = onPath(["soffice", "libreoffice"]) else {
            throw missing(.libreOffice, "LibreOffice is not installed (no soffice or libreoffice on the PATH): "
                + "apt-get install -y --no-install-recommends libreoffice-calc-nogui")
        }
        return office
    }

    /// The environment that hands a Python checker the LibreOffice found here.
    package static func libreOfficeEnvironment() throws -> [String: String] {
        ["HEALTHETL_LIBREOFFICE": try libreOffice()]
    }

    /// Headless Chromium (Debian's `chromium`) for the report's renderings.
    package static func chromium() throws -> String {
        guard let chromium = onPath(["chromium", "chromium-browser", "google-chrome"]) else {
            throw missing(.chromium, "Chromium is not installed: apt-get install -y chromium")
        }
        return chromium
    }

    /// Another program `.ci/run` installs (man, fish, zsh, java), from the PATH.
    package static func program(_ name: String, missing tool: Tool, install: String) throws -> String {
        guard let path = onPath([name]) else { throw missing(tool, "\(name) is not installed: \(install)") }
        return path
    }

    // MARK: Finding

    /// What a probe of a module list found: the Python, or nil when it cannot import them.
    private static let probed = Mutex<[[String]: String?]>([:])

    private static func interpreter() throws -> String {
        if let chosen = ProcessInfo.processInfo.environment["HEALTHETL_PYTHON"], !chosen.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: chosen) else {
                throw missing(.python, "HEALTHETL_PYTHON=\(chosen) is not an executable")
            }
            return chosen
        }
        let venv = TestPaths.packageRoot.appendingPathComponent(".venv/bin/python").path
        if FileManager.default.isExecutableFile(atPath: venv) { return venv }
        guard let python = onPath(["python3"]) else {
            throw missing(.python, "no Python: no .venv/bin/python (make venv), no python3 on the PATH, HEALTHETL_PYTHON not set")
        }
        return python
    }

    /// The first of `names` found executable in a folder of the PATH (names in order of preference).
    private static func onPath(_ names: [String]) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in names {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }
}
