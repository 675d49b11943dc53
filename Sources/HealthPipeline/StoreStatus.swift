import Foundation
import HealthCore
import HealthEmit
import HealthStore
import SQLite

/// `healthetl status`: the last runs and the size of each table, read-only.
package struct StoreStatus {
    package let folder: OutputFolder
    package init(folder: OutputFolder) { self.folder = folder }

    package func report() throws -> String {
        let pending = CheckpointFiles.pending(in: folder).map {
            "Pending resume: \($0.description); the same import command resumes it"
        }
        guard FileManager.default.fileExists(atPath: folder.databasePath) else {
            if let pending { return "Store: none published yet\n" + pending }
            // A first import that failed published nothing, but the run log keeps what went wrong.
            let failed = failedRuns(limit: 3)
            throw HealthETLError.inputMissing("\(folder.databasePath): no store yet (run healthetl import first)"
                + (failed.isEmpty ? "" : "; the run log (\(runLogPath)) holds failed imports:\n" + failed.joined(separator: "\n")))
        }
        let db = try Database(path: folder.databasePath, mode: .readOnly)
        if let problem = StoreCheck.problem(in: db) { throw StoreCheck.damaged(folder.databasePath, problem) }
        let store = HealthStore(database: db)
        guard try store.hasRunLog() else {
            throw HealthETLError.dataUnusable("\(folder.databasePath) is not a HealthETL store (no runs table); "
                + "`healthetl import EXPORT --out \(folder.path) --full` replaces it")
        }
        // The platform the store's data came from, as the store keeps it (`StoreSettings.platform`).
        let platform = try StoreSettings.platform(in: db)
        let exports = try StoreExports.read(from: db)
        let platforms = exports.platforms.count > 1 ? "platforms: " + exports.platforms.map(\.rawValue).joined(separator: " + ")
            : "platform: \(platform)\(platform == "health-connect" ? ", Android" : "")"
        var lines = ["Store: \(folder.databasePath) (\(platforms))"] + exports.lines.map { "  " + $0 } + ["Last runs:"]
        // Failed runs are in the run log only (the store records the runs it published).
        let failed = failedRuns(limit: 3)
        if !failed.isEmpty { lines.insert(contentsOf: ["Failed runs since (from \(runLogPath)):"] + failed, at: 1) }
        // A missing value shows as SQL's NULL, as the log holds it.
        func show<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "NULL" }
        for run in try store.recentRuns(limit: 5) {
            lines.append("  \(show(run.finishedUTC)) \(show(run.mode)) \(show(run.input)): \(show(run.recordsRead)) records read, "
                + "\(show(run.newSamples)) new samples, \(show(run.skippedByAnchor)) skipped by anchors, "
                + "\(show(run.quarantined)) quarantined, \(show(run.seconds)) s")
        }
        if let (count, last) = unchangedRunsSinceLastRead() {
            lines.append("  then \(count) run\(count == 1 ? "" : "s") that found nothing new (the store left as published; "
                + "the last at \(last.iso8601))")
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

    /// The runs at the end of the run log that found nothing new: the export the store was
    /// built from (`UnchangedExport`), or another file of records it held (`NothingNew`). They
    /// leave the store untouched, so its history does not list them;
    /// and when the last of them ended (the log's modification time).
    private var runLogPath: String { (folder.stateFolder as NSString).appendingPathComponent("runs.log") }

    /// The failed runs at the end of the run log (after the last run that succeeded), newest
    /// last, at most `limit`: `  2026-11-27T…Z failed export.xml: the file looks cut short …`.
    private func failedRuns(limit: Int) -> [String] {
        guard let text = try? String(contentsOfFile: runLogPath, encoding: .utf8) else { return [] }
        let failures = text.split(separator: "\n").reversed().prefix { $0.contains("\"status\":\"failed\"") }
        return failures.prefix(limit).reversed().map { line in
            let entry = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
            return "  \(entry["finished_utc"] as? String ?? "?") failed \(entry["input"] as? String ?? "?"): \(entry["error"] as? String ?? "?")"
        }
    }

    /// The platform of the export the last successful run read (`apple-health`, `health-connect`):
    /// the run log's, since the store's run table has no column for it; nil before any is logged.
    private func unchangedRunsSinceLastRead() -> (Int, Timestamp)? {
        let path = runLogPath
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return nil }
        let count = text.split(separator: "\n").reversed().prefix {
            $0.contains("\"mode\":\"unchanged\"") || $0.contains("\"mode\":\"nothing-new\"")
        }.count
        return count == 0 ? nil : (count, Timestamp(secondsSince1970: modified.timeIntervalSince1970))
    }
}
