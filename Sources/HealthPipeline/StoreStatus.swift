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
        guard try db.hasTable("runs") else {
            throw HealthETLError.dataUnusable("\(folder.databasePath) is not a HealthETL store (no runs table); "
                + "`healthetl import EXPORT --out \(folder.path) --full` replaces it")
        }
        var lines = ["Store: \(folder.databasePath)", "Last runs:"]
        for row in try db.rows("""
            SELECT finished_utc, mode, input, records_read, new_samples, skipped_by_anchor, quarantined, round(seconds, 1)
            FROM runs ORDER BY id DESC LIMIT 5
            """) {
            lines.append("  \(row[0]) \(row[1]) \(row[2]): \(row[3]) records read, \(row[4]) new samples, "
                + "\(row[5]) skipped by anchors, \(row[6]) quarantined, \(row[7]) s")
        }
        lines.append("Tables:")
        // `ecg_recordings` came with schema 4: a store of version 3 lists it after its next import.
        let hasECG = try db.hasTable("ecg_recordings")
        for table in ["samples", "workouts", "workout_route_points", "activity_summaries", "daily_analytics", "sleep_sessions",
                      "quarantine"] + (hasECG ? ["ecg_recordings"] : []) {
            lines.append("  \(table): \(try db.scalar("SELECT count(*) FROM \(table)"))")
        }
        let anchors = try db.rows("SELECT count(*), max(newest_creation_us) FROM anchors").first ?? []
        let newest = anchors.count > 1 ? anchors[1].int.map { Timestamp(microseconds: $0).iso8601 } ?? "none" : "none"
        lines.append("Anchors: \(anchors.first?.int ?? 0) (type, source) pairs, newest creationDate \(newest)")
        let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: folder.stateFolder)) ?? [])
            .filter { $0.contains(".partial-") || $0.hasPrefix("staging-") }
        if let pending { lines.append(pending) }
        lines.append(leftovers.isEmpty ? (pending == nil ? "Pending: none" : "")
            : "Pending: an unfinished run left \(leftovers.joined(separator: ", ")); the next import removes them")
        return lines.joined(separator: "\n")
    }
}
