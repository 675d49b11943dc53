import Foundation
import XCTest
import HealthQL
import SQLite
import TestSupport

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
        let gen = try runProcess(try TestTools.python(), [TestPaths.generator, "--out", export, "--days", "35",
                                                     "--start", "2024-03-04", "--seed", "7", "--truth", truthPath,
                                                     "--zone", "Europe/Berlin"])
        guard gen.status == 0 else { throw NSError(domain: "generator", code: Int(gen.status), userInfo: [NSLocalizedDescriptionKey: gen.stderr]) }
        let imported = try runProcess(TestPaths.binary, ["import", export, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
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
