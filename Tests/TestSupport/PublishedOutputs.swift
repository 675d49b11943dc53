import Foundation
import XCTest

/// Every file under `folder` with its bytes, by relative path, but those whose relative path
/// `leftOut` names (none is an empty folder, or a folder that is missing).
package func fileContents(under folder: String, leavingOut leftOut: (String) -> Bool = { _ in false }) throws -> [String: Data] {
    var all: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return all }
    for case let relative as String in walker where !leftOut(relative) {
        var isFolder: ObjCBool = false
        let path = folder + "/" + relative
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
            all[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }
    return all
}

/// Every published output of an output folder, byte for byte (the private state folders
/// `.healthetl`, the folder's own and each person's, left out): what a failed run must leave
/// exactly as it was.
package func publishedOutputs(_ out: String) throws -> [String: Data] {
    try fileContents(under: out) { $0.split(separator: "/").contains(".healthetl") }
}

/// Fails naming every file that appeared, vanished or changed between two snapshots.
package func assertSamePublished(_ before: [String: Data], _ after: [String: Data], _ message: String,
                         file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(Set(before.keys), Set(after.keys), message, file: file, line: line)
    for name in before.keys.sorted() where after[name] != nil && before[name] != after[name] {
        XCTFail("\(name) changed: \(message)", file: file, line: line)
    }
}

/// Imports `input` into `out` (with `options`) and checks the refusal, written once for every
/// hostile or broken input: the exit `code` (65, the input is bad), standard error saying each
/// of `phrases`, an end within `seconds` when given (a refusal comes at once, never after a
/// hang), and every published output of `out` as it was (`before`, from `publishedOutputs`;
/// an empty or new folder has none). Returns the run.
@discardableResult
package func assertImportRefused(_ input: String, into out: String, options: [String] = ["--quiet"], code: Int32 = 65,
                                 saying phrases: [String], within seconds: TimeInterval? = nil, timeout: TimeInterval = 120,
                                 before: [String: Data] = [:],
                                 file: StaticString = #filePath, line: UInt = #line) throws -> ProcessResult {
    let name = (input as NSString).lastPathComponent
    let started = Date()
    let result = try runProcess(TestPaths.binary, ["import", input, "--out", out] + options, timeout: timeout)
    let took = Date().timeIntervalSince(started)
    XCTAssertEqual(result.status, code, "\(name): \(result.stderr)", file: file, line: line)
    for phrase in phrases {
        XCTAssertTrue(result.stderr.contains(phrase), "\(name): expected “\(phrase)” in: \(result.stderr)", file: file, line: line)
    }
    if let seconds { XCTAssertLessThan(took, seconds, "\(name) took too long: \(took) s", file: file, line: line) }
    assertSamePublished(before, try publishedOutputs(out), "after refusing \(name)", file: file, line: line)
    return result
}
