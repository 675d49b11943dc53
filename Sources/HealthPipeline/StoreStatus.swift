import Foundation
import HealthCore
import HealthEmit
import HealthStore
import SQLite

/// `healthetl status`: the last runs and the size of each table, read-only.
public struct StoreStatus {
    public let folder: OutputFolder
    public init(folder: OutputFolder) { self.folder = folder }

    public func report() throws -> String {
        let pending = CheckpointFiles.pending(in: folder).map {
            "Pending resume: \($0.description); the same import command resumes it"
        }
        guard FileManager.default.fileExists(atPath: folder.databasePath) else {
            if let pending { return "Store: none published yet\n" + pending }
            throw HealthETLError.inputMissing("\(folder.databasePath): no store yet (run healthetl import first)")
        }
        let db = try Database(path: folder.databasePath, mode: .readOnly)
        if let problem = StoreCheck.problem(in: db) { throw StoreCheck.damaged(folder.databasePath, problem) }
        let store = HealthStore(database: db)
        guard try store.hasRunLog() else {
            throw HealthETLError.dataUnusable("\(folder.databasePath) is not a HealthETL store (no runs table); "
                + "`healthetl import EXPORT --out \(folder.path) --full` replaces it")
        }
        var lines = ["Store: \(folder.databasePath)", "Last runs:"]
        // A missing value shows as SQL's NULL, as the log holds it.
        func show<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "NULL" }
        for run in try store.recentRuns(limit: 5) {
            lines.append("  \(show(run.finishedUTC)) \(show(run.mode)) \(show(run.input)): \(show(run.recordsRead)) records read, "
                + "\(show(run.newSamples)) new samples, \(show(run.skippedByAnchor)) skipped by anchors, "
                + "\(show(run.quarantined)) quarantined, \(show(run.seconds)) s")
        }
        lines.append("Tables:")
        // `ecg_recordings` came with schema 4: a store of version 3 lists it after its next import.
        let hasECG = try db.hasTable("ecg_recordings")
        for table in ["samples", "workouts", "workout_route_points", "activity_summaries", "daily_analytics", "sleep_sessions",
                      "quarantine"] + (hasECG ? ["ecg_recordings"] : []) {
            lines.append("  \(table): \(try store.rowCount(of: table))")
        }
        let anchors = try store.anchorSummary()
        lines.append("Anchors: \(anchors.pairs) (type, source) pairs, newest creationDate \(anchors.newest?.iso8601 ?? "none")")
        let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: folder.stateFolder)) ?? [])
            .filter { $0.contains(".partial-") || $0.hasPrefix("staging-") }
        if let pending { lines.append(pending) }
        lines.append(leftovers.isEmpty ? (pending == nil ? "Pending: none" : "")
            : "Pending: an unfinished run left \(leftovers.joined(separator: ", ")); the next import removes them")
        return lines.joined(separator: "\n")
    }
}
