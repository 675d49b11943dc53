import HealthStore
import SQLite

/// How a compiled value behaves: what it compares with, how it is shown.
enum ValueKind: Equatable, Sendable {
    case number
    case text
    /// A local calendar date as `YYYY-MM-DD` text.
    case date
    /// An instant in µs since 1970 (UTC); shown as local time.
    case instant
    /// A stored enum identifier (`HKCategoryValueSleepAnalysisAsleepDeep`, `HKWorkoutActivityTypeRunning`),
    /// shown and matched by its short name.
    case label
    case boolean
}

/// A field of a source: its name in HealthQL, the column of the source's subquery, its kind.
struct Field: Sendable {
    var name: String
    var kind: ValueKind
    /// SQL inside the source's subquery (the subquery names the column `name`).
    var column: String
    /// Part of `SELECT *`.
    var natural: Bool
    /// For `.label` fields: SQL listing the identifiers stored (to resolve names users type).
    var storedValuesSQL: String? = nil
    var storedValuesBindings: [SQLValue] = []

    init(_ name: String, _ kind: ValueKind, _ column: String, natural: Bool = true, storedValuesSQL: String? = nil,
         storedValuesBindings: [SQLValue] = []) {
        self.name = name; self.kind = kind; self.column = column; self.natural = natural
        self.storedValuesSQL = storedValuesSQL; self.storedValuesBindings = storedValuesBindings
    }
}

/// One source as the planner sees it: a subquery with named columns.
struct Relation: Sendable {
    /// How messages name it ("steps", "sleep").
    var name: String
    /// Lower-cased names a qualifier may use for it (`steps`, `step_count`, the identifier …).
    var qualifiers: Set<String>
    var fields: [Field]
    var from: String
    /// The subquery's WHERE (binds already made), or nil.
    var condition: String?
    /// Whether `date` is a day (`YYYY-MM-DD`) or an instant.
    var dateKind: ValueKind
    /// SQL column (of the subquery) with the local day of each row.
    var dayColumn: String
    /// How to find a row's local hour bucket: a column of the subquery, or nil when only an
    /// instant `date` can give it (`ql_hour`), or when the source has no times at all.
    var hourColumn: String?
    /// What this relation is, for messages: "the source-merged daily series of steps".
    var summary: String

    func field(_ name: String) -> Field? {
        let lower = name.lowercased()
        return fields.first { $0.name == lower }
    }

    var sql: String {
        var columns = fields.map { "\($0.column) AS \"\($0.name)\"" }
        columns.append("\(dayColumn) AS \"_day\"")
        if let hourColumn { columns.append("\(hourColumn) AS \"_hour\"") }
        return "SELECT " + columns.joined(separator: ", ") + " FROM " + from + (condition.map { " WHERE " + $0 } ?? "")
    }
}

/// Bound values of one statement, referenced as `?N` so fragments can be assembled in any order.
final class Parameters {
    private(set) var values: [SQLValue] = []
    func add(_ value: SQLValue) -> String {
        values.append(value)
        return "?\(values.count)"
    }
}
