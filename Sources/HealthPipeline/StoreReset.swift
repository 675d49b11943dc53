import Foundation
import HealthCore
import HealthEmit
import SQLite
import HealthStore

/// `healthetl reset`: start over. With `keepProfile`, the store keeps its samples and the
/// profile but loses its analytics and anchors, so the next import checks every record by
/// identity and recomputes every day; without, every output of the folder goes (`ResetPlan`).
package struct StoreReset {
    package let folder: OutputFolder
    package init(folder: OutputFolder) { self.folder = folder }

    /// `alongside`: more of the folder's outputs kept elsewhere (a person's dataset partitions),
    /// removed with the rest, all or nothing (`ResetPlan.remove`).
    package func run(keepProfile: Bool, alongside: [String] = []) throws -> String {
        let pending = CheckpointFiles.pending(in: folder) != nil
            || ["load.sqlite", "delta.sqlite"].contains { FileManager.default.fileExists(atPath: (folder.stateFolder as NSString).appendingPathComponent($0)) }
        guard FileManager.default.fileExists(atPath: folder.databasePath) || pending || !ResetPlan(folder: folder).paths.isEmpty
                || !alongside.isEmpty && !keepProfile else {
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
            try HealthStore(path: folder.databasePath, writable: true).clearAnalyticsAndAnchors()
            return "Cleared analytics and anchors of \(folder.databasePath); samples and profile kept."
        }
        // The staged stores and checkpoint are in the plan: they go with the rest, or stay with it.
        try plan.remove(alongside: alongside)
        return "Removed from \(folder.path):\n" + (lines + alongside).map { "  " + $0 }.joined(separator: "\n")
    }
}
