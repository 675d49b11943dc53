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
}

/// Parse → plan → run against one store. The entry point of the CLI, the REPL and the DSL.
public final class QueryEngine {
    public let store: StoreContext

    public init(storePath: String) throws { store = try StoreContext(path: storePath) }
    public init(store: StoreContext) { self.store = store }

    public func plan(_ text: String, now: Date = Date()) throws(HealthQLError) -> Plan {
        try Planner(store: store, now: Timestamp(secondsSince1970: now.timeIntervalSince1970)).plan(try Parser.parse(text))
    }

    public func run(_ text: String, now: Date = Date()) throws -> QueryResult {
        let started = DispatchTime.now().uptimeNanoseconds
        let query = try Parser.parse(text)
        return try run(query, now: now, started: started)
    }

    public func run(_ query: Query, now: Date = Date()) throws -> QueryResult {
        try run(query, now: now, started: DispatchTime.now().uptimeNanoseconds)
    }

    private func run(_ query: Query, now: Date, started: UInt64) throws -> QueryResult {
        let plan = try Planner(store: store, now: Timestamp(secondsSince1970: now.timeIntervalSince1970)).plan(query)
        let rows = try store.database.rows(plan.sql, plan.bindings)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        return QueryResult(columns: plan.columns, rows: rows, milliseconds: elapsed, sql: plan.sql)
    }
}
