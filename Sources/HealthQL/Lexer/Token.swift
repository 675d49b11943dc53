/// Reserved words of HealthQL (case-insensitive in queries).
package enum Keyword: String, CaseIterable, Sendable {
    case select = "SELECT", from = "FROM", join = "JOIN", on = "ON", `where` = "WHERE", group = "GROUP"
    case by = "BY", having = "HAVING", order = "ORDER", asc = "ASC", desc = "DESC", limit = "LIMIT"
    case and = "AND", or = "OR", not = "NOT", `is` = "IS", null = "NULL", `in` = "IN", `as` = "AS"
    case between = "BETWEEN", like = "LIKE"
}

/// Units of duration literals: `12h 7d 2w 3mo 1y` (and `30min`).
public enum DurationUnit: String, CaseIterable, Sendable, Hashable {
    case minutes = "min", hours = "h", days = "d", weeks = "w", months = "mo", years = "y"
}

package enum Symbol: String, CaseIterable, Sendable {
    case leftParen = "(", rightParen = ")", comma = ",", dot = ".", star = "*", plus = "+", minus = "-"
    case slash = "/", equal = "=", notEqual = "!=", lessGreater = "<>", less = "<", lessEqual = "<="
    case greater = ">", greaterEqual = ">=", semicolon = ";"
}

package enum TokenKind: Equatable, Sendable {
    case identifier(String)
    case keyword(Keyword)
    case number(Double)
    case string(String)
    case duration(Double, DurationUnit)
    case symbol(Symbol)
    case end
}

package struct Token: Equatable, Sendable {
    package var kind: TokenKind
    package var position: SourcePosition
    /// The text as typed (for messages and completion).
    package var text: String

    /// How a message names this token: `'stepz'`, `end of input`.
    var quoted: String { kind == .end ? "end of input" : "'\(text)'" }
}
