import Foundation
import HealthCore
import SQLite

/// The rows a query returned, with how long it took.
public struct QueryResult: Sendable {
    public var columns: [ResultColumn]
    public var rows: [[SQLValue]]
    public var milliseconds: Double
    /// The SQL that ran (for `.explain`-style debugging and tests).
    public var sql: String
    /// What the reader should know to read the rows right: where `today()` was anchored, that a
    /// filter read raw samples where days were probably meant.
    public var notes: [String] = []
    /// With `QueryEngine.rowLimit`: how many rows the query has in all (more than `rows` holds
    /// when the limit cut them); nil without a limit.
    public var totalRows: Int?
}

/// Parse → plan → run against one store. The entry point of the CLI, the REPL, the MCP server and the DSL.
public final class QueryEngine {
    package let store: StoreContext
    /// `--now`: the instant relative dates count from. Unset, they count from the data's end
    /// (`dataAnchor`), and a result that used them says so in a note.
    public var fixedNow: Date? {
        didSet { givenNow = fixedNow.map { StoreContext.anchor(at: Timestamp(secondsSince1970: $0.timeIntervalSince1970), store) } }
    }
    /// `--now` as the planner reads it (set by `fixedNow` or `setNow(_:)`).
    private var givenNow: DataAnchor?
    /// Seconds a query may run before it is stopped (the MCP server sets one); nil: no limit.
    public var timeLimit: Double?
    /// The most rows a result holds (the MCP server sets one, so an answer fits an assistant's
    /// context); the rest are counted, not kept (`QueryResult.totalRows`). nil: every row.
    public var rowLimit: Int?
    /// The data's last complete day and the export's time (computed once).
    package private(set) lazy var dataAnchor: DataAnchor? = store.computeDataAnchor()

    public init(storePath: String) throws { store = try StoreContext(path: storePath) }
    package init(store: StoreContext) { self.store = store }

    package func plan(_ text: String, now: Date? = nil) throws(HealthQLError) -> Plan {
        try planner(now: now).plan(try Parser.parse(text))
    }

    /// The clock a request's `started` is read from (monotonic, in nanoseconds).
    package static func monotonicNow() -> UInt64 { Database.monotonicNow() }

    /// The longest query text read (a 10,000-value IN list is some 70 KB): a larger one is a
    /// usage error before it is parsed (issue 46).
    package static let maximumTextBytes = 1 << 20

    /// `started`: when the request began (`Database.monotonicNow()`; now by default): the time
    /// limit counts from there, over reading and planning as well as SQLite's work.
    public func run(_ text: String, now: Date? = nil, started: UInt64 = Database.monotonicNow()) throws -> QueryResult {
        guard text.utf8.count <= Self.maximumTextBytes else {
            throw HealthQLError("The query is longer than \(Self.maximumTextBytes >> 20) MiB: make it shorter (a range or a JOIN, not a long list)", at: .start)
        }
        let query = try Parser.parse(text)
        return try run(query, now: now, started: started)
    }

    /// A query built with the Swift DSL (`Health.select(…)`).
    public func run(_ query: HealthQuery, now: Date? = nil) throws -> QueryResult {
        try run(query.query, now: now)
    }

    package func run(_ query: Query, now: Date? = nil) throws -> QueryResult {
        try run(query, now: now, started: Database.monotonicNow())
    }

    /// `--now 2024-04-01` (that day is today(), now() its end) or `--now '2024-04-01 08:00'`, in the store's zone.
    package func setNow(_ text: String) throws(HealthQLError) {
        var clock = store.clock(now: Timestamp(secondsSince1970: 0))
        switch clock.parseTime(text) {
        case .date(let day)?:
            givenNow = DataAnchor(today: day, now: clock.instant(of: day.adding(days: 1)), reason: "from --now")
        case .instant(let t)?:
            givenNow = StoreContext.anchor(at: t, store)
        default:
            throw HealthQLError("--now: '\(text)' is not a date (use YYYY-MM-DD or 'YYYY-MM-DD HH:MM')", at: .start)
        }
    }

    /// "today() is 2024-04-18, the last complete day of the data (…)", for a session's greeting.
    package var todayDescription: String? {
        (givenNow ?? dataAnchor).map { "today() is \($0.today.iso8601), \($0.reason)" }
    }

    /// An explicit `now` (argument, then `--now`) is the wall clock's; without one, the data's anchor.
    private func planner(now: Date?) -> Planner {
        if let explicit = now {
            return Planner(store: store, now: Timestamp(secondsSince1970: explicit.timeIntervalSince1970))
        }
        if let givenNow { return Planner(store: store, now: givenNow.now, today: givenNow.today) }
        if let anchor = dataAnchor { return Planner(store: store, now: anchor.now, today: anchor.today) }
        return Planner(store: store, now: Timestamp(secondsSince1970: Date().timeIntervalSince1970))
    }

    /// SQLite's limits that a query, not the program, ran into: said as a mistake in the query
    /// (a usage error, 64), not as an internal error (70) (issue 46).
    static let limitsOfSQLite = ["parser stack overflow", "Expression tree is too large", "LIKE or GLOB pattern too complex",
                                 "too many columns", "too many terms", "too many SQL variables", "string or blob too big"]

    static func tooLarge(_ error: SQLiteError) -> HealthQLError? {
        guard let limit = limitsOfSQLite.first(where: { error.description.contains($0) }) else { return nil }
        return HealthQLError("The query is too large for SQLite (\(limit)): make it shorter or simpler", at: .start)
    }

    private func run(_ query: Query, now: Date?, started: UInt64) throws -> QueryResult {
        let plan = try planner(now: now).plan(query)
        let read = { () throws -> ([[SQLValue]], Int?) in
            guard let limit = self.rowLimit else { return (try self.store.database.rows(plan.sql, plan.bindings), nil) }
            let statement = try self.store.database.prepare(plan.sql)
            try statement.bind(plan.bindings)
            var kept: [[SQLValue]] = [], total = 0
            while try statement.step() {
                if total < limit { kept.append(statement.row()) }
                total += 1
            }
            return (kept, total)
        }
        let (rows, total): ([[SQLValue]], Int?)
        do {
            (rows, total) = try timeLimit.map { limit in try store.database.withTimeLimit(seconds: limit, since: started, read) } ?? read()
        } catch let error as SQLiteError {
            throw Self.tooLarge(error) ?? error
        }
        let elapsed = Double(Database.monotonicNow() - started) / 1_000_000
        var result = QueryResult(columns: plan.columns, rows: rows, milliseconds: elapsed, sql: plan.sql)
        result.totalRows = total
        if now == nil, givenNow == nil, query.readsClock, let anchor = dataAnchor { result.notes.append(anchor.note) }
        result.notes += try SampleFilterNote.note(for: query, rowCount: rows.count)
        return result
    }
}
