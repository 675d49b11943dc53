import HealthCore

/// How a result column's numbers read in a table, decided from what the column is:
/// a year or an id is a label, not a quantity (`2021`, never `2,021`); a count of things
/// (steps, stairs, heartbeats, samples) is whole, rounded as the report rounds (an average of
/// 12,343.9 steps a day reads 12,344); anything else keeps two decimals.
package enum ColumnStyle: Sendable, Equatable {
    case identifier
    case whole
    case decimal
    case text
}

enum ColumnStyling {
    /// Names that identify rather than measure.
    static let identifierNames: Set<String> = ["year", "month", "id", "week_number"]
    /// Analytics columns (and fields) that count whole things.
    static let countNames: Set<String> = ["steps", "stairs_climbed", "heartbeats", "swimming_strokes", "samples",
                                          "days_with_data", "stand_hours", "stand_hours_goal", "count"]

    /// The style of a selected expression; `source` is the FROM source when it is a type.
    static func style(of expr: Expr?, fieldName: String?, compiled: Compiled, source: SourceKind) -> ColumnStyle {
        guard compiled.kind == .number else { return .text }
        if let name = fieldName?.lowercased() ?? expr.flatMap(Self.plainName) {
            if identifierNames.contains(name) || name.hasSuffix("_id") { return .identifier }
        }
        if let fieldName { return isCountName(fieldName.lowercased(), source) ? .whole : .decimal }
        guard let expr else { return .decimal }
        return counts(expr, source) ? .whole : .decimal
    }

    /// Whether an expression is a number of things: a count field, an aggregate of one other
    /// than the spread, a sum or difference of them, or one divided by another (steps per day
    /// with data). Divided by a constant or multiplied (`steps / 1000`, `steps * 0.8`) it is a
    /// measure again, and keeps its decimals.
    static func counts(_ e: Expr, _ source: SourceKind) -> Bool {
        switch e {
        case .field(_, let name, _): return isCountName(name.lowercased(), source)
        case .aggregate(.count, _, _): return true
        case .aggregate(.stddev, _, _), .aggregate(.variance, _, _): return false
        case .aggregate(_, let arg?, _): return counts(arg, source)
        case .unary(.negate, let inner, _): return counts(inner, source)
        case .binary(let op, let l, let r, _) where [.plus, .minus, .divide].contains(op): return counts(l, source) && counts(r, source)
        default: return false
        }
    }

    private static func isCountName(_ name: String, _ source: SourceKind) -> Bool {
        if countNames.contains(name) { return true }
        // `value` of a summed count type (steps, flights, strokes), not of a discrete one whose unit is also "count" (BMI).
        if name == "value", case .type(let type) = source { return type.aggregation == .cumulative && type.canonicalUnit == "count" }
        return false
    }

    private static func plainName(_ e: Expr) -> String? {
        if case .field(_, let name, _) = e { return name.lowercased() }
        return nil
    }
}
