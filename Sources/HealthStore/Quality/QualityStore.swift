import HealthCore
import SQLite

/// The data-quality tables' reads and writes (docs/data-quality.md): `reconciliation` and
/// `reconciliation_sources`, `data_quality`, `source_inventory`, and what computing them reads
/// from the samples, the analytics and `duplicate_copies`. What the tables hold is computed by
/// `QualityBuilder` (HealthAnalytics); this is only the SQL, inside the caller's transaction.
package struct QualityStore {
    package let database: Database
    package init(database: Database) { self.database = database }

    /// A summed metric of `reconciliation`: its name, the type it sums, the `daily_analytics`
    /// expression of its merged total and the `activity_summaries` column of the Watch's own
    /// value (the rings), if it has one.
    package struct Metric: Sendable {
        package var name: String
        package var type: String
        var merged: String
        var rings: String?
    }

    package static let metrics: [Metric] = [
        Metric(name: "steps", type: "HKQuantityTypeIdentifierStepCount", merged: "steps"),
        Metric(name: "walking_running_distance_m", type: "HKQuantityTypeIdentifierDistanceWalkingRunning",
               merged: "CASE WHEN walking_distance_m IS NULL AND running_distance_m IS NULL THEN NULL "
                   + "ELSE ifnull(walking_distance_m, 0) + ifnull(running_distance_m, 0) END"),
        Metric(name: "active_energy_kcal", type: "HKQuantityTypeIdentifierActiveEnergyBurned", merged: "active_energy_kcal",
               rings: "active_energy_kcal"),
        Metric(name: "stairs_climbed", type: "HKQuantityTypeIdentifierFlightsClimbed", merged: "stairs_climbed"),
        Metric(name: "exercise_minutes", type: "HKQuantityTypeIdentifierAppleExerciseTime", merged: "exercise_minutes",
               rings: "exercise_min"),
        Metric(name: "stand_minutes", type: "HKQuantityTypeIdentifierAppleStandTime", merged: "stand_minutes"),
    ]

    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"

    /// A source as the outputs name it: its name and device model, whatever its versions
    /// (device descriptions lost their per-object address at ingest: `DeviceAddress`).
    package struct Source: Hashable, Comparable, Sendable {
        package var name: String
        /// "" when the source named none.
        package var model: String
        package init(name: String, model: String) { self.name = name; self.model = model }
        package static func < (a: Source, b: Source) -> Bool { (a.name, a.model) < (b.name, b.model) }
        var modelText: String? { model.isEmpty ? nil : model }
        var modelValue: SQLValue { modelText.map { .text($0) } ?? .null }
    }

    // MARK: The samples (`QualityTally`)

    /// The sources whose step samples tell that the phone was carried.
    package func phoneSources() throws -> Set<Int64> {
        Set(try database.rows("""
            SELECT id FROM sources WHERE device_model LIKE 'iPhone%' OR (device_model IS NULL AND name LIKE '%iPhone%')
            """).compactMap { $0[0].int })
    }

    /// Type id → identifier.
    package func typeIdentifiers() throws -> [Int64: String] {
        var names: [Int64: String] = [:]
        for row in try database.rows("SELECT id, identifier FROM types") {
            if let id = row[0].int { names[id] = row[1].string ?? "" }
        }
        return names
    }

    /// Every sample's type, source, local day and value (0 for none), in one sequential read of
    /// the table: SQLite's GROUP BY sorts every row first (a temporary B-tree), which cost a
    /// year's full import some 10 %; the caller's hash table of the few thousand groups costs
    /// little.
    package func forEachSample(_ body: (_ type: Int64, _ source: Int64, _ day: Int64, _ value: Double) -> Void) throws {
        let read = try database.prepare("SELECT type_id, source_id, local_day, value FROM sample_data NOT INDEXED")
        while try read.step() {
            body(read.int64(0), read.int64(1), read.int64(2), read.isNull(3) ? 0 : read.double(3))
        }
    }

    /// The start, source and local day of the samples of type `identifier`: around `days` (nil:
    /// all), by the (type, start) index; the caller keeps those of its days.
    package func forEachStart(ofType identifier: String, around days: Set<Int64>?,
                              _ body: (_ start: Int64, _ source: Int64, _ day: Int64) -> Void) throws {
        guard let typeID = try database.scalar("SELECT id FROM types WHERE identifier = ?", [.text(identifier)]).int else { return }
        var range = ""
        var bindings: [SQLValue] = [.integer(typeID)]
        if let days, let low = days.min(), let high = days.max() {
            // Around the days (a local day is within a day of its UTC day).
            range = " AND start_us >= ? AND start_us < ?"
            bindings += [.integer((low - 2) * 86_400_000_000), .integer((high + 3) * 86_400_000_000)]
        }
        let read = try database.prepare("SELECT start_us, source_id, local_day FROM sample_data WHERE type_id = ?" + range)
        try read.bind(bindings)
        while try read.step() { body(read.int64(0), read.int64(1), read.int64(2)) }
    }

    // MARK: What the tables are computed from

    /// No day computed yet (an upgraded store of version 5 has the tables empty).
    package func isEmpty() throws -> Bool {
        try database.scalar("SELECT count(*) FROM data_quality").int == 0
    }

    /// Source id → name and device model.
    package func sources() throws -> [Int64: Source] {
        var keys: [Int64: Source] = [:]
        for row in try database.rows("SELECT id, name, device_model FROM sources") {
            guard let id = row[0].int else { continue }
            keys[id] = Source(name: row[1].string ?? "", model: row[2].string ?? "")
        }
        return keys
    }

    /// The merged total of each metric on `days` (nil: every day): date → metric → total.
    package func mergedTotals(days: Set<CivilDate>?) throws -> [String: [String: Double]] {
        try dayValues(Self.metrics.map { ($0.name, $0.merged) }, from: "daily_analytics", days: days)
    }

    /// The Watch's own value (the rings) of each metric that has one on `days` (nil: every day).
    package func ringTotals(days: Set<CivilDate>?) throws -> [String: [String: Double]] {
        try dayValues(Self.metrics.compactMap { m in m.rings.map { (m.name, $0) } }, from: "activity_summaries", days: days)
    }

    private func dayValues(_ columns: [(name: String, expression: String)], from table: String,
                           days: Set<CivilDate>?) throws -> [String: [String: Double]] {
        var values: [String: [String: Double]] = [:]
        let (filter, list) = Self.dayFilter(days)
        let sql = "SELECT date, " + columns.map(\.expression).joined(separator: ", ") + " FROM \(table)" + filter
        for row in try database.rows(sql, list) {
            guard let date = row[0].string else { continue }
            for (i, column) in columns.enumerated() { if let v = row[i + 1].double { values[date, default: [:]][column.name] = v } }
        }
        return values
    }

    /// ` WHERE date IN (…)` and its one binding, for `days` (nil: no filter).
    private static func dayFilter(_ days: Set<CivilDate>?) -> (String, [SQLValue]) {
        guard let days else { return ("", []) }
        return (" WHERE date IN (SELECT value FROM json_each(?))",
                [.text("[" + days.map { "\"\($0.iso8601)\"" }.sorted().joined(separator: ",") + "]")])
    }

    /// `reconciliation.duplicates_dropped`: the exact copies of a day's records of a metric that
    /// the loads dropped, from `duplicate_copies`.
    package struct DroppedCopies {
        /// Local day (since 1970) → metric name → copies.
        var copies: [Int64: [String: Int64]] = [:]
        /// Days up to this one (since 1970) hold records loaded before the store counted
        /// copies (upgraded in place from before version 7): unknown.
        var unknownThrough: Int64?

        /// The column's value: nil on a day whose copies are unknown, else the count (0 for none).
        package func value(day: Int64, metric: String) -> Int64? {
            if let unknownThrough, day <= unknownThrough { return nil }
            return copies[day]?[metric] ?? 0
        }
    }

    /// Every day's copies of the summed metrics' types: one grouped read of a small table.
    package func droppedCopies() throws -> DroppedCopies {
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

    /// The `HKTimeZone` names recorded on each local day (sleep samples and workouts carry them).
    package func recordedZones(days: Set<String>?) throws -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        let rows = try database.rows("""
            SELECT date(s.local_day * 86400, 'unixepoch'), json_extract(s.metadata, '$.HKTimeZone')
            FROM sample_data s JOIN types t ON t.id = s.type_id
            WHERE t.identifier = ? AND s.metadata LIKE '%HKTimeZone%' AND json_valid(s.metadata)
            UNION ALL
            SELECT local_date, json_extract(metadata, '$.HKTimeZone') FROM workouts
            WHERE metadata LIKE '%HKTimeZone%' AND json_valid(metadata)
            """, [.text(Self.sleep)])
        for row in rows {
            guard let date = row[0].string, let zone = row[1].string, days?.contains(date) ?? true else { continue }
            result[date, default: []].insert(zone)
        }
        return result
    }

    /// The dates of `days` (nil: every day) that have analytics, in order.
    package func analyticsDates(days: Set<CivilDate>?) throws -> [String] {
        let (filter, list) = Self.dayFilter(days)
        return try database.rows("SELECT date FROM daily_analytics" + filter + " ORDER BY date", list).compactMap { $0[0].string }
    }

    // MARK: Writing the tables

    private func clear(_ table: String, days: Set<CivilDate>?) throws {
        guard let days else { return try database.execute("DELETE FROM \(table)") }
        let delete = try database.prepare("DELETE FROM \(table) WHERE date = ?")
        for day in days { delete.bind(1, day.iso8601); try delete.run() }
    }

    /// A row of `source_inventory`: a source's records of one type.
    package struct InventoryRow {
        package var source: Source
        package var type: String
        package var records: Int64
        package var firstSeen: String
        package var lastSeen: String
        package var priority: Int64?
        package init(source: Source, type: String, records: Int64, firstSeen: String, lastSeen: String, priority: Int64?) {
            self.source = source; self.type = type; self.records = records
            self.firstSeen = firstSeen; self.lastSeen = lastSeen; self.priority = priority
        }
    }

    /// Replaces the whole inventory with `rows`, in their order.
    package func replaceInventory(_ rows: [InventoryRow]) throws {
        try database.execute("DELETE FROM source_inventory")
        let insert = try database.prepare("INSERT INTO source_inventory VALUES (?, ?, ?, ?, ?, ?, ?)")
        for row in rows {
            try insert.bind([.text(row.source.name), row.source.modelValue, .text(row.type), .integer(row.records),
                             .text(row.firstSeen), .text(row.lastSeen), row.priority.map { .integer($0) } ?? .null])
            try insert.run()
        }
    }

    /// Deletes the reconciliation rows of `days` (nil: every row) and returns the writer of
    /// their new rows.
    package func replaceReconciliation(days: Set<CivilDate>?) throws -> ReconciliationRows {
        try clear("reconciliation", days: days)
        try clear("reconciliation_sources", days: days)
        return try ReconciliationRows(database: database)
    }

    /// Inserts `reconciliation` and `reconciliation_sources` rows, one statement each, prepared once.
    package struct ReconciliationRows {
        private let insert: Statement
        private let insertSource: Statement

        init(database: Database) throws {
            insert = try database.prepare("INSERT INTO reconciliation VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            insertSource = try database.prepare("INSERT INTO reconciliation_sources VALUES (?, ?, ?, ?, ?, ?, ?)")
        }

        /// A source's own total of a metric on a day. Bound one by one: thousands of rows, no
        /// array of values made for each.
        package func addSource(date: String, metric: String, source: Source, total: Double, samples: Int64,
                               priority: Int64?) throws {
            insertSource.bind(1, date); insertSource.bind(2, metric); insertSource.bind(3, source.name)
            insertSource.bind(4, source.modelText); insertSource.bind(5, total)
            insertSource.bind(6, samples); insertSource.bind(7, priority)
            try insertSource.run()
        }

        /// A metric's day: our total, every source's, the rings and whether they disagree.
        package func add(date: String, metric: String, merged: Double?, allSources: Double, overlapRemoved: Double?,
                         sourceCount: Int64, rings: Double?, ringsDifference: Double?, ringsDisagree: Bool?,
                         duplicatesDropped: Int64?) throws {
            try insert.bind([.text(date), .text(metric), merged.map { .real($0) } ?? .null, .real(allSources),
                             overlapRemoved.map { .real($0) } ?? .null, .integer(sourceCount),
                             rings.map { .real($0) } ?? .null, ringsDifference.map { .real($0) } ?? .null,
                             ringsDisagree.map { .integer($0 ? 1 : 0) } ?? .null,
                             duplicatesDropped.map { .integer($0) } ?? .null])
            try insert.run()
        }
    }

    /// A row of `data_quality` (`partial_day` and `valid_day` are set by `updateDayFlags`).
    package struct DayRow {
        package var date: String
        package var watchHours: Int64
        package var phoneHours: Int64
        package var sourceCount: Int64
        package var timeZones: String?
        package var utcOffset: String?
        package init(date: String, watchHours: Int64, phoneHours: Int64, sourceCount: Int64, timeZones: String?,
                     utcOffset: String?) {
            self.date = date; self.watchHours = watchHours; self.phoneHours = phoneHours; self.sourceCount = sourceCount
            self.timeZones = timeZones; self.utcOffset = utcOffset
        }
    }

    /// Deletes the `data_quality` rows of `days` (nil: every row).
    package func clearDays(_ days: Set<CivilDate>?) throws { try clear("data_quality", days: days) }

    package func insert(days rows: [DayRow]) throws {
        let insert = try database.prepare("INSERT INTO data_quality VALUES (?, ?, ?, ?, 0, 0, ?, ?)")
        for row in rows {
            try insert.bind([.text(row.date), .integer(row.watchHours), .integer(row.phoneHours), .integer(row.sourceCount),
                             row.timeZones.map { .text($0) } ?? .null, row.utcOffset.map { .text($0) } ?? .null])
            try insert.run()
        }
    }

    /// Every day: the export day moves (`partial_day`) and the rule is a setting (`valid_day`:
    /// at least `minWatchHours` worn hours).
    package func updateDayFlags(minWatchHours: Double) throws {
        try database.rows("""
            UPDATE data_quality SET
              partial_day = ifnull((SELECT partial_day FROM daily_analytics d WHERE d.date = data_quality.date), 0),
              valid_day = CASE WHEN watch_hours >= ? THEN 1 ELSE 0 END
            """, [.real(minWatchHours)])
    }
}
