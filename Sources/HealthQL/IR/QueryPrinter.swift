import Foundation

/// IR → HealthQL text: column labels (`sum(value)`), the DSL's `text`, and round-trip tests.
extension Query: CustomStringConvertible {
    package var description: String {
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
    /// The expression as HealthQL, fully parenthesized where precedence could matter, and no
    /// deeper than the parser reads it: a chain at one level prints flat (`a - b - c`), a
    /// repeated NOT or minus without parentheses. (Found by fuzzing: 100 subtractions printed as
    /// 100 nested parentheses, past the parser's nesting limit, so a label did not read back.)
    package var text: String {
        switch self {
        case .field(let q, let n, _): q.map { "\($0).\(n)" } ?? n
        case .number(let v, _): Self.number(v)
        case .string(let s, _): "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .duration(let d, _): Self.number(d.amount) + d.unit.rawValue
        case .null: "NULL"
        case .time(let f, _): f.rawValue + "()"
        case .aggregate(let f, let e, _): "\(f.rawValue)(\(e?.text ?? "*"))"
        case .unary(.not, let e, _): "NOT \(e.isNot ? e.text : e.nested)"
        // `--` starts a comment: a negated negative is printed `- -x` (found by fuzzing).
        case .unary(.negate, let e, _): Self.negated(e.nested)
        case .binary(let op, let l, let r, _): "\(l.continuesChain(of: op) ? l.text : l.nested) \(op.rawValue) \(r.nested)"
        case .isNull(let e, let negated, _): "\(e.nested) IS \(negated ? "NOT " : "")NULL"
        case .inList(let e, let list, let negated, _):
            "\(e.nested) \(negated ? "NOT " : "")IN (\(list.map(\.text).joined(separator: ", ")))"
        }
    }

    /// `-x`, or `- -x` for a negative: the operand's text is made once (made twice, as it was,
    /// 90 minus signs took 2^90 steps).
    private static func negated(_ operand: String) -> String {
        operand.hasPrefix("-") ? "- " + operand : "-" + operand
    }

    private var isNot: Bool {
        if case .unary(.not, _, _) = self { return true }
        return false
    }

    /// Whether this, as the left operand of `op`, is a chain the parser reads at `op`'s level.
    private func continuesChain(of op: BinaryOperator) -> Bool {
        guard case .binary(let inner, _, _, _) = self, let level = op.chainLevel else { return false }
        return inner.chainLevel == level
    }

    private var nested: String {
        switch self {
        case .binary, .isNull, .inList, .unary(.not, _, _): "(\(text))"
        default: text
        }
    }

    /// `v` as the lexer reads numbers: digits and a fraction, never an exponent. Swift writes
    /// 1e+16 and 1e-05, which read back as a number followed by a unit `e` (found by fuzzing:
    /// a printed query did not parse), so its shortest digits are moved around the point instead.
    static func number(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        let text = String(v)
        guard let e = text.firstIndex(of: "e"), let exponent = Int(text[text.index(after: e)...]) else { return text }
        var mantissa = text[..<e]
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { mantissa.removeFirst() }
        let whole = mantissa.prefix { $0 != "." }
        let digits = whole + mantissa.dropFirst(whole.count + 1)
        let point = whole.count + exponent   // digits before the decimal point
        if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
        if point >= digits.count { return sign + digits + String(repeating: "0", count: point - digits.count) }
        return sign + digits.prefix(point) + "." + digits.dropFirst(point)
    }
}
