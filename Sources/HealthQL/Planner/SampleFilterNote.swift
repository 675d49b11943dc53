import HealthCore

/// `steps` vs `daily.steps`: a row of a cumulative type is one recorded sample (a few minutes of
/// walking), not a day. `SELECT date, value FROM steps WHERE value > 10000` reads samples and
/// finds none, silently; the note says what was read and how to ask about days.
enum SampleFilterNote {
    static func note(for query: Query, rowCount: Int) throws -> [String] {
        guard query.join == nil, let filter = query.filter,
              case .type(let type)? = try? SourceCatalog.resolve(query.source), type.aggregation == .cumulative else { return [] }
        let aggregates = !query.groupBy.isEmpty || query.having != nil
            || query.items.contains { if case .expr(let e, _) = $0 { e.containsAggregate } else { false } }
        guard !aggregates, filter.fields.contains(where: { $0.name.lowercased() == "value" }) else { return [] }
        let daily = DailyMetric.allCases.first { $0.sourceType == type.identifier }?.column
        let dayQuery = daily.map { "SELECT date, \($0) FROM daily WHERE \($0) > …" }
            ?? "SELECT day, sum(value) FROM \(type.alias) GROUP BY day HAVING sum(value) > …"
        return ["\(type.alias) rows are single samples (\(rowCount) matched), not days: a filter on value compares each "
                + "recording. For daily totals ask \(dayQuery)"]
    }
}
