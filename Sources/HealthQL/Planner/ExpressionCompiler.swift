import HealthCore

/// An expression as SQL over the sources' subqueries (aliases `r0`, `r1`).
struct Compiled {
    var sql: String
    var kind: ValueKind
    /// The source field this is a plain reference to (for names of stored values).
    var field: Field?
    init(_ sql: String, _ kind: ValueKind, field: Field? = nil) { self.sql = sql; self.kind = kind; self.field = field }
}

/// Where an expression appears: what it may contain.
enum Clause: String {
    case select = "SELECT", filter = "WHERE", on = "ON", having = "HAVING", order = "ORDER BY", group = "GROUP BY"
}

/// A source in the statement: the SQL alias of its subquery and what it holds.
struct BoundRelation {
    var alias: String
    var relation: Relation
}

/// A GROUP BY key, compiled.
struct CompiledKey {
    var label: String
    var value: Compiled
    /// The bucket word (`day`) or the field name it groups by.
    var name: String
    var relationAlias: String
}

/// Compiles expressions: resolves names against the sources, folds constants, coerces
/// literals to the kind of what they are compared with, and binds every value.
struct ExpressionCompiler {
    var relations: [BoundRelation]
    var params: Parameters
    var folder: ConstantFolder
    var store: StoreContext
    var aggregateMode = false
    var keys: [CompiledKey] = []
    /// Select-list labels usable in HAVING and ORDER BY.
    var selectLabels: [String: Compiled] = [:]

    static let buckets = ["hour", "day", "week", "month", "year"]

    // MARK: entry

    mutating func compile(_ e: Expr, in clause: Clause, insideAggregate: Bool = false) throws(HealthQLError) -> Compiled {
        if let c = try folder.fold(e) { return try bind(c, as: nil, at: e.anchor) }
        switch e {
        case .field(let q, let name, let at):
            return try reference(q, name, at: at, in: clause, insideAggregate: insideAggregate)
        case .aggregate(let f, let arg, let at):
            return try aggregate(f, arg, at: at, in: clause, insideAggregate: insideAggregate)
        case .unary(.not, let inner, _):
            return Compiled("(NOT \(try compile(inner, in: clause, insideAggregate: insideAggregate).sql))", .boolean)
        case .unary(.negate, let inner, let at):
            let c = try compile(inner, in: clause, insideAggregate: insideAggregate)
            guard c.kind == .number else { throw HealthQLError("Cannot negate \(describe(c.kind))", at: at.position) }
            return Compiled("(-\(c.sql))", .number)
        case .binary(let op, let l, let r, let at):
            if op.isLogical {
                let a = try compile(l, in: clause, insideAggregate: insideAggregate)
                let b = try compile(r, in: clause, insideAggregate: insideAggregate)
                return Compiled("(\(Self.chained(a.sql, l, sameAs: [op])) \(op.rawValue) \(b.sql))", .boolean)
            }
            if op.isComparison { return try comparison(op, l, r, at: at, in: clause, insideAggregate: insideAggregate) }
            if op == .like { return try like(l, r, at: at, in: clause, insideAggregate: insideAggregate) }
            return try arithmetic(op, l, r, at: at, in: clause, insideAggregate: insideAggregate)
        case .isNull(let inner, let negated, _):
            let c = try compile(inner, in: clause, insideAggregate: insideAggregate)
            return Compiled("(\(c.sql) IS \(negated ? "NOT " : "")NULL)", .boolean)
        case .inList(let left, let list, let negated, let at):
            return try membership(left, list, negated: negated, at: at, in: clause, insideAggregate: insideAggregate)
        case .number, .string, .duration, .null, .time:
            // Folded above; unreachable unless folding declined.
            throw HealthQLError("Cannot use this value here", at: e.position)
        }
    }

    // MARK: names

    private func describe(_ kind: ValueKind) -> String {
        switch kind {
        case .number: "a number"
        case .text: "text"
        case .date: "a date"
        case .instant: "a time"
        case .label: "a name"
        case .boolean: "a condition"
        }
    }

    /// The source a qualifier names (`steps.value`, `StepCount.day`, `HKQuantityTypeIdentifierStepCount.date`):
    /// by any of its names, or by a type name that resolves to it. The one rule for fields and
    /// GROUP BY keys alike (issue 47: GROUP BY had a copy that knew only the source's own names).
    func relation(named qualifier: String, at: Anchor) throws(HealthQLError) -> BoundRelation {
        let lower = qualifier.lowercased()
        if let found = relations.first(where: { $0.relation.qualifiers.contains(lower) }) { return found }
        if let type = TypeRegistry.lookup(qualifier),
           let found = relations.first(where: { $0.relation.qualifiers.contains(type.identifier.lowercased()) }) {
            return found
        }
        let names = relations.map(\.relation.name)
        let hint = Suggestion.hint(for: qualifier, in: relations.flatMap(\.relation.qualifiers).sorted())
        throw HealthQLError("Unknown source '\(qualifier)' (the query reads \(names.joined(separator: " and "))).\(hint)",
                            at: at.position)
    }

    /// The local day, hour, week, month or year of a source's rows.
    func bucket(_ name: String, of bound: BoundRelation, at: Anchor) throws(HealthQLError) -> Compiled {
        let day = "\(bound.alias).\"_day\""
        switch name {
        case "day": return Compiled(day, .date)
        case "week": return Compiled("ql_week(\(day))", .date)
        case "month": return Compiled("substr(\(day), 1, 7)", .text)
        case "year": return Compiled("substr(\(day), 1, 4)", .text)
        default:
            if bound.relation.hourColumn != nil { return Compiled("\(bound.alias).\"_hour\"", .text) }
            if bound.relation.dateKind == .instant { return Compiled("ql_hour(\(bound.alias).\"date\")", .text) }
            throw HealthQLError("'\(bound.relation.name)' has no times of day (\(bound.relation.summary) has one row per day), "
                                + "so it cannot be grouped by hour", at: at.position)
        }
    }

    func column(_ field: Field, of bound: BoundRelation) -> Compiled {
        Compiled("\(bound.alias).\"\(field.name)\"", field.kind, field: field)
    }

    /// A field, a bucket word, a GROUP BY key or a select label.
    mutating func reference(_ qualifier: String?, _ name: String, at: Anchor, in clause: Clause,
                            insideAggregate: Bool) throws(HealthQLError) -> Compiled {
        let lower = name.lowercased()
        if qualifier == nil, clause == .having || clause == .order, let labelled = selectLabels[lower] { return labelled }
        let resolved = try resolve(qualifier, lower, original: name, at: at)
        if aggregateMode, !insideAggregate, clause == .select || clause == .having || clause == .order {
            if let key = keys.first(where: { $0.value.sql == resolved.sql }) { return key.value }
            throw HealthQLError("'\(qualifier.map { "\($0)." } ?? "")\(name)' must be inside an aggregate such as "
                                + "sum(\(name)), or listed in GROUP BY", at: at.position)
        }
        return resolved
    }

    func resolve(_ qualifier: String?, _ lower: String, original: String, at: Anchor) throws(HealthQLError) -> Compiled {
        if let qualifier {
            let bound = try relation(named: qualifier, at: at)
            if let field = bound.relation.field(lower) { return column(field, of: bound) }
            if Self.buckets.contains(lower) { return try bucket(lower, of: bound, at: at) }
            throw unknownField(original, in: [bound], at: at)
        }
        let owners = relations.filter { $0.relation.field(lower) != nil }
        if owners.count > 1 {
            let options = owners.map { "\($0.relation.name).\(lower)" }.joined(separator: " or ")
            throw HealthQLError("Field '\(original)' is ambiguous: write \(options)", at: at.position)
        }
        if let bound = owners.first, let field = bound.relation.field(lower) { return column(field, of: bound) }
        if Self.buckets.contains(lower) { return try bucket(lower, of: relations[0], at: at) }
        throw unknownField(original, in: relations, at: at)
    }

    private func unknownField(_ name: String, in bounds: [BoundRelation], at: Anchor) -> HealthQLError {
        let fields = bounds.flatMap { $0.relation.fields.map(\.name) }
        let names = bounds.map(\.relation.name).joined(separator: " or ")
        let list = bounds.count == 1 ? " (fields: \(fields.joined(separator: ", ")))" : ""
        return HealthQLError("Unknown field '\(name)' for \(names).\(Suggestion.hint(for: name, in: fields + Self.buckets))\(list)",
                             at: at.position)
    }

    // MARK: aggregates

    private mutating func aggregate(_ f: AggregateFunction, _ arg: Expr?, at: Anchor, in clause: Clause,
                                    insideAggregate: Bool) throws(HealthQLError) -> Compiled {
        if clause == .filter || clause == .on || clause == .group {
            throw HealthQLError("Aggregates such as \(f.rawValue)(…) are not allowed in \(clause.rawValue)"
                                + (clause == .filter ? "; use HAVING" : ""), at: at.position)
        }
        if insideAggregate { throw HealthQLError("Aggregates cannot be nested", at: at.position) }
        guard let arg else { return Compiled("count(*)", .number) }
        let value = try compile(arg, in: clause, insideAggregate: true)
        switch f {
        case .count: return Compiled("count(\(value.sql))", .number)
        case .min, .max: return Compiled("\(f.rawValue)(\(value.sql))", value.kind, field: nil)
        default:
            guard value.kind == .number else {
                throw HealthQLError("\(f.rawValue) needs numbers, but '\(arg.text)' is \(describe(value.kind))", at: arg.position)
            }
            if let p = f.percentile { return Compiled("ql_percentile(\(value.sql), \(p))", .number) }
            switch f {
            case .stddev: return Compiled("ql_stddev(\(value.sql))", .number)
            case .variance: return Compiled("ql_variance(\(value.sql))", .number)
            default: return Compiled("\(f.rawValue)(\(value.sql))", .number)
            }
        }
    }

    // MARK: values

    /// A constant as a parameter, coerced to `kind` (what it is compared with) when given.
    mutating func bind(_ c: Constant, as kind: ValueKind?, at: Anchor) throws(HealthQLError) -> Compiled {
        switch (c, kind) {
        case (.null, _): return Compiled("NULL", kind ?? .number)
        case (.number(let v), .number), (.number(let v), nil), (.number(let v), .boolean):
            return Compiled(params.add(.real(v)), .number)
        case (.duration(let d), .number):
            // A duration compared with a number of minutes (`duration > 1h`).
            let minutes: Double = switch d.unit {
            case .minutes: 1
            case .hours: 60
            case .days: 1440
            case .weeks: 10_080
            case .months: 43_830
            case .years: 525_960
            }
            return Compiled(params.add(.real(d.amount * minutes)), .number)
        case (.date(let d), .date), (.date(let d), nil): return Compiled(params.add(.text(d.iso8601)), .date)
        case (.date(let d), .instant): return Compiled(params.add(.integer(folder.clock.instant(of: d).microseconds)), .instant)
        case (.instant(let t), .instant), (.instant(let t), nil): return Compiled(params.add(.integer(t.microseconds)), .instant)
        case (.instant(let t), .date): return Compiled(params.add(.text(folder.clock.date(of: t).iso8601)), .date)
        case (.text(let s), .date), (.text(let s), .instant):
            guard let time = folder.clock.parseTime(s) else {
                throw HealthQLError("'\(s)' is not a date (use 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM')", at: at.position)
            }
            return try bind(time, as: kind, at: at)
        case (.text(let s), _): return Compiled(params.add(.text(s)), .text)
        case (.number(let v), .text): return Compiled(params.add(.text(Expr.number(v))), .text)
        case (.duration, _):
            throw HealthQLError("A duration only makes sense added to a time (today() - 7d) or compared with "
                                + "a duration field", at: at.position)
        default:
            throw HealthQLError("Cannot compare \(describe(kind ?? .number)) with \(c.describe)", at: at.position)
        }
    }

    private mutating func arithmetic(_ op: BinaryOperator, _ l: Expr, _ r: Expr, at: Anchor, in clause: Clause,
                                     insideAggregate: Bool) throws(HealthQLError) -> Compiled {
        let a = try compile(l, in: clause, insideAggregate: insideAggregate)
        if case .duration(let span)? = try folder.fold(r), op == .plus || op == .minus {
            let n = span.amount * (op == .minus ? -1 : 1)
            switch (a.kind, span.unit) {
            case (.date, .days), (.date, .weeks), (.date, .months), (.date, .years):
                let modifier: String = switch span.unit {
                case .weeks: "\(Expr.number(n * 7)) days"
                case .months: "\(Expr.number(n)) months"
                case .years: "\(Expr.number(n)) years"
                default: "\(Expr.number(n)) days"
                }
                return Compiled("date(\(a.sql), \(params.add(.text(modifier))))", .date)
            case (.instant, .minutes), (.instant, .hours), (.instant, .days), (.instant, .weeks):
                let seconds: Double = switch span.unit {
                case .minutes: 60
                case .hours: 3600
                case .days: 86_400
                default: 604_800
                }
                return Compiled("(\(a.sql) + \(params.add(.integer(Int64((n * seconds * 1_000_000).rounded())))))", .instant)
            default:
                throw HealthQLError("Cannot add \(span.unit.rawValue) to \(describe(a.kind))", at: at.position)
            }
        }
        let b = try compile(r, in: clause, insideAggregate: insideAggregate)
        switch (a.kind, b.kind, op) {
        case (.number, .number, .divide):
            // Real division: stored counts are integers, and 86,407 / 7 must read 12,343.9, not truncate to 12,343 (issue 34).
            // A chain `a / b / c` casts its first operand only (a real divided stays real), and
            // flat: nested casts overflowed SQLite's parser stack at about 60 divisions.
            if case .binary(.divide, _, _, _) = l, a.sql.hasPrefix("(CAST("), a.sql.hasSuffix(")") {
                return Compiled("(\(a.sql.dropFirst().dropLast()) / \(b.sql))", .number)
            }
            return Compiled("(CAST(\(a.sql) AS REAL) / \(b.sql))", .number)
        case (.number, .number, _):
            let group: Set<BinaryOperator> = op == .times ? [.times] : [.plus, .minus]
            return Compiled("(\(Self.chained(a.sql, l, sameAs: group)) \(op.rawValue) \(b.sql))", .number)
        case (.instant, .instant, .minus):
            return Compiled("((\(a.sql) - \(b.sql)) / 60000000.0)", .number)
        case (.date, .date, .minus):
            return Compiled("(julianday(\(a.sql)) - julianday(\(b.sql)))", .number)
        default:
            throw HealthQLError("Cannot apply '\(op.rawValue)' to \(describe(a.kind)) and \(describe(b.kind))", at: at.position)
        }
    }

    // MARK: comparisons

    private mutating func comparison(_ op: BinaryOperator, _ l: Expr, _ r: Expr, at: Anchor, in clause: Clause,
                                     insideAggregate: Bool) throws(HealthQLError) -> Compiled {
        let sqlOp = op == .notEqual ? "!=" : op.rawValue
        let leftConstant = try folder.fold(l), rightConstant = try folder.fold(r)
        switch (leftConstant, rightConstant) {
        case (nil, nil):
            var a = try compile(l, in: clause, insideAggregate: insideAggregate)
            var b = try compile(r, in: clause, insideAggregate: insideAggregate)
            // A day against a time: compare days.
            if a.kind == .instant, b.kind == .date { a = Compiled("ql_local_date(\(a.sql))", .date) }
            if b.kind == .instant, a.kind == .date { b = Compiled("ql_local_date(\(b.sql))", .date) }
            return Compiled("(\(a.sql) \(sqlOp) \(b.sql))", .boolean)
        case (nil, let c?):
            let a = try compile(l, in: clause, insideAggregate: insideAggregate)
            if a.kind == .label { return try labelMatch(a, [(c, r.anchor)], negated: op == .notEqual, op: op, at: at) }
            if a.kind == .instant, let day = dayConstant(c) { return dayComparison(a, op, day) }
            let b = try bind(c, as: a.kind, at: r.anchor)
            return Compiled("(\(a.sql) \(sqlOp) \(b.sql))", .boolean)
        case (let c?, nil):
            let b = try compile(r, in: clause, insideAggregate: insideAggregate)
            if b.kind == .label { return try labelMatch(b, [(c, l.anchor)], negated: op == .notEqual, op: op, at: at) }
            if b.kind == .instant, let day = dayConstant(c) { return dayComparison(b, op.mirrored, day) }
            let a = try bind(c, as: b.kind, at: l.anchor)
            return Compiled("(\(a.sql) \(sqlOp) \(b.sql))", .boolean)
        case (let x?, let y?):
            let a = try bind(x, as: nil, at: l.anchor)
            let b = try bind(y, as: a.kind, at: r.anchor)
            return Compiled("(\(a.sql) \(sqlOp) \(b.sql))", .boolean)
        }
    }

    /// A date literal (or `today()`, `'2024-01-31' - 1w` …) compared with a time.
    private mutating func dayConstant(_ c: Constant) -> CivilDate? {
        switch c {
        case .date(let d): d
        case .text(let s): if case .date(let d)? = folder.clock.parseTime(s) { d } else { nil }
        default: nil
        }
    }

    /// A time compared with a day means its local day: `date = '2024-04-18'` is every instant of
    /// that day, `date > '2024-04-18'` starts the next midnight. Written as a range of instants
    /// so the (type, start) index still serves it.
    private mutating func dayComparison(_ a: Compiled, _ op: BinaryOperator, _ day: CivilDate) -> Compiled {
        let start = params.add(.integer(folder.clock.instant(of: day).microseconds))
        let next = params.add(.integer(folder.clock.instant(of: day.adding(days: 1)).microseconds))
        let sql: String = switch op {
        case .equal: "(\(a.sql) >= \(start) AND \(a.sql) < \(next))"
        case .notEqual: "(\(a.sql) < \(start) OR \(a.sql) >= \(next))"
        case .less: "(\(a.sql) < \(start))"
        case .lessEqual: "(\(a.sql) < \(next))"
        case .greater: "(\(a.sql) >= \(next))"
        default: "(\(a.sql) >= \(start))"
        }
        return Compiled(sql, .boolean)
    }

    private mutating func membership(_ left: Expr, _ list: [Expr], negated: Bool, at: Anchor, in clause: Clause,
                                     insideAggregate: Bool) throws(HealthQLError) -> Compiled {
        let a = try compile(left, in: clause, insideAggregate: insideAggregate)
        var constants: [(Constant, Anchor)] = []
        var items: [String] = []
        for item in list {
            if let c = try folder.fold(item) {
                if a.kind == .label { constants.append((c, item.anchor)) } else { items.append(try bind(c, as: a.kind, at: item.anchor).sql) }
            } else {
                guard a.kind != .label else {
                    throw HealthQLError("Compare \(left.text) with names in quotes", at: item.position)
                }
                items.append(try compile(item, in: clause, insideAggregate: insideAggregate).sql)
            }
        }
        if a.kind == .label { return try labelMatch(a, constants, negated: negated, op: .equal, at: at) }
        return Compiled("(\(a.sql) \(negated ? "NOT " : "")IN (\(items.joined(separator: ", "))))", .boolean)
    }

    /// `value = 'deep'` on stored identifiers: the names resolve (at plan time) to the identifiers
    /// the store holds, and the comparison becomes an IN list of those.
    private mutating func labelMatch(_ a: Compiled, _ values: [(Constant, Anchor)], negated: Bool, op: BinaryOperator,
                                     at: Anchor) throws(HealthQLError) -> Compiled {
        guard op == .equal || op == .notEqual else {
            throw HealthQLError("Names can only be compared with =, != or IN", at: at.position)
        }
        let stored = try a.field.map { f throws(HealthQLError) in try store.storedValues(of: f) } ?? []
        var identifiers: [String] = []
        for (value, anchor) in values {
            if case .null = value { continue }
            guard case .text(let typed) = value else {
                throw HealthQLError("Compare with a name in quotes, e.g. = 'deep'", at: anchor.position)
            }
            let matching = stored.filter { ValueLabels.matches(typed, $0) }
            if matching.isEmpty, !stored.isEmpty {
                let labels = stored.map(ValueLabels.label)
                let words = labels.compactMap { $0.split(separator: "_").last.map(String.init) }
                throw HealthQLError("Unknown value '\(typed)'." + Suggestion.hint(for: typed, in: labels + words)
                                    + " (stored: \(labels.sorted().joined(separator: ", ")))", at: anchor.position)
            }
            identifiers += matching
        }
        let list = identifiers.map { params.add(.text($0)) }.joined(separator: ", ")
        return Compiled("(\(a.sql) \(negated ? "NOT " : "")IN (\(list)))", .boolean)
    }

    /// The left operand of a chain of one operator (`a OR b OR c`, `a + b - c`) without the
    /// parentheses it was compiled in: `((a OR b) OR c)` is `(a OR b OR c)` to SQL (the same
    /// left-to-right grouping), and each parenthesis costs a level of SQLite's parser stack,
    /// which overflowed at about 60 terms (issue 46). Only a compiled `(x op y)` of the same
    /// operators loses them.
    static func chained(_ sql: String, _ operand: Expr, sameAs operators: Set<BinaryOperator>) -> String {
        guard case .binary(let inner, _, _, _) = operand, operators.contains(inner),
              sql.hasPrefix("("), sql.hasSuffix(")"), !sql.hasPrefix("(CAST(") else { return sql }
        return String(sql.dropFirst().dropLast())
    }
}
