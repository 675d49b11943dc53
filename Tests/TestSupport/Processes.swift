import Foundation
import XCTest

package struct ProcessResult {
    package var status: Int32
    package var stdout: String
    package var stderr: String
    /// The process died of a signal (`status` is its number), not by exiting.
    package var killedBySignal = false

    package init(status: Int32, stdout: String, stderr: String, killedBySignal: Bool = false) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.killedBySignal = killedBySignal
    }
}

/// The one process runner of the tests: runs a program to completion with a time limit. A
/// timeout is a failure (an error naming the program), never a skip: a hang must not pass for
/// a missing tool, nor stall CI.
@discardableResult
package func runProcess(_ executable: String, _ arguments: [String], timeout: TimeInterval = 120,
                        environment: [String: String]? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = Handoff(), errData = Handoff()
    let group = DispatchGroup()
    group.enter(); DispatchQueue.global().async { outData.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.enter(); DispatchQueue.global().async { errData.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
        process.terminate()
        process.waitUntilExit()
        throw NSError(domain: "test", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(executable) timed out after \(Int(timeout)) s"])
    }
    process.waitUntilExit()
    group.wait()
    return ProcessResult(status: process.terminationStatus,
                         stdout: String(decoding: outData.data, as: UTF8.self),
                         stderr: String(decoding: errData.data, as: UTF8.self),
                         killedBySignal: process.terminationReason == .uncaughtSignal)
}

private final class Handoff: @unchecked Sendable { var data = Data() }

/// Runs `healthetl` with arguments.
@discardableResult
package func healthetl(_ arguments: [String], timeout: TimeInterval = 300) throws -> ProcessResult {
    try runProcess(TestPaths.binary, arguments, timeout: timeout)
}

/// Imports `export` into `out` with `--json` (in `zone`, Europe/Berlin unless told), fails the
/// test on a non-zero exit and returns the run's summary: the last JSON line of stdout.
@discardableResult
package func importJSON(_ export: String, _ out: String, _ extra: [String] = [], zone: String? = "Europe/Berlin",
                        file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
    let r = try healthetl(["import", export, "--out", out, "--json"] + (zone.map { ["--timezone", $0] } ?? []) + extra)
    XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
    let summary = try XCTUnwrap(r.stdout.split(separator: "\n").last { $0.hasPrefix("{") }, r.stdout, file: file, line: line)
    return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any], r.stdout, file: file, line: line)
}

/// Runs the export generator (Python tooling) with arguments.
package func generateExport(_ arguments: [String]) throws {
    let result = try runProcess(try TestTools.python(), [TestPaths.generator] + arguments, timeout: 300)
    XCTAssertEqual(result.status, 0, result.stderr)
}

/// Splits `full` at `cut` (the export's own date format) into an older export (`n.xml`, records
/// before the cut) and a newer one (`n1.xml`, everything), in `dir`: the nightly tests' pair.
package func splitExport(_ full: String, at cut: String, in dir: URL, named names: (older: String, newer: String) = ("n.xml", "n1.xml"),
                         file: StaticString = #filePath, line: UInt = #line) throws -> (older: String, newer: String) {
    let older = dir.appendingPathComponent(names.older).path, newer = dir.appendingPathComponent(names.newer).path
    let split = try runProcess(try TestTools.python(), [TestPaths.script("split_export.py"), full, cut, older, newer])
    XCTAssertEqual(split.status, 0, split.stderr, file: file, line: line)
    return (older, newer)
}

/// Zips the folder `root` into `zip` as the Health app does (Python's zipfile, tooling only): every
/// file under it, deflated, named from the folder's own name on (`apple_health_export/…`), in
/// sorted order; then each of `extra` (name and bytes), such as a stray `__MACOSX/` entry.
package func zipFolder(_ root: String, into zip: String, adding extra: [(name: String, bytes: Data)] = [],
                       file: StaticString = #filePath, line: UInt = #line) throws {
    let script = """
        import os, sys, zipfile
        root, out, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
        with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
            for d, _, files in os.walk(root):
                for f in sorted(files):
                    p = os.path.join(d, f)
                    z.write(p, os.path.relpath(p, os.path.dirname(root)))
            for name, data in zip(extra[::2], extra[1::2]):
                z.writestr(name, bytes.fromhex(data))
        """
    let pairs = extra.flatMap { [$0.name, $0.bytes.map { String(format: "%02x", $0) }.joined()] }
    let made = try runProcess(try TestTools.python(), ["-c", script, root, zip] + pairs)
    XCTAssertEqual(made.status, 0, made.stderr, file: file, line: line)
}

/// `healthetl` with `arguments`: its exit status, peak resident memory in MiB (the child's, from
/// Python's `getrusage`) and standard error.
package func healthetlPeakMemory(_ arguments: [String]) throws -> (status: Int32, mib: Double, stderr: String) {
    let script = """
        import resource, subprocess, sys
        r = subprocess.run(sys.argv[1:], capture_output=True, text=True)
        sys.stderr.write(r.stderr)
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)
        """
    let r = try runProcess(try TestTools.python(), ["-c", script, TestPaths.binary] + arguments, timeout: 600)
    let words = r.stdout.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
    return (Int32(words.last ?? "") ?? -1, (Double(words.first ?? "") ?? .infinity) / 1024, r.stderr)
}
