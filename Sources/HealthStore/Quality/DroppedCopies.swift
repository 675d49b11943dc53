import HealthCore
import SQLite

/// `reconciliation.duplicates_dropped` (docs/data-quality.md): the exact copies of a day's
/// records of a metric that the loads dropped, from `duplicate_copies`.
extension QualityWriter {
    struct DroppedCopies {
        /// Local day (since 1970) → metric name → copies.
        var copies: [Int64: [String: Int64]] = [:]
        /// Days up to this one (since 1970) hold records loaded before the store counted
        /// copies (upgraded in place from before version 7): unknown.
        var unknownThrough: Int64?

        /// The column's value: NULL on a day whose copies are unknown, else the count (0 for none).
        func value(day: Int64, metric: String) -> SQLValue {
            if let unknownThrough, day <= unknownThrough { return .null }
            return .integer(copies[day]?[metric] ?? 0)
        }
    }

    /// Every day's copies of the summed metrics' types: one grouped read of a small table.
    func droppedCopies() throws -> DroppedCopies {
        var result = DroppedCopies()
        let metricOfType = Dictionary(uniqueKeysWithValues: Self.metrics.map { ($0.type, $0.name) })
        let types = Self.metrics.map { "'\($0.type)'" }.joined(separator: ", ")
        for row in try database.rows("""
            SELECT t.identifier, d.local_day, sum(d.copies) FROM duplicate_copies d JOIN types t ON t.id = d.type_id
            WHERE t.identifier IN (\(types)) GROUP BY t.identifier, d.local_day
            """) {
            guard let type = row[0].string, let metric = metricOfType[type], let day = row[1].int, let copies = row[2].int
            else { continue }
            result.copies[day, default: [:]][metric] = copies
        }
        result.unknownThrough = try database.rows("SELECT value FROM settings WHERE key = ?",
                                                  [.text(StoreSchema.duplicatesUnknownThroughKey)])
            .first?.first?.string.flatMap { CivilDate(iso: $0) }.map { Int64($0.daysSinceEpoch) }
        return result
    }
}
