import Foundation
import HealthCore
import HealthEmit

/// `healthetl status`: the last runs and the size of each table, read-only.
public struct StoreStatus {
    public let folder: OutputFolder
    public init(folder: OutputFolder) { self.folder = folder }

    public func report() throws -> String {
        guard FileManager.default.fileExists(atPath: folder.databasePath) else {
            throw HealthETLError.inputMissing("\(folder.databasePath): no store yet (run healthetl import first)")
        }
        let db = try Database(path: folder.databasePath, mode: .readOnly)
        var lines = ["Store: \(folder.databasePath)", "Last runs:"]
        for row in try db.rows("""
            SELECT finished_utc, status, input, samples, duplicates, quarantined, round(seconds, 1)
            FROM runs ORDER BY id DESC LIMIT 5
            """) {
            lines.append("  \(row[0]) \(row[1]) \(row[2]): \(row[3]) samples, \(row[4]) duplicates dropped, "
                + "\(row[5]) quarantined, \(row[6]) s")
        }
        lines.append("Tables:")
        for table in ["samples", "workouts", "workout_route_points", "activity_summaries", "correlations", "quarantine"] {
            lines.append("  \(table): \(try db.scalar("SELECT count(*) FROM \(table)"))")
        }
        return lines.joined(separator: "\n")
    }
}
