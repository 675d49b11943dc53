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
        let pending = CheckpointFiles.pending(in: folder) != nil
            || ["load.sqlite", "delta.sqlite"].contains { FileManager.default.fileExists(atPath: (folder.stateFolder as NSString).appendingPathComponent($0)) }
        guard FileManager.default.fileExists(atPath: folder.databasePath) || pending else {
            throw HealthETLError.inputMissing("\(folder.databasePath): no store to reset")
        }
        let lock = try RunLock(folder: folder)
        defer { withExtendedLifetime(lock) {} }
        // An interrupted run's state goes in every case (damaged or not, it is never resumed after a reset).
        CheckpointFiles.clear(in: folder)
        guard FileManager.default.fileExists(atPath: folder.databasePath) else {
            return "Removed the interrupted run's state in \(folder.stateFolder); there was no store yet."
        }
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
                     (folder.path as NSString).appendingPathComponent("parquet"),
                     (folder.path as NSString).appendingPathComponent("report")] where fm.fileExists(atPath: path) {
            try fm.removeItem(atPath: path)
        }
        return "Removed the store and its CSV, Parquet and report files in \(folder.path)."
    }
}
