import HealthCore
import SQLite

/// One row of the `runs` table, as `status` and `people` show it.
public struct StoredRun: Sendable, Equatable {
    public var id: Int64
    public var finishedUTC: String?
    public var mode: String?
    public var input: String?
    public var recordsRead: Int64?
    public var newSamples: Int64?
    public var skippedByAnchor: Int64?
    public var quarantined: Int64?
    /// Seconds the run took, rounded to a tenth.
    public var seconds: Double?
    /// The zone the run's local days used.
    public var timeZone: String?
}

/// What a finished run records (`runs`): written into the staged store before it is
/// published, so a store never shows a run that did not finish.
public struct RunRecord: Sendable {
    public var startedUTC: String
    public var finishedUTC: String
    public var input: String
    public var inputKind: String
    public var inputBytes: Int64
    public var status: String
    public var elements: Int64
    public var recordsRead: Int
    public var samples: Int
    public var duplicates: Int
    public var quarantined: Int
    public var workouts: Int
    public var routePoints: Int
    /// JSON: element name → count.
    public var unknownElements: String
    public var repaired: String
    public var seconds: Double
    public var timeZone: String
    public var mode: String
    public var newSamples: Int
    public var skippedByAnchor: Int

    public init(startedUTC: String, finishedUTC: String, input: String, inputKind: String, inputBytes: Int64, status: String,
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
    public func record(in database: Database) throws {
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
    public func hasRunLog() throws -> Bool { try database.hasTable("runs") }

    /// The latest runs, newest first.
    public func recentRuns(limit: Int) throws -> [StoredRun] {
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
    public func lastRun() throws -> StoredRun? { try recentRuns(limit: 1).first }

    /// The id of the last run (nil: none finished).
    public func lastRunID() throws -> Int64? { try database.scalar("SELECT max(id) FROM runs").int }

    /// The zone of the latest run that recorded one.
    public func lastRecordedZone() throws -> String? {
        try database.scalar("SELECT timezone FROM runs WHERE timezone IS NOT NULL ORDER BY id DESC LIMIT 1").string
    }

    /// The number of rows of a store table (`status`).
    public func rowCount(of table: String) throws -> Int64 {
        try database.scalar("SELECT count(*) FROM \(table)").int ?? 0
    }

    /// The analytics' first and last day and their number of days (`people`).
    public func dayRange() throws -> (first: String?, last: String?, days: Int) {
        let r = try database.rows("SELECT MIN(date), MAX(date), COUNT(*) FROM daily_analytics").first
        return (r?[0].string, r?[1].string, Int(r?[2].int ?? 0))
    }

    /// The anchors' number of (type, source) pairs and their newest creation date.
    public func anchorSummary() throws -> (pairs: Int64, newest: Timestamp?) {
        let r = try database.rows("SELECT count(*), max(newest_creation_us) FROM anchors").first ?? []
        return (r.first?.int ?? 0, r.count > 1 ? r[1].int.map { Timestamp(microseconds: $0) } : nil)
    }
}
