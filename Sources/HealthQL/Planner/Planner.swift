import Foundation
import HealthCore
import SQLite

/// A compiled statement: SQL with `?N` parameters and the columns it returns.
package struct Plan: Sendable {
    package var sql: String
    package var bindings: [SQLValue]
    package var columns: [ResultColumn]
}

public struct ResultColumn: Sendable, Equatable {
    public var name: String
    /// Numbers are right-aligned and grouped in tables.
    public var isNumeric: Bool
    /// How its numbers read in a table (years and ids plain, counts whole).
    package var style: ColumnStyle

    package init(name: String, isNumeric: Bool, style: ColumnStyle? = nil) {
        self.name = name; self.isNumeric = isNumeric
        self.style = style ?? (isNumeric ? .decimal : .text)
    }
}

/// IR → SQL. Decides how each source is read (raw samples, the source-merged series of a
/// cumulative type by day or hour, day-level series for joins), then compiles every clause
/// against those subqueries. Every value is bound; names are checked before SQLite sees them.
package struct Planner {
    let store: StoreContext
    let now: Timestamp
    /// The day `today()` names, when not `now`'s local day (the data's last complete day).
    let today: CivilDate?

    package init(store: StoreContext, now: Timestamp = Timestamp(secondsSince1970: Date().timeIntervalSince1970),
                today: CivilDate? = nil) {
        self.store = store; self.now = now; self.today = today
    }

    package func plan(_ query: Query) throws(HealthQLError) -> Plan {
        let params = Parameters()
        let mainKind = try SourceCatalog.resolve(query.source)
        let joinKind = try query.join.map { j throws(HealthQLError) in try SourceCatalog.resolve(j.source) }
        let aggregateMode = !query.groupBy.isEmpty || query.having != nil
            || query.items.contains { if case .expr(let e, _) = $0 { e.containsAggregate } else { false } }
            || query.orderBy.contains { $0.expr.containsAggregate }

        var relations = [BoundRelation(alias: "r0", relation: try relation(query.source, mainKind, query: query,
                                                                             aggregateMode: aggregateMode, params: params))]
        if let join = query.join, let joinKind {
            relations.append(BoundRelation(alias: "r1", relation: try relation(join.source, joinKind, query: query,
                                                                                 aggregateMode: aggregateMode, params: params)))
        }
        var compiler = ExpressionCompiler(relations: relations, params: params, folder: ConstantFolder(clock: store.clock(now: now, today: today)),
                                          store: store)

        // GROUP BY keys first: the other clauses may name them.
        for key in query.groupBy {
            let lower = key.name.lowercased()
            let bound = try key.qualifier.map { q throws(HealthQLError) in
                try compiler.relation(named: q, at: key.at)
            } ?? relations[0]
            let value: Compiled = ExpressionCompiler.buckets.contains(lower)
                ? try compiler.bucket(lower, of: bound, at: key.at)
                : try compiler.resolve(key.qualifier, lower, original: key.name, at: key.at)
            compiler.keys.append(CompiledKey(label: lower, value: value, name: lower, relationAlias: bound.alias))
        }
        compiler.aggregateMode = aggregateMode

        // SELECT list.
        var outputs: [(label: String, value: Compiled)] = []
        var styles: [String: ColumnStyle] = [:]
        for item in query.items {
            switch item {
            case .all(let at):
                if aggregateMode {
                    throw HealthQLError("'*' lists rows; with GROUP BY or aggregates name the columns, "
                                        + "e.g. SELECT day, sum(value)", at: at.position)
                }
                let all = relations.flatMap { bound in bound.relation.fields.filter(\.natural).map { (bound, $0) } }
                let names = all.map(\.1.name)
                for (bound, field) in all {
                    let duplicate = names.filter { $0 == field.name }.count > 1
                    let label = (duplicate ? "\(bound.relation.name)." : "") + field.name
                    let value = compiler.column(field, of: bound)
                    outputs.append((label, value))
                    styles[label] = ColumnStyling.style(of: nil, fieldName: field.name, compiled: value, source: mainKind)
                }
            case .expr(let e, let alias):
                let value = try compiler.compile(e, in: .select)
                let label = alias ?? e.text
                outputs.append((label, value))
                styles[label] = ColumnStyling.style(of: e, fieldName: nil, compiled: value, source: mainKind)
                compiler.selectLabels[label.lowercased()] = value
            }
        }
        // Group keys the list does not show come first: a grouped row without its key means nothing.
        let missingKeys = compiler.keys.filter { key in !outputs.contains { $0.value.sql == key.value.sql } }
        outputs = missingKeys.map { ($0.label, $0.value) } + outputs

        var sql = "SELECT " + outputs.map { Self.display($0.value) }.joined(separator: ", ")
        sql += " FROM (\(relations[0].relation.sql)) AS r0"
        if let join = query.join {
            let on = try compiler.compile(join.on, in: .on)
            sql += " JOIN (\(relations[1].relation.sql)) AS r1 ON \(on.sql)"
        }
        if let filter = query.filter { sql += " WHERE " + (try compiler.compile(filter, in: .filter)).sql }
        if !compiler.keys.isEmpty { sql += " GROUP BY " + compiler.keys.map(\.value.sql).joined(separator: ", ") }
        if let having = query.having { sql += " HAVING " + (try compiler.compile(having, in: .having)).sql }

        var order: [String] = []
        for item in query.orderBy {
            let direction = item.descending ? " DESC" : ""
            if case .number(let n, let at) = item.expr {
                guard n == n.rounded(), n >= 1, n <= Double(outputs.count) else {
                    throw HealthQLError("ORDER BY \(Expr.number(n)): there are \(outputs.count) columns", at: at.position)
                }
                order.append("\(Int(n))\(direction)")
                continue
            }
            if case .field(nil, let name, _) = item.expr,
               let index = outputs.firstIndex(where: { $0.label.lowercased() == name.lowercased() }) {
                order.append("\(index + 1)\(direction)")
                continue
            }
            order.append((try compiler.compile(item.expr, in: .order)).sql + direction)
        }
        if order.isEmpty {
            if !compiler.keys.isEmpty {
                order = compiler.keys.map(\.value.sql)
            } else if !aggregateMode, relations[0].relation.field("date") != nil {
                order = ["r0.\"date\""]
            }
        }
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        if let limit = query.limit { sql += " LIMIT " + params.add(.integer(Int64(limit))) }

        return Plan(sql: sql, bindings: params.values,
                    columns: outputs.map { output in
                        let keyStyle: ColumnStyle? = ColumnStyling.identifierNames.contains(output.label.lowercased()) ? .identifier : nil
                        return ResultColumn(name: output.label, isNumeric: output.value.kind == .number,
                                            style: keyStyle ?? styles[output.label])
                    })
    }

    /// How a value is shown: instants as local time, stored identifiers by their short names.
    private static func display(_ c: Compiled) -> String {
        switch c.kind {
        case .instant: "ql_local_time(\(c.sql))"
        case .label: "ql_label(\(c.sql))"
        default: c.sql
        }
    }

    // MARK: how each source is read

    private func relation(_ ref: SourceRef, _ kind: SourceKind, query: Query, aggregateMode: Bool,
                          params: Parameters) throws(HealthQLError) -> Relation {
        switch kind {
        case .table(let table):
            if table == .ecg, !store.hasECGRecordings {
                throw HealthQLError("This store has no ECG recordings table (made by an older healthetl); "
                                    + "the next import adds it", at: ref.at.position)
            }
            return SourceCatalog.relation(ref, table: table)
        case .type(let type):
            return SourceCatalog.relation(ref, type: type, reading: try reading(type, query: query, aggregateMode: aggregateMode),
                                          params: params)
        }
    }

    /// No double counting: a cumulative type aggregated over time reads its source-merged
    /// series (per day from `daily_metrics`, per hour from `hourly_metrics`), unless the query asks
    /// about sources or sample fields, which only raw samples have.
    func reading(_ type: HealthType, query: Query, aggregateMode: Bool) throws(HealthQLError) -> TypeReading {
        if query.join != nil { return .days }
        guard type.aggregation == .cumulative, aggregateMode, Self.usesOnlySeriesFields(query) else { return .samples }
        let byHour = query.groupBy.contains { $0.name.lowercased() == "hour" }
        let fineFilter = query.filter?.needsSubDayPrecision ?? false
        if byHour || fineFilter {
            if store.hasHourlyMetrics { return .mergedHours }
            if byHour {
                throw HealthQLError("This store has no hourly_metrics table (made by an older healthetl); "
                                    + "re-import to group \(type.alias) by hour", at: query.groupBy[0].at.position)
            }
        }
        return .mergedDays
    }

    private static let seriesFields: Set<String> = ["date", "value", "unit", "hour", "day", "week", "month", "year"]

    /// Whether every name the query uses exists on a merged series, and some aggregate reads `value`.
    static func usesOnlySeriesFields(_ query: Query) -> Bool {
        var exprs: [Expr] = query.items.compactMap { if case .expr(let e, _) = $0 { e } else { nil } }
        exprs += [query.filter, query.having].compactMap { $0 } + query.orderBy.map(\.expr)
        let aliases = Set(query.items.compactMap { if case .expr(_, let a?) = $0 { a.lowercased() } else { nil } })
        let names = exprs.flatMap(\.fields).map { $0.name.lowercased() } + query.groupBy.map { $0.name.lowercased() }
        guard names.allSatisfy({ seriesFields.contains($0) || aliases.contains($0) }) else { return false }
        return exprs.contains { $0.aggregatesValue }
    }
}

extension Expr {
    /// Whether an aggregate of `value` (sum(value), avg(value) …) appears.
    var aggregatesValue: Bool {
        switch self {
        case .aggregate(_, let e?, _): e.fields.contains { $0.name.lowercased() == "value" }
        case .unary(_, let e, _), .isNull(let e, _, _): e.aggregatesValue
        case .binary(_, let l, let r, _): l.aggregatesValue || r.aggregatesValue
        default: false
        }
    }
}

