import HealthCore
import SQLite

/// One row of the `runs` table, as `status` and `people` show it.
package struct StoredRun: Sendable, Equatable {
    package var id: Int64
    package var finishedUTC: String?
    package var mode: String?
    package var input: String?
    package var recordsRead: Int64?
    package var newSamples: Int64?
    package var skippedByAnchor: Int64?
    package var quarantined: Int64?
    /// Seconds the run took, rounded to a tenth.
    package var seconds: Double?
    /// The zone the run's local days used.
    package var timeZone: String?
}

/// What a finished run records (`runs`): written into the staged store before it is
/// published, so a store never shows a run that did not finish.
package struct RunRecord: Sendable {
    package var startedUTC: String
    package var finishedUTC: String
    package var input: String
    package var inputKind: String
    package var inputBytes: Int64
    package var status: String
    package var elements: Int64
    package var recordsRead: Int
    package var samples: Int
    package var duplicates: Int
    package var quarantined: Int
    package var workouts: Int
    package var routePoints: Int
    /// JSON: element name → count.
    package var unknownElements: String
    package var repaired: String
    package var seconds: Double
    package var timeZone: String
    package var mode: String
    package var newSamples: Int
    package var skippedByAnchor: Int

    package init(startedUTC: String, finishedUTC: String, input: String, inputKind: String, inputBytes: Int64, status: String,
                elements: Int64, recordsRead: Int, samples: Int, duplicates: Int, quarantined: Int, workouts: Int,
                routePoints: Int, unknownElements: String, repaired: String, seconds: Double, timeZone: String,
                mode: String, newSamples: Int, skippedByAnchor: Int) {
        self.startedUTC = startedUTC; self.finishedUTC = finishedUTC; self.input = input; self.inputKind = inputKind
        self.inputBytes = inputBytes; self.status = status; self.elements = elements; self.recordsRead = recordsRead
        self.samples = samples; self.duplicates = duplicates; self.quarantined = quarantined; self.workouts = workouts
        self.routePoints = routePoints; self.unknownElements = unknownElements; self.repaired = repaired
        self.seconds = seconds; self.timeZone = timeZone; self.mode = mode; self.newSamples = newSamples
        self.skippedByAnchor = skippedByAnchor
    }

    /// Appends this run to the store's log (one transaction, or a savepoint of the caller's).
    package func record(in database: Database) throws {
        try database.transaction {
            try database.rows("""
            INSERT INTO runs (started_utc, finished_utc, input, input_kind, input_bytes, status, elements, records_read,
              samples, duplicates, quarantined, workouts, route_points, unknown_elements, repaired, seconds, timezone,
              mode, new_samples, skipped_by_anchor)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """, [.text(startedUTC), .text(finishedUTC), .text(input), .text(inputKind), .integer(inputBytes),
                  .text(status), .integer(elements), .integer(Int64(recordsRead)), .integer(Int64(samples)),
                  .integer(Int64(duplicates)), .integer(Int64(quarantined)), .integer(Int64(workouts)),
                  .integer(Int64(routePoints)), .text(unknownElements), .text(repaired), .real(seconds),
                  .text(timeZone), .text(mode), .integer(Int64(newSamples)), .integer(Int64(skippedByAnchor))])
        }
    }
}

/// The run history and the store's status: the only readers of `runs` and `anchors`.
extension HealthStore {
    /// Whether the database has a run log (a HealthETL store has; another SQLite file has not).
    package func hasRunLog() throws -> Bool { try database.hasTable("runs") }

    /// The latest runs, newest first.
    package func recentRuns(limit: Int) throws -> [StoredRun] {
        try database.rows("""
            SELECT id, finished_utc, mode, input, records_read, new_samples, skipped_by_anchor, quarantined,
                   round(seconds, 1), timezone
            FROM runs ORDER BY id DESC LIMIT ?
            """, [.integer(Int64(limit))]).map { r in
            StoredRun(id: r[0].int ?? 0, finishedUTC: r[1].string, mode: r[2].string, input: r[3].string,
                      recordsRead: r[4].int, newSamples: r[5].int, skippedByAnchor: r[6].int, quarantined: r[7].int,
                      seconds: r[8].double, timeZone: r[9].string)
        }
    }

    /// The last run, if any finished.
    package func lastRun() throws -> StoredRun? { try recentRuns(limit: 1).first }

    /// The id of the last run (nil: none finished).
    package func lastRunID() throws -> Int64? { try database.scalar("SELECT max(id) FROM runs").int }

    /// The zone of the latest run that recorded one.
    package func lastRecordedZone() throws -> String? {
        try database.scalar("SELECT timezone FROM runs WHERE timezone IS NOT NULL ORDER BY id DESC LIMIT 1").string
    }

    /// The number of rows of a store table (`status`).
    package func rowCount(of table: String) throws -> Int64 {
        try database.scalar("SELECT count(*) FROM \(table)").int ?? 0
    }

    /// The analytics' first and last day and their number of days (`people`).
    package func dayRange() throws -> (first: String?, last: String?, days: Int) {
        let r = try database.rows("SELECT MIN(date), MAX(date), COUNT(*) FROM daily_analytics").first
        return (r?[0].string, r?[1].string, Int(r?[2].int ?? 0))
    }

    /// The anchors' number of (type, source) pairs and their newest creation date.
    package func anchorSummary() throws -> (pairs: Int64, newest: Timestamp?) {
        let r = try database.rows("SELECT count(*), max(newest_creation_us) FROM anchors").first ?? []
        return (r.first?.int ?? 0, r.count > 1 ? r[1].int.map { Timestamp(microseconds: $0) } : nil)
    }
}
