import Foundation
import HealthCore
import PrivateFiles

/// The published store as this program left it: size, inode, modification and change times.
/// A run that finds the store so (nobody wrote it since: any write, even one that puts the
/// modification time back, moves the change time) skips SQLite's `quick_check`, which reads the
/// whole file (0.4 s at four years of data, a seventh of the nightly run); any difference and
/// the check runs. Kept in `.healthetl/published-store.json`.
struct StoreFingerprint: Codable, Equatable {
    var size: Int64
    var inode: UInt64
    var modified: Int64
    var changed: Int64

    static func of(_ path: String) -> StoreFingerprint? {
        FileStat(path).map { StoreFingerprint(size: $0.size, inode: $0.inode, modified: $0.modified, changed: $0.changed) }
    }

    static func recordPath(_ folder: OutputFolder) -> String {
        (folder.stateFolder as NSString).appendingPathComponent("published-store.json")
    }

    /// Notes the store just published (best effort: without it the next run checks the store).
    static func record(_ folder: OutputFolder) {
        guard let now = of(folder.databasePath), let data = try? JSONEncoder().encode(now) else { return }
        try? AtomicFile.write(String(decoding: data, as: UTF8.self), to: recordPath(folder))
    }

    /// Whether the store is exactly as the last run published it.
    static func unchangedSincePublished(_ folder: OutputFolder) -> Bool {
        guard let data = FileManager.default.contents(atPath: recordPath(folder)),
              let recorded = try? JSONDecoder().decode(StoreFingerprint.self, from: data) else { return false }
        return of(folder.databasePath) == recorded
    }
}
