import HealthCore
import SQLite

/// What a store can be asked, for programs that describe it to someone else (the MCP server's
/// schema resources and its metric list): every source with its fields, and the types stored.
package struct SourceDescription: Sendable, Equatable {
    package struct FieldDescription: Sendable, Equatable {
        package var name: String
        /// number, text, date, time (an instant shown in local time), name (a stored value by its short name).
        package var kind: String
        /// Selected by `SELECT *`.
        package var selectedByStar: Bool
    }
    package var name: String
    package var summary: String
    package var fields: [FieldDescription]
}

/// A HealthKit type present in a store.
package struct StoredType: Sendable, Equatable {
    package var alias: String
    package var identifier: String
    package var unit: String?
    package var samples: Int64
    package var firstDay: String?
    package var lastDay: String?
    /// cumulative (summed per day), discrete (averaged) or category.
    package var aggregation: String
}

package enum SchemaCatalog {
    /// The sources that are not types: sleep, workouts, activity, ecg, daily … yearly.
    package static func tableSources() -> [SourceDescription] {
        TableSource.allCases.map { describe(SourceCatalog.relation(SourceRef($0.rawValue), table: $0)) }
    }

    /// A type's fields as a sample-level source (what `SELECT * FROM steps` reads).
    package static func typeSource(_ name: String) throws(HealthQLError) -> SourceDescription {
        let ref = SourceRef(name)
        switch try SourceCatalog.resolve(ref) {
        case .table(let table): return describe(SourceCatalog.relation(ref, table: table))
        case .type(let type): return describe(SourceCatalog.relation(ref, type: type, reading: .samples, params: Parameters()))
        }
    }

    static func describe(_ relation: Relation) -> SourceDescription {
        SourceDescription(name: relation.name, summary: relation.summary, fields: relation.fields.map { field in
            let kind = switch field.kind {
            case .number: "number"
            case .text: "text"
            case .date: "date"
            case .instant: "time"
            case .label: "name"
            case .boolean: "condition"
            }
            return .init(name: field.name, kind: kind, selectedByStar: field.natural)
        })
    }

    /// The types a store holds, most samples first, with their unit and local date range.
    package static func storedTypes(_ store: StoreContext) throws -> [StoredType] {
        let rows = try store.database.rows("""
            SELECT t.identifier, count(*), min(s.local_day), max(s.local_day), max(s.unit)
            FROM types t JOIN sample_data s ON s.type_id = t.id GROUP BY t.id ORDER BY count(*) DESC, t.identifier
            """)
        return rows.map { row in
            let type = TypeRegistry.type(for: row[0].string ?? "")
            let day = { (v: SQLValue) in v.int.map { CivilDate(daysSinceEpoch: Int($0)).iso8601 } }
            return StoredType(alias: type.alias, identifier: type.identifier, unit: type.canonicalUnit ?? row[4].string,
                              samples: row[1].int ?? 0, firstDay: day(row[2]), lastDay: day(row[3]),
                              aggregation: type.aggregation.rawValue)
        }
    }
}
