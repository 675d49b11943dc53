import Foundation
import HealthCore
import HealthEmit
import SQLite
import HealthStore

/// `healthetl reset`: start over. With `keepProfile`, the store keeps its samples and the
/// profile but loses its analytics and anchors, so the next import checks every record by
/// identity and recomputes every day; without, every output of the folder goes (`ResetPlan`).
public struct StoreReset {
    public let folder: OutputFolder
    public init(folder: OutputFolder) { self.folder = folder }

    public func run(keepProfile: Bool) throws -> String {
        let pending = CheckpointFiles.pending(in: folder) != nil
            || ["load.sqlite", "delta.sqlite"].contains { FileManager.default.fileExists(atPath: (folder.stateFolder as NSString).appendingPathComponent($0)) }
        guard FileManager.default.fileExists(atPath: folder.databasePath) || pending || !ResetPlan(folder: folder).paths.isEmpty else {
            throw HealthETLError.inputMissing("\(folder.databasePath): no store to reset")
        }
        let lock = try RunLock(folder: folder)
        defer { withExtendedLifetime(lock) {} }
        // Listed with the lock held (its file stays): what is removed is what is said.
        let plan = ResetPlan(folder: folder)
        let lines = plan.lines
        if keepProfile && FileManager.default.fileExists(atPath: folder.databasePath) {
            // An interrupted run's state goes in every case (damaged or not, it is never resumed after a reset).
            CheckpointFiles.clear(in: folder)
            let database = try Database(path: folder.databasePath, mode: .readWrite)
            try database.transaction {
                try AnalyticsWriter(database: database).clear()
                try database.execute("DELETE FROM anchors")
            }
            return "Cleared analytics and anchors of \(folder.databasePath); samples and profile kept."
        }
        CheckpointFiles.clear(in: folder)
        try plan.remove()
        return "Removed from \(folder.path):\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
}
