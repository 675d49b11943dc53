import Foundation
import HealthCore
import HealthIngest
import SQLite

// Reading what a test made: an export in-process, a store by plain SQL.


/// Reads every batch of an export in-process.
package func readBatches(_ path: String) throws -> (batches: [IngestBatch], summary: ExportReader.Summary) {
    let collected = BatchBox()
    let summary = try ExportReader(source: ExportSource(path: path), batchSize: 64).run { collected.batches.append($0) }
    return (collected.batches, summary)
}

package final class BatchBox: @unchecked Sendable {
    package var batches: [IngestBatch] = []
    package init() {}
}


/// Opens a store read-only and returns a query's first column as strings.
package func query(_ db: String, _ sql: String) throws -> [String] {
    try Database(path: db, mode: .readOnly).rows(sql).map { $0.first?.string ?? "NULL" }
}

/// Opens a store read-only and returns every column of a query.
package func queryRows(_ db: String, _ sql: String) throws -> [[SQLValue]] {
    try Database(path: db, mode: .readOnly).rows(sql)
}

/// Every analytics table and the sample set, as comparable lines.
package let analyticsQueries = [
    "SELECT * FROM daily_analytics ORDER BY date",
    "SELECT * FROM weekly_analytics ORDER BY week_start",
    "SELECT * FROM monthly_analytics ORDER BY start_date",
    "SELECT * FROM yearly_analytics ORDER BY year",
    "SELECT * FROM sleep_sessions ORDER BY night_date",
    "SELECT * FROM daily_metrics ORDER BY date, type",
    "SELECT date, hour, type, round(sum, 6) FROM hourly_metrics ORDER BY date, type, hour",
    "SELECT count(*), sum(value), count(DISTINCT identity) FROM sample_data",
    "SELECT id, activity_type, start_utc, distance_m FROM workouts ORDER BY id",
    "SELECT * FROM activity_summaries ORDER BY date",
    "SELECT local_day, count(*), sum(value) FROM sample_data GROUP BY local_day ORDER BY local_day",
    "SELECT id, local_date FROM workouts ORDER BY id",
    "SELECT identity, local_day, copies FROM duplicate_copies ORDER BY identity",
]

/// Rows of every analytics query, without row ids and run stamps.
package func analyticsSnapshot(_ store: String) throws -> [String] {
    let db = try Database(path: store, mode: .readOnly)
    var out: [String] = []
    for sql in analyticsQueries {
        let stmt = try db.prepare(sql)
        while try stmt.step() {
            let cells = (0..<stmt.columnCount).filter { !["id", "recorded_at"].contains(stmt.columnName($0)) || sql.contains("workouts") }
                .map { i -> String in
                    switch stmt.value(i) {
                    case .real(let v): String(format: "%.9g", v)
                    default: stmt.value(i).description
                    }
                }
            out.append(sql.prefix(30) + ": " + cells.joined(separator: "|"))
        }
    }
    return out
}
