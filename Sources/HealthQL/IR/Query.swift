/// The intermediate representation: what a query asks, before anything is known about the
/// store. The parser and the Swift DSL both build it; the planner compiles it to SQL.
package struct Query: Hashable, Sendable {
    package var items: [SelectItem]
    package var source: SourceRef
    package var join: Join?
    package var filter: Expr?
    package var groupBy: [GroupKey]
    package var having: Expr?
    package var orderBy: [OrderItem]
    package var limit: Int?

    package init(items: [SelectItem], source: SourceRef, join: Join? = nil, filter: Expr? = nil,
                groupBy: [GroupKey] = [], having: Expr? = nil, orderBy: [OrderItem] = [], limit: Int? = nil) {
        self.items = items; self.source = source; self.join = join; self.filter = filter
        self.groupBy = groupBy; self.having = having; self.orderBy = orderBy; self.limit = limit
    }
}

/// A source as named in the query (`steps`, `HKQuantityTypeIdentifierStepCount`, `sleep`, `daily` …).
package struct SourceRef: Hashable, Sendable {
    package var name: String
    package var at: Anchor
    package init(_ name: String, at: Anchor = Anchor()) { self.name = name; self.at = at }
}

package struct Join: Hashable, Sendable {
    package var source: SourceRef
    package var on: Expr
    package init(source: SourceRef, on: Expr) { self.source = source; self.on = on }
}

package enum SelectItem: Hashable, Sendable {
    /// `*`: the source's natural columns.
    case all(Anchor)
    case expr(Expr, alias: String?)
}

/// `GROUP BY day` (a time bucket) or `GROUP BY source` / `type` / any field.
package struct GroupKey: Hashable, Sendable {
    package var qualifier: String?
    package var name: String
    package var at: Anchor
    package init(_ name: String, qualifier: String? = nil, at: Anchor = Anchor()) {
        self.name = name; self.qualifier = qualifier; self.at = at
    }
}

package struct OrderItem: Hashable, Sendable {
    package var expr: Expr
    package var descending: Bool
    package init(_ expr: Expr, descending: Bool = false) { self.expr = expr; self.descending = descending }
}

package struct Duration: Hashable, Sendable {
    package var amount: Double
    package var unit: DurationUnit
    package init(_ amount: Double, _ unit: DurationUnit) { self.amount = amount; self.unit = unit }
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
package enum TimeFunction: String, CaseIterable, Sendable {
    case today, now
    case startOfWeek = "start_of_week", startOfMonth = "start_of_month", startOfYear = "start_of_year"
}

package enum BinaryOperator: String, Sendable, CaseIterable {
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

package enum UnaryOperator: String, Sendable {
    case not = "NOT", negate = "-"
}

package indirect enum Expr: Hashable, Sendable {
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

    package var anchor: Anchor {
        switch self {
        case .field(_, _, let at), .number(_, let at), .string(_, let at), .duration(_, let at), .null(let at),
             .time(_, let at), .aggregate(_, _, let at), .unary(_, _, let at), .binary(_, _, _, let at),
             .isNull(_, _, let at), .inList(_, _, _, let at): at
        }
    }
    package var position: SourcePosition { anchor.position }

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
