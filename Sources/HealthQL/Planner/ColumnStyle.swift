import HealthCore

/// How a result column's numbers read in a table, decided from what the column is:
/// a year or an id is a label, not a quantity (`2021`, never `2,021`); a count of things
/// (steps, stairs, heartbeats, samples) is whole, rounded as the report rounds (an average of
/// 12,344.3 steps a day reads 12,344); anything else keeps two decimals.
public enum ColumnStyle: Sendable, Equatable {
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
        if let expr, case .aggregate(.count, _, _) = expr { return .whole }
        let names = (expr?.fields.map { $0.name.lowercased() } ?? []) + [fieldName?.lowercased()].compactMap { $0 }
        if names.contains(where: countNames.contains) { return .whole }
        if case .type(let type) = source, type.canonicalUnit == "count", names.contains("value") { return .whole }
        return .decimal
    }

    private static func plainName(_ e: Expr) -> String? {
        if case .field(_, let name, _) = e { return name.lowercased() }
        return nil
    }
}
