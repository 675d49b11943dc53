/// The Swift DSL: builds the same IR as the parser, so
/// `Health.select(.steps, aggregate: .sum).where { $0.date > .daysAgo(7) }.groupBy(.day)`
/// is `SELECT sum(value) FROM steps WHERE date > today() - 7d GROUP BY day`.
public enum Health {
    /// One aggregate of `field` (default `value`), or the field itself when `aggregate` is nil.
    public static func select(_ source: SourceName, aggregate: AggregateFunction? = nil, of field: String = "value") -> HealthQuery {
        let column = Expr.field(qualifier: nil, name: field, at: Anchor())
        let item: Expr = aggregate.map { .aggregate($0, $0 == .count && field == "*" ? nil : column, at: Anchor()) } ?? column
        return HealthQuery(Query(items: [.expr(item, alias: nil)], source: SourceRef(source.name)))
    }

    /// Several columns: `Health.select(.workouts, .field("type"), .count)`.
    public static func select(_ source: SourceName, _ columns: Column...) -> HealthQuery {
        HealthQuery(Query(items: columns.map(\.item), source: SourceRef(source.name)))
    }

    /// Every natural column: `SELECT *`.
    public static func selectAll(_ source: SourceName) -> HealthQuery {
        HealthQuery(Query(items: [.all(Anchor())], source: SourceRef(source.name)))
    }
}

/// A source name: a type alias (`.steps`, `"hrv"`), or one of the table sources.
public struct SourceName: ExpressibleByStringLiteral, Sendable, Hashable {
    public var name: String
    public init(_ name: String) { self.name = name }
    public init(stringLiteral value: String) { name = value }

    public static let steps = SourceName("steps")
    public static let heartRate = SourceName("heart_rate")
    public static let activeEnergy = SourceName("active_energy")
    public static let sleepAnalysis = SourceName("sleep_analysis")
    public static let sleep = SourceName("sleep")
    public static let workouts = SourceName("workouts")
    public static let activity = SourceName("activity")
    public static let daily = SourceName("daily")
    public static let weekly = SourceName("weekly")
    public static let monthly = SourceName("monthly")
    public static let yearly = SourceName("yearly")
}

/// A select-list column: a field, an aggregate, optionally named.
public struct Column: Sendable {
    var item: SelectItem
    public static func field(_ name: String) -> Column { Column(item: .expr(.field(qualifier: nil, name: name, at: Anchor()), alias: nil)) }
    public static func aggregate(_ f: AggregateFunction, _ field: String = "value", as alias: String? = nil) -> Column {
        Column(item: .expr(.aggregate(f, .field(qualifier: nil, name: field, at: Anchor()), at: Anchor()), alias: alias))
    }
    public static var count: Column { Column(item: .expr(.aggregate(.count, nil, at: Anchor()), alias: nil)) }
}

/// GROUP BY keys.
public struct Bucket: Sendable {
    var name: String
    public static let hour = Bucket(name: "hour"), day = Bucket(name: "day"), week = Bucket(name: "week")
    public static let month = Bucket(name: "month"), year = Bucket(name: "year"), source = Bucket(name: "source")
    public static func field(_ name: String) -> Bucket { Bucket(name: name) }
}

/// A query being built; every step returns a new value.
public struct HealthQuery: Sendable, CustomStringConvertible {
    package private(set) var query: Query
    init(_ query: Query) { self.query = query }

    /// The HealthQL text of the query.
    public var description: String { query.description }

    public func `where`(_ condition: (Fields) -> Predicate) -> HealthQuery {
        var copy = self
        let added = condition(Fields()).expr
        copy.query.filter = query.filter.map { .binary(.and, $0, added, at: Anchor()) } ?? added
        return copy
    }

    public func groupBy(_ buckets: Bucket...) -> HealthQuery {
        var copy = self
        copy.query.groupBy += buckets.map { GroupKey($0.name) }
        return copy
    }

    public func having(_ condition: (Fields) -> Predicate) -> HealthQuery {
        var copy = self
        copy.query.having = condition(Fields()).expr
        return copy
    }

    public func orderBy(_ field: String, descending: Bool = false) -> HealthQuery {
        var copy = self
        copy.query.orderBy.append(OrderItem(.field(qualifier: nil, name: field, at: Anchor()), descending: descending))
        return copy
    }

    public func limit(_ n: Int) -> HealthQuery {
        var copy = self
        copy.query.limit = n
        return copy
    }

    public func run(on engine: QueryEngine) throws -> QueryResult { try engine.run(self) }
}

/// The fields a `where` closure can name: `$0.date`, `$0.value`, `$0.source`, any other by name.
@dynamicMemberLookup
public struct Fields: Sendable {
    public subscript(dynamicMember name: String) -> FieldRef { FieldRef(expr: .field(qualifier: nil, name: name, at: Anchor())) }
    /// An aggregate in HAVING: `$0.sum("value") > 10000`.
    public func aggregate(_ f: AggregateFunction, _ field: String = "value") -> FieldRef {
        FieldRef(expr: .aggregate(f, .field(qualifier: nil, name: field, at: Anchor()), at: Anchor()))
    }
}

public struct FieldRef: Sendable {
    var expr: Expr
    public var isNull: Predicate { Predicate(expr: .isNull(expr, negated: false, at: Anchor())) }
    public var isNotNull: Predicate { Predicate(expr: .isNull(expr, negated: true, at: Anchor())) }
    public func isIn(_ values: [Value]) -> Predicate { Predicate(expr: .inList(expr, values.map(\.expr), negated: false, at: Anchor())) }
}

/// A value to compare with: numbers, names, dates, and times relative to now.
public struct Value: Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    var expr: Expr
    init(_ expr: Expr) { self.expr = expr }
    public init(integerLiteral value: Int) { expr = .number(Double(value), at: Anchor()) }
    public init(floatLiteral value: Double) { expr = .number(value, at: Anchor()) }
    /// A name (`"deep"`) or a date (`"2024-01-31"`).
    public init(stringLiteral value: String) { expr = .string(value, at: Anchor()) }

    public static var today: Value { Value(.time(.today, at: Anchor())) }
    public static var now: Value { Value(.time(.now, at: Anchor())) }
    public static var startOfWeek: Value { Value(.time(.startOfWeek, at: Anchor())) }
    public static var startOfMonth: Value { Value(.time(.startOfMonth, at: Anchor())) }
    public static var startOfYear: Value { Value(.time(.startOfYear, at: Anchor())) }
    /// `today() - Nd`.
    public static func daysAgo(_ n: Int) -> Value { ago(.today, n, .days) }
    public static func weeksAgo(_ n: Int) -> Value { ago(.today, n, .weeks) }
    public static func monthsAgo(_ n: Int) -> Value { ago(.today, n, .months) }
    /// `now() - Nh`.
    public static func hoursAgo(_ n: Int) -> Value { ago(.now, n, .hours) }
    public static func date(_ iso: String) -> Value { Value(.string(iso, at: Anchor())) }

    private static func ago(_ from: TimeFunction, _ n: Int, _ unit: DurationUnit) -> Value {
        Value(.binary(.minus, .time(from, at: Anchor()), .duration(Duration(Double(n), unit), at: Anchor()), at: Anchor()))
    }
}

public struct Predicate: Sendable {
    var expr: Expr
    public static func && (a: Predicate, b: Predicate) -> Predicate { Predicate(expr: .binary(.and, a.expr, b.expr, at: Anchor())) }
    public static func || (a: Predicate, b: Predicate) -> Predicate { Predicate(expr: .binary(.or, a.expr, b.expr, at: Anchor())) }
    public static prefix func ! (a: Predicate) -> Predicate { Predicate(expr: .unary(.not, a.expr, at: Anchor())) }
}

extension FieldRef {
    private static func compare(_ op: BinaryOperator, _ a: FieldRef, _ b: Value) -> Predicate {
        Predicate(expr: .binary(op, a.expr, b.expr, at: Anchor()))
    }
    public static func == (a: FieldRef, b: Value) -> Predicate { compare(.equal, a, b) }
    public static func != (a: FieldRef, b: Value) -> Predicate { compare(.notEqual, a, b) }
    public static func < (a: FieldRef, b: Value) -> Predicate { compare(.less, a, b) }
    public static func <= (a: FieldRef, b: Value) -> Predicate { compare(.lessEqual, a, b) }
    public static func > (a: FieldRef, b: Value) -> Predicate { compare(.greater, a, b) }
    public static func >= (a: FieldRef, b: Value) -> Predicate { compare(.greaterEqual, a, b) }
}
