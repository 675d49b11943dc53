import Foundation

/// IR → HealthQL text: column labels (`sum(value)`), the DSL's `text`, and round-trip tests.
extension Query: CustomStringConvertible {
    public var description: String {
        var parts = ["SELECT " + items.map(\.text).joined(separator: ", "), "FROM " + source.name]
        if let join { parts.append("JOIN \(join.source.name) ON \(join.on.text)") }
        if let filter { parts.append("WHERE " + filter.text) }
        if !groupBy.isEmpty { parts.append("GROUP BY " + groupBy.map(\.text).joined(separator: ", ")) }
        if let having { parts.append("HAVING " + having.text) }
        if !orderBy.isEmpty {
            parts.append("ORDER BY " + orderBy.map { $0.expr.text + ($0.descending ? " DESC" : "") }.joined(separator: ", "))
        }
        if let limit { parts.append("LIMIT \(limit)") }
        return parts.joined(separator: " ")
    }
}

extension SelectItem {
    var text: String {
        switch self {
        case .all: "*"
        case .expr(let e, let alias): alias.map { "\(e.text) AS \($0)" } ?? e.text
        }
    }
}

extension GroupKey {
    var text: String { qualifier.map { "\($0).\(name)" } ?? name }
}

extension Expr {
    /// The expression as HealthQL, fully parenthesized where precedence could matter.
    public var text: String {
        switch self {
        case .field(let q, let n, _): q.map { "\($0).\(n)" } ?? n
        case .number(let v, _): Self.number(v)
        case .string(let s, _): "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .duration(let d, _): Self.number(d.amount) + d.unit.rawValue
        case .null: "NULL"
        case .time(let f, _): f.rawValue + "()"
        case .aggregate(let f, let e, _): "\(f.rawValue)(\(e?.text ?? "*"))"
        case .unary(.not, let e, _): "NOT \(e.nested)"
        case .unary(.negate, let e, _): "-\(e.nested)"
        case .binary(let op, let l, let r, _): "\(l.nested) \(op.rawValue) \(r.nested)"
        case .isNull(let e, let negated, _): "\(e.nested) IS \(negated ? "NOT " : "")NULL"
        case .inList(let e, let list, let negated, _):
            "\(e.nested) \(negated ? "NOT " : "")IN (\(list.map(\.text).joined(separator: ", ")))"
        }
    }

    private var nested: String {
        switch self {
        case .binary, .isNull, .inList, .unary(.not, _, _): "(\(text))"
        default: text
        }
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}
