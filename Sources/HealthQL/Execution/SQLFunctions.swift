import Foundation
import CSQLite
import HealthCore
import SQLite

/// Application-defined SQL functions HealthQL's SQL calls: local times in the store's zone
/// (SQLite only knows UTC and the machine's zone) and the statistics SQLite lacks.
///
/// - `ql_local_time(us)` → `YYYY-MM-DD HH:MM:SS`, `ql_local_date(us)` → `YYYY-MM-DD`,
///   `ql_hour(us)` → `YYYY-MM-DD HH:00`, `ql_hour_start(date, hour)` → µs,
///   `ql_week(date)` → the first day of the week holding `date`,
///   `ql_label(identifier)` → `asleep_deep`, `running`, `severe` (the name users type);
/// - aggregates `ql_percentile(x, p)` (linear interpolation between closest ranks, as numpy),
///   `ql_stddev(x)`, `ql_variance(x)` (sample, n − 1).
enum SQLFunctions {
    /// What the scalar functions need, owned by the connection (released by SQLite's destructor).
    final class Context {
        var calendar: LocalCalendar
        let weekStart: Int   // 0 = Monday
        init(timeZone: TimeZone, weekStart: Int) {
            calendar = LocalCalendar(timeZone: timeZone)
            self.weekStart = weekStart
        }
    }

    static func register(on database: Database, timeZone: TimeZone, weekStart: Int) {
        let db = database.sqliteHandle
        let context = Unmanaged.passRetained(Context(timeZone: timeZone, weekStart: weekStart)).toOpaque()
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        // The context is released once, by the first function's destructor; the rest borrow it.
        sqlite3_create_function_v2(db, "ql_local_time", 1, flags, context, localTime, nil, nil, releaseContext)
        sqlite3_create_function_v2(db, "ql_local_date", 1, flags, context, localDate, nil, nil, nil)
        sqlite3_create_function_v2(db, "ql_hour", 1, flags, context, hourBucket, nil, nil, nil)
        sqlite3_create_function_v2(db, "ql_hour_start", 2, flags, context, hourStart, nil, nil, nil)
        sqlite3_create_function_v2(db, "ql_week", 1, flags, context, weekOf, nil, nil, nil)
        sqlite3_create_function_v2(db, "ql_label", 1, flags, nil, label, nil, nil, nil)
        sqlite3_create_function_v2(db, "ql_percentile", 2, flags, nil, nil, collect, percentileFinal, nil)
        sqlite3_create_function_v2(db, "ql_stddev", 1, flags, nil, nil, collect, stddevFinal, nil)
        sqlite3_create_function_v2(db, "ql_variance", 1, flags, nil, nil, collect, varianceFinal, nil)
    }

    private static let releaseContext: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
        if let pointer { Unmanaged<Context>.fromOpaque(pointer).release() }
    }

    private static func context(_ ctx: OpaquePointer?) -> Context {
        Unmanaged<Context>.fromOpaque(sqlite3_user_data(ctx)!).takeUnretainedValue()
    }

    private static func text(_ value: OpaquePointer?) -> String? {
        sqlite3_value_text(value).map { String(cString: $0) }
    }

    private static func result(_ ctx: OpaquePointer?, _ string: String) {
        sqlite3_result_text(ctx, string, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }

    private static func isNull(_ value: OpaquePointer?) -> Bool { sqlite3_value_type(value) == SQLITE_NULL }

    // MARK: scalar functions

    private static let localTime: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, _, args in
        guard let v = args?[0], !isNull(v) else { sqlite3_result_null(ctx); return }
        let c = context(ctx)
        let instant = Timestamp(microseconds: sqlite3_value_int64(v))
        let second = c.calendar.secondOfDay(instant)
        let date = c.calendar.localDate(of: instant)
        result(ctx, date.iso8601 + " " + pad(second / 3600) + ":" + pad(second / 60 % 60) + ":" + pad(second % 60))
    }

    private static let localDate: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, _, args in
        guard let v = args?[0], !isNull(v) else { sqlite3_result_null(ctx); return }
        let c = context(ctx)
        result(ctx, c.calendar.localDate(of: Timestamp(microseconds: sqlite3_value_int64(v))).iso8601)
    }

    private static let hourBucket: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, _, args in
        guard let v = args?[0], !isNull(v) else { sqlite3_result_null(ctx); return }
        let c = context(ctx)
        let instant = Timestamp(microseconds: sqlite3_value_int64(v))
        result(ctx, c.calendar.localDate(of: instant).iso8601 + " " + pad(c.calendar.secondOfDay(instant) / 3600) + ":00")
    }

    private static let hourStart: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, _, args in
        guard let d = args?[0], let h = args?[1], let date = text(d).flatMap({ CivilDate(iso: $0) }), !isNull(h) else {
            sqlite3_result_null(ctx); return
        }
        let c = context(ctx)
        sqlite3_result_int64(ctx, c.calendar.instant(on: date, secondOfDay: sqlite3_value_int64(h) * 3600).microseconds)
    }

    private static let weekOf: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, _, args in
        guard let d = args?[0], let date = text(d).flatMap({ CivilDate(iso: $0.prefix(10)) }) else {
            sqlite3_result_null(ctx); return
        }
        result(ctx, date.startOfWeek(weekStart: context(ctx).weekStart).iso8601)
    }

    private static let label: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, _, args in
        guard let v = args?[0], let identifier = text(v) else { sqlite3_result_null(ctx); return }
        result(ctx, ValueLabels.label(identifier))
    }

    private static func pad(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }

    // MARK: aggregates: every value is collected, then reduced once

    final class Values { var items: [Double] = []; var fraction = 0.5 }

    /// The collector of this group, made on the first row; SQLite zero-fills the slot.
    private static func values(_ ctx: OpaquePointer?, create: Bool) -> Values? {
        guard let slot = sqlite3_aggregate_context(ctx, create ? Int32(MemoryLayout<UnsafeMutableRawPointer?>.size) : 0)?
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self) else { return nil }
        if let existing = slot.pointee { return Unmanaged<Values>.fromOpaque(existing).takeUnretainedValue() }
        guard create else { return nil }
        let made = Values()
        slot.pointee = Unmanaged.passRetained(made).toOpaque()
        return made
    }

    /// Takes the collector out of its slot (the final call releases it).
    private static func take(_ ctx: OpaquePointer?) -> [Double]? {
        guard let slot = sqlite3_aggregate_context(ctx, 0)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self),
              let pointer = slot.pointee else { return nil }
        slot.pointee = nil
        let values = Unmanaged<Values>.fromOpaque(pointer).takeRetainedValue()
        return values.items
    }

    private static let collect: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, count, args in
        guard let box = values(ctx, create: true), let v = args?[0] else { return }
        if !isNull(v) { box.items.append(sqlite3_value_double(v)) }
        // ql_percentile(x, p): p is the same on every row.
        if count == 2, let p = args?[1] { box.fraction = sqlite3_value_double(p) }
    }

    private static let percentileFinal: @convention(c) (OpaquePointer?) -> Void = { ctx in
        guard let slot = sqlite3_aggregate_context(ctx, 0)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self),
              let pointer = slot.pointee else { sqlite3_result_null(ctx); return }
        slot.pointee = nil
        let box = Unmanaged<Values>.fromOpaque(pointer).takeRetainedValue()
        guard let v = Statistics.percentile(box.items, box.fraction) else { sqlite3_result_null(ctx); return }
        sqlite3_result_double(ctx, v)
    }

    private static let stddevFinal: @convention(c) (OpaquePointer?) -> Void = { ctx in
        guard let items = take(ctx), let v = Statistics.variance(items) else { sqlite3_result_null(ctx); return }
        sqlite3_result_double(ctx, v.squareRoot())
    }

    private static let varianceFinal: @convention(c) (OpaquePointer?) -> Void = { ctx in
        guard let items = take(ctx), let v = Statistics.variance(items) else { sqlite3_result_null(ctx); return }
        sqlite3_result_double(ctx, v)
    }
}

/// The statistics behind the aggregates, in plain Swift so tests can check them directly.
public enum Statistics {
    /// Linear interpolation between closest ranks (numpy's default): p in 0…1.
    public static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = min(max(p, 0), 1) * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down)), high = Int(rank.rounded(.up))
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }

    /// Sample variance (n − 1); nil below two values.
    public static func variance(_ values: [Double]) -> Double? {
        guard values.count >= 2 else { return nil }
        let mean = values.reduce(0, +) / Double(values.count)
        return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
    }
}
