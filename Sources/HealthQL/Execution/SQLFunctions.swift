import Foundation
import HealthCore
import SQLite

/// Application-defined SQL functions HealthQL's SQL calls: local times in the store's calendar
/// (its zone, or a traveller's timeline: SQLite only knows UTC and the machine's zone) and the
/// statistics SQLite lacks.
///
/// - `ql_local_time(us)` → `YYYY-MM-DD HH:MM:SS`, `ql_local_date(us)` → `YYYY-MM-DD`,
///   `ql_hour(us)` → `YYYY-MM-DD HH:00`, `ql_hour_start(date, hour)` → µs,
///   `ql_week(date)` → the first day of the week holding `date`,
///   `ql_label(identifier)` → `asleep_deep`, `running`, `severe` (the name users type);
/// - aggregates `ql_percentile(x, p)` (linear interpolation between closest ranks, as numpy),
///   `ql_stddev(x)`, `ql_variance(x)` (sample, n − 1).
enum SQLFunctions {
    /// What the scalar functions need, shared by them on one connection.
    final class Context {
        var calendar: LocalCalendar
        let weekStart: Int   // 0 = Monday
        init(calendar: LocalCalendar, weekStart: Int) {
            self.calendar = calendar
            self.weekStart = weekStart
        }
    }

    static func register(on database: Database, calendar: LocalCalendar, weekStart: Int) throws {
        let c = Context(calendar: calendar, weekStart: weekStart)
        try database.add(function: DatabaseFunction("ql_local_time", argumentCount: 1) { args in
            guard !args[0].isNull else { return .null }
            let instant = Timestamp(microseconds: args[0].int64)
            let second = c.calendar.secondOfDay(instant)
            let date = c.calendar.localDate(of: instant)
            return .text(date.iso8601 + " " + pad(second / 3600) + ":" + pad(second / 60 % 60) + ":" + pad(second % 60))
        })
        try database.add(function: DatabaseFunction("ql_local_date", argumentCount: 1) { args in
            guard !args[0].isNull else { return .null }
            return .text(c.calendar.localDate(of: Timestamp(microseconds: args[0].int64)).iso8601)
        })
        try database.add(function: DatabaseFunction("ql_hour", argumentCount: 1) { args in
            guard !args[0].isNull else { return .null }
            let instant = Timestamp(microseconds: args[0].int64)
            return .text(c.calendar.localDate(of: instant).iso8601 + " " + pad(c.calendar.secondOfDay(instant) / 3600) + ":00")
        })
        try database.add(function: DatabaseFunction("ql_hour_start", argumentCount: 2) { args in
            guard let date = args[0].text.flatMap({ CivilDate(iso: $0) }), !args[1].isNull else { return .null }
            return .integer(c.calendar.instant(on: date, secondOfDay: args[1].int64 * 3600).microseconds)
        })
        try database.add(function: DatabaseFunction("ql_week", argumentCount: 1) { args in
            guard let date = args[0].text.flatMap({ CivilDate(iso: $0.prefix(10)) }) else { return .null }
            return .text(date.startOfWeek(weekStart: c.weekStart).iso8601)
        })
        try database.add(function: DatabaseFunction("ql_label", argumentCount: 1) { args in
            args[0].text.map { .text(ValueLabels.label($0)) } ?? .null
        })
        try database.add(aggregate: DatabaseAggregateFunction("ql_percentile", argumentCount: 2, Percentile.self))
        try database.add(aggregate: DatabaseAggregateFunction("ql_stddev", argumentCount: 1, StandardDeviation.self))
        try database.add(aggregate: DatabaseAggregateFunction("ql_variance", argumentCount: 1, Variance.self))
    }

    private static func pad(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }

    // MARK: aggregates: every value is collected, then reduced once

    class Collector {
        var items: [Double] = []
        required init() {}
        func step(_ args: SQLFunctionArguments) {
            if !args[0].isNull { items.append(args[0].double) }
        }
    }

    final class Percentile: Collector, DatabaseAggregate {
        var fraction = 0.5
        override func step(_ args: SQLFunctionArguments) {
            super.step(args)
            // ql_percentile(x, p): p is the same on every row.
            if args.count == 2 { fraction = args[1].double }
        }
        func finalize() -> SQLValue { Statistics.percentile(items, fraction).map(SQLValue.real) ?? .null }
    }

    final class StandardDeviation: Collector, DatabaseAggregate {
        func finalize() -> SQLValue { Statistics.variance(items).map { .real($0.squareRoot()) } ?? .null }
    }

    final class Variance: Collector, DatabaseAggregate {
        func finalize() -> SQLValue { Statistics.variance(items).map(SQLValue.real) ?? .null }
    }
}

/// The statistics behind the aggregates, in plain Swift so tests can check them directly.
package enum Statistics {
    /// Linear interpolation between closest ranks (numpy's default): p in 0…1.
    package static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = min(max(p, 0), 1) * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down)), high = Int(rank.rounded(.up))
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }

    /// Sample variance (n − 1); nil below two values.
    package static func variance(_ values: [Double]) -> Double? {
        guard values.count >= 2 else { return nil }
        let mean = values.reduce(0, +) / Double(values.count)
        return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
    }
}
