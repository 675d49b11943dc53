import Foundation
import XCTest
import HealthStore
@testable import HealthQL
@testable import SQLite

/// Paths, processes and one shared store built from a generated export (made once per test run:
/// generating and importing is the slow part, every end-to-end test reads the same store).
enum QLPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let generator = packageRoot.appendingPathComponent("tools/generate_export.py").path
    static let scripts = packageRoot.appendingPathComponent("Tests/HealthQLTests/Scripts").path

    /// The `healthetl` built next to the test bundle (any scratch path).
    static var binary: String {
        // On Linux the test bundle is an executable run directly (or named in the arguments of
        // `xctest`); the product sits beside it whatever the scratch path.
        let launched = ProcessInfo.processInfo.arguments.filter { $0.hasSuffix(".xctest") || $0 == CommandLine.arguments.first }
            .map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        for candidate in launched + [Bundle(for: Marker.self).bundleURL.deletingLastPathComponent(),
                                     Bundle.main.bundleURL.deletingLastPathComponent(), packageRoot.appendingPathComponent(".build/debug")] {
            let path = candidate.appendingPathComponent("healthetl").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return packageRoot.appendingPathComponent(".build/debug/healthetl").path
    }

    /// The venv's python under `make test`, else the system's (only the standard library is needed).
    static var python: String { ProcessInfo.processInfo.environment["HEALTHETL_PYTHON"] ?? "/usr/bin/python3" }
}

private final class Marker {}

struct QLProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

@discardableResult
func runQLProcess(_ executable: String, _ arguments: [String], timeout: TimeInterval = 300) throws -> QLProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("ql-out-\(UUID().uuidString)")
    let err = FileManager.default.temporaryDirectory.appendingPathComponent("ql-err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    // A timeout is a failure, as in HealthETLTests' runner (issue 47: it was a skip, which hid hangs).
    if process.isRunning {
        process.terminate()
        process.waitUntilExit()
        throw NSError(domain: "test", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(executable) timed out after \(Int(timeout)) s"])
    }
    process.waitUntilExit()
    return QLProcessResult(status: process.terminationStatus,
                           stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                           stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
}

/// A store imported from a generated 35-day export (Europe/Berlin), with the generator's truth.
final class SharedStore: @unchecked Sendable {
    let folder: URL
    let out: String
    let truthPath: String
    var storePath: String { out + "/health.sqlite" }

    private init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthql-e2e-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let export = folder.appendingPathComponent("export.xml").path
        truthPath = folder.appendingPathComponent("truth.json").path
        out = folder.appendingPathComponent("out").path
        let gen = try runQLProcess("/usr/bin/env", ["python3", QLPaths.generator, "--out", export, "--days", "35",
                                                     "--start", "2024-03-04", "--seed", "7", "--truth", truthPath,
                                                     "--zone", "Europe/Berlin"])
        guard gen.status == 0 else { throw NSError(domain: "generator", code: Int(gen.status), userInfo: [NSLocalizedDescriptionKey: gen.stderr]) }
        let imported = try runQLProcess(QLPaths.binary, ["import", export, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        guard imported.status == 0 else {
            throw NSError(domain: "import", code: Int(imported.status), userInfo: [NSLocalizedDescriptionKey: imported.stderr])
        }
    }

    nonisolated(unsafe) private static var made: Result<SharedStore, Error>?
    private static let lock = NSLock()

    static func get() throws -> SharedStore {
        lock.lock()
        defer { lock.unlock() }
        if made == nil { made = Result { try SharedStore() } }
        return try made!.get()
    }

    func engine() throws -> QueryEngine { try QueryEngine(storePath: storePath) }

    /// Plain SQL on the same store, independent of HealthQL.
    func sql(_ text: String, _ bindings: [SQLValue] = []) throws -> [[SQLValue]] {
        try Database(path: storePath, mode: .readOnly).rows(text, bindings)
    }

    func truth() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: truthPath))) as? [String: Any] ?? [:]
    }
}

/// A store with the real schema in a temporary file (removed after `test`), its analytics
/// settings in Europe/Berlin under `schema`; `fill` writes the test's rows. Read back read-only,
/// as the query engine opens a store.
func schemaStore(_ test: XCTestCase, _ name: String, schema: Int, indexes: Bool = false,
                 fill: (Database) throws -> Void = { _ in }) throws -> StoreContext {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("healthql-\(name)-\(UUID().uuidString).sqlite").path
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    do {   // closed before the store is opened read-only
        let db = try Database(path: path, mode: .create)
        try db.execute(StoreSchema.tables)
        if indexes { try db.execute(StoreSchema.indexes) }
        try db.execute(StoreSchema.views)
        try db.execute("INSERT INTO settings VALUES ('analytics', 'schema=\(schema);zone=Europe/Berlin;weekStart=0')")
        try fill(db)
    }
    return try StoreContext(database: Database(path: path, mode: .readOnly))
}

