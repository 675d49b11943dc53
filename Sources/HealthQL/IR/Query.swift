/// The intermediate representation: what a query asks, before anything is known about the
/// store. The parser and the Swift DSL both build it; the planner compiles it to SQL.
public struct Query: Hashable, Sendable {
    public var items: [SelectItem]
    public var source: SourceRef
    public var join: Join?
    public var filter: Expr?
    public var groupBy: [GroupKey]
    public var having: Expr?
    public var orderBy: [OrderItem]
    public var limit: Int?

    public init(items: [SelectItem], source: SourceRef, join: Join? = nil, filter: Expr? = nil,
                groupBy: [GroupKey] = [], having: Expr? = nil, orderBy: [OrderItem] = [], limit: Int? = nil) {
        self.items = items; self.source = source; self.join = join; self.filter = filter
        self.groupBy = groupBy; self.having = having; self.orderBy = orderBy; self.limit = limit
    }
}

/// A source as named in the query (`steps`, `HKQuantityTypeIdentifierStepCount`, `sleep`, `daily` …).
public struct SourceRef: Hashable, Sendable {
    public var name: String
    public var at: Anchor
    public init(_ name: String, at: Anchor = Anchor()) { self.name = name; self.at = at }
}

public struct Join: Hashable, Sendable {
    public var source: SourceRef
    public var on: Expr
    public init(source: SourceRef, on: Expr) { self.source = source; self.on = on }
}

public enum SelectItem: Hashable, Sendable {
    /// `*`: the source's natural columns.
    case all(Anchor)
    case expr(Expr, alias: String?)
}

/// `GROUP BY day` (a time bucket) or `GROUP BY source` / `type` / any field.
public struct GroupKey: Hashable, Sendable {
    public var qualifier: String?
    public var name: String
    public var at: Anchor
    public init(_ name: String, qualifier: String? = nil, at: Anchor = Anchor()) {
        self.name = name; self.qualifier = qualifier; self.at = at
    }
}

public struct OrderItem: Hashable, Sendable {
    public var expr: Expr
    public var descending: Bool
    public init(_ expr: Expr, descending: Bool = false) { self.expr = expr; self.descending = descending }
}

public struct Duration: Hashable, Sendable {
    public var amount: Double
    public var unit: DurationUnit
    public init(_ amount: Double, _ unit: DurationUnit) { self.amount = amount; self.unit = unit }
}

public enum AggregateFunction: String, CaseIterable, Sendable {
    case sum, avg, min, max, count, p50, p90, p95, p99, stddev, variance

    /// The percentile as a fraction, for p50 … p99.
    var percentile: Double? {
        switch self {
        case .p50: 0.50
        case .p90: 0.90
        case .p95: 0.95
        case .p99: 0.99
        default: nil
        }
    }
}

/// Functions evaluated once per query, in the store's time zone.
public enum TimeFunction: String, CaseIterable, Sendable {
    case today, now
    case startOfWeek = "start_of_week", startOfMonth = "start_of_month", startOfYear = "start_of_year"
}

public enum BinaryOperator: String, Sendable, CaseIterable {
    case and = "AND", or = "OR"
    case equal = "=", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case plus = "+", minus = "-", times = "*", divide = "/"
    /// `text LIKE 'pattern'` (`%` any run, `_` one character, case-insensitive as SQLite's).
    case like = "LIKE"

    var isComparison: Bool { [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual].contains(self) }

    /// The level at which the parser reads this operator in a left-associative chain
    /// (`a - b + c` is `(a - b) + c`); nil for comparisons, which do not chain.
    var chainLevel: Int? {
        switch self {
        case .or: 0
        case .and: 1
        case .plus, .minus: 2
        case .times, .divide: 3
        default: nil
        }
    }
    var isLogical: Bool { self == .and || self == .or }

    /// The operator with its operands swapped: `a < b` ⇔ `b > a`.
    var mirrored: BinaryOperator {
        switch self {
        case .less: .greater
        case .lessEqual: .greaterEqual
        case .greater: .less
        case .greaterEqual: .lessEqual
        default: self
        }
    }
}

public enum UnaryOperator: String, Sendable {
    case not = "NOT", negate = "-"
}

public indirect enum Expr: Hashable, Sendable {
    case field(qualifier: String?, name: String, at: Anchor)
    case number(Double, at: Anchor)
    case string(String, at: Anchor)
    case duration(Duration, at: Anchor)
    case null(at: Anchor)
    case time(TimeFunction, at: Anchor)
    /// `nil` argument: `count(*)`.
    case aggregate(AggregateFunction, Expr?, at: Anchor)
    case unary(UnaryOperator, Expr, at: Anchor)
    case binary(BinaryOperator, Expr, Expr, at: Anchor)
    case isNull(Expr, negated: Bool, at: Anchor)
    case inList(Expr, [Expr], negated: Bool, at: Anchor)

    public var anchor: Anchor {
        switch self {
        case .field(_, _, let at), .number(_, let at), .string(_, let at), .duration(_, let at), .null(let at),
             .time(_, let at), .aggregate(_, _, let at), .unary(_, _, let at), .binary(_, _, _, let at),
             .isNull(_, _, let at), .inList(_, _, _, let at): at
        }
    }
    public var position: SourcePosition { anchor.position }

    /// Whether an aggregate appears anywhere inside.
    var containsAggregate: Bool {
        switch self {
        case .aggregate: true
        case .unary(_, let e, _), .isNull(let e, _, _): e.containsAggregate
        case .binary(_, let l, let r, _): l.containsAggregate || r.containsAggregate
        case .inList(let e, let list, _, _): e.containsAggregate || list.contains { $0.containsAggregate }
        default: false
        }
    }

    /// Every field reference inside, in order.
    var fields: [(qualifier: String?, name: String, at: Anchor)] {
        switch self {
        case .field(let q, let n, let at): [(q, n, at)]
        case .aggregate(_, let e, _): e?.fields ?? []
        case .unary(_, let e, _), .isNull(let e, _, _): e.fields
        case .binary(_, let l, let r, _): l.fields + r.fields
        case .inList(let e, let list, _, _): e.fields + list.flatMap(\.fields)
        default: []
        }
    }

    /// Whether a time function or an hour/minute duration appears (a filter finer than a day).
    var needsSubDayPrecision: Bool {
        switch self {
        case .time(.now, _): true
        case .duration(let d, _): d.unit == .hours || d.unit == .minutes
        case .aggregate(_, let e, _): e?.needsSubDayPrecision ?? false
        case .unary(_, let e, _), .isNull(let e, _, _): e.needsSubDayPrecision
        case .binary(_, let l, let r, _): l.needsSubDayPrecision || r.needsSubDayPrecision
        case .inList(let e, let list, _, _): e.needsSubDayPrecision || list.contains { $0.needsSubDayPrecision }
        default: false
        }
    }
}
