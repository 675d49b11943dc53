import HealthCore
import SQLite

/// The data-quality tables (docs/data-quality.md) for the report and the workbook. A store
/// without them (older than version 6, read before its first import by this version) reads as
/// empty.
extension HealthStore {
    package struct QualityDay: Sendable, Equatable {
        package var date: CivilDate
        package var watchHours: Int
        package var phoneHours: Int
        package var sourceCount: Int
        package var valid: Bool
        package var partial: Bool
        package var timeZone: String?
        package var utcOffset: String?
    }

    /// A source's own total of a metric on a day, with the priority it got (1 = best).
    package struct SourceTotal: Sendable, Equatable {
        package var source: String
        package var deviceModel: String?
        package var total: Double
        package var priority: Int?
    }

    /// A day where our total and the Watch's rings differ.
    package struct RingsGap: Sendable, Equatable {
        package var date: CivilDate
        package var metric: String
        package var merged: Double
        package var rings: Double
        package var difference: Double
        package var allSourcesSum: Double
        package var disagree: Bool
        package var sources: [SourceTotal]
        /// Exact copies of the day's records of the metric dropped at load; nil: unknown (a
        /// store upgraded in place, docs/data-quality.md).
        package var duplicatesDropped: Int? = nil
    }

    /// A source (name and device model) over every type it wrote.
    package struct InventorySource: Sendable, Equatable {
        package var source: String
        package var deviceModel: String?
        package var records: Int
        package var types: Int
        package var firstSeen: CivilDate
        package var lastSeen: CivilDate
        package var priority: Int?
    }

    package func qualityDays() throws -> [QualityDay] {
        guard try database.hasTable("data_quality") else { return [] }
        return try database.rows("""
            SELECT date, watch_hours, phone_hours, source_count, valid_day, partial_day, time_zone, utc_offset
            FROM data_quality ORDER BY date
            """).compactMap { r in
            guard let date = r[0].string.flatMap({ CivilDate(iso: $0) }) else { return nil }
            return QualityDay(date: date, watchHours: Int(r[1].int ?? 0), phoneHours: Int(r[2].int ?? 0),
                              sourceCount: Int(r[3].int ?? 0), valid: r[4].int == 1, partial: r[5].int == 1,
                              timeZone: r[6].string, utcOffset: r[7].string)
        }
    }

    /// The `limit` days with the largest difference between our total and the rings (either
    /// metric), largest first, each with its sources' own totals.
    package func largestRingsGaps(limit: Int) throws -> [RingsGap] {
        guard try database.hasTable("reconciliation") else { return [] }
        // A version-6 store (read before an import by this version upgrades it) lacks the column.
        let copies = try database.scalar(
            "SELECT count(*) FROM pragma_table_info('reconciliation') WHERE name = 'duplicates_dropped'").int == 1
        let rows = try database.rows("""
            SELECT date, metric, merged, rings, rings_difference, all_sources_sum, rings_disagree,
                   \(copies ? "duplicates_dropped" : "NULL") FROM reconciliation
            WHERE rings_difference IS NOT NULL AND merged IS NOT NULL
            ORDER BY abs(rings_difference) / max(rings, 1) DESC, date, metric LIMIT ?
            """, [.integer(Int64(limit))])
        let sources = try database.prepare("""
            SELECT source_name, device_model, total, priority FROM reconciliation_sources WHERE date = ? AND metric = ?
            ORDER BY priority IS NULL, priority, source_name
            """)
        return try rows.compactMap { r in
            guard let date = r[0].string.flatMap({ CivilDate(iso: $0) }), let metric = r[1].string else { return nil }
            try sources.bind([r[0], r[1]])
            var totals: [SourceTotal] = []
            while try sources.step() {
                let row = sources.row()
                totals.append(SourceTotal(source: row[0].string ?? "", deviceModel: row[1].string, total: row[2].double ?? 0,
                                          priority: row[3].int.map(Int.init)))
            }
            return RingsGap(date: date, metric: metric, merged: r[2].double ?? 0, rings: r[3].double ?? 0,
                            difference: r[4].double ?? 0, allSourcesSum: r[5].double ?? 0, disagree: r[6].int == 1,
                            sources: totals, duplicatesDropped: r[7].int.map(Int.init))
        }
    }

    /// Every source and device, best priority first.
    package func sourceInventory() throws -> [InventorySource] {
        guard try database.hasTable("source_inventory") else { return [] }
        return try database.rows("""
            SELECT source_name, device_model, sum(records), count(*), min(first_seen), max(last_seen), min(priority)
            FROM source_inventory GROUP BY source_name, device_model
            ORDER BY min(priority) IS NULL, min(priority), source_name, device_model
            """).compactMap { r in
            guard let first = r[4].string.flatMap({ CivilDate(iso: $0) }), let last = r[5].string.flatMap({ CivilDate(iso: $0) })
            else { return nil }
            return InventorySource(source: r[0].string ?? "", deviceModel: r[1].string, records: Int(r[2].int ?? 0),
                                   types: Int(r[3].int ?? 0), firstSeen: first, lastSeen: last, priority: r[6].int.map(Int.init))
        }
    }
}
