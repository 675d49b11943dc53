import Foundation
import XCTest

// The one support target every test target shares (issue 47): paths, temporary folders, the
// process runner and the `healthetl` runner. Its names are `package`: the package's test targets
// see them, nothing outside does. Builders of export text are in ExportXML.swift; Readers.swift
// reads an export in-process (HealthIngest) and a store by plain SQL (SQLite); Tools.swift finds
// Python, LibreOffice, Chromium and the shells, and says what a missing one means.

/// Paths of the package and of what the tests run.
package enum TestPaths {
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    package static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    package static let realExports = shared.appendingPathComponent("realexports")
    package static let generator = packageRoot.appendingPathComponent("tools/generate_export.py").path
    /// The Python checkers and drivers the end-to-end tests run (tooling only).
    package static let scripts = packageRoot.appendingPathComponent("Tests/HealthETLEndToEndTests/Scripts").path

    package static func script(_ name: String) -> String { scripts + "/" + name }

    /// The `healthetl` built next to the test bundle, whatever the scratch path (`.build`,
    /// `.build-asan`): on Linux the bundle is an executable run directly (or named in the
    /// arguments of `xctest`), and the product sits beside it.
    package static var binary: String {
        let launched = ProcessInfo.processInfo.arguments.filter { $0.hasSuffix(".xctest") || $0 == CommandLine.arguments.first }
            .map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        for candidate in launched + [Bundle(for: Marker.self).bundleURL.deletingLastPathComponent(),
                                     Bundle.main.bundleURL.deletingLastPathComponent(),
                                     packageRoot.appendingPathComponent(".build/debug")] {
            let path = candidate.appendingPathComponent("healthetl").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return packageRoot.appendingPathComponent(".build/debug/healthetl").path
    }

    /// A real export of `../shared/realexports`, or a skip when that folder is not beside the checkout.
    package static func realExport(_ relative: String) throws -> String {
        let path = realExports.appendingPathComponent(relative).path
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("missing fixture \(path)") }
        return path
    }
}

private final class Marker {}

/// A fresh temporary folder, removed at the end of the test.
package func temporaryFolder(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("healthetl-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// Where a test class keeps a fixture its tests share (made by the first that needs it, read
/// only after): a path of its own under the temporary folder, empty at first. The class removes
/// it in its `tearDown`.
package func classFixturePath(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("healthetl-\(name)-\(getpid())").path
    try? FileManager.default.removeItem(atPath: dir)
    return dir
}

/// Makes a class's shared fixture in the empty folder `path` with `make` (which says whether it
/// came out whole), unless a whole one is there already. Only a whole one is marked as made:
/// one that a failed step left half made is made again by the next test that asks.
package func makeClassFixture(at path: String, _ make: (String) throws -> Bool) throws {
    let done = path + "/.complete"
    guard !FileManager.default.fileExists(atPath: done) else { return }
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    if try make(path) { _ = FileManager.default.createFile(atPath: done, contents: Data()) }
}

/// The relative path of every file and folder under `folder`, sorted (none when it is missing):
/// what a run left in a folder, or that a decoy beside it is untouched.
package func relativePaths(under folder: String) -> [String] {
    (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
}

/// Writes `text` to a file in `folder`.
@discardableResult
package func write(_ text: String, to name: String, in folder: URL) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}
