import Foundation
import HealthCore
import HealthEmit
import SQLite
import HealthStore

/// `healthetl reset`: start over. With `keepProfile`, the store keeps its samples and the
/// profile but loses its analytics and anchors, so the next import checks every record by
/// identity and recomputes every day; without, the store and its CSV/Parquet files go.
public struct StoreReset {
    public let folder: OutputFolder
    public init(folder: OutputFolder) { self.folder = folder }

    public func run(keepProfile: Bool) throws -> String {
        guard FileManager.default.fileExists(atPath: folder.databasePath) else {
            throw HealthETLError.inputMissing("\(folder.databasePath): no store to reset")
        }
        let lock = try RunLock(folder: folder)
        defer { withExtendedLifetime(lock) {} }
        if keepProfile {
            let database = try Database(path: folder.databasePath, mode: .readWrite)
            try database.transaction {
                try AnalyticsWriter(database: database).clear()
                try database.execute("DELETE FROM anchors")
            }
            return "Cleared analytics and anchors of \(folder.databasePath); samples and profile kept."
        }
        let fm = FileManager.default
        for path in [folder.databasePath, (folder.path as NSString).appendingPathComponent("csv"),
                     (folder.path as NSString).appendingPathComponent("parquet")] where fm.fileExists(atPath: path) {
            try fm.removeItem(atPath: path)
        }
        return "Removed the store and its CSV/Parquet files in \(folder.path)."
    }
}
