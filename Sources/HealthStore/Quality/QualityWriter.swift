import Foundation
import HealthCore
import SQLite

/// Computes the data-quality tables (docs/data-quality.md) from a loaded store, after the
/// analytics: `reconciliation` and `reconciliation_sources`, `data_quality` and
/// `source_inventory`. Everything comes from the stored samples, never from the ingest loop:
/// by SQL, and what needs each sample from a `QualityTally` (gathered from the series the
/// analytics read, or read from the store).
///
/// Only `days` are rewritten (nil: every day); the columns that depend on every day or on the
/// settings (`partial_day`, `valid_day`, the inventory, the priorities) are recomputed whole,
/// so an incremental run leaves the same rows as a full one.
package struct QualityWriter {
    package struct Settings: Sendable, Equatable {
        /// `validDayMinWatchHours`: a day is valid with at least this many worn hours.
        package var validDayMinWatchHours: Double
        package init(validDayMinWatchHours: Double = QualityWriter.defaultValidDayMinWatchHours) {
            self.validDayMinWatchHours = validDayMinWatchHours
        }
    }

    package static let defaultValidDayMinWatchHours = 10.0

    let database: Database
    var calendar: LocalCalendar
    let settings: Settings
    /// The priority ranks (0 = best) the analytics give these sources as recorded.
    let ranks: ([Source]) -> [Source: Int]
    private var rankOf: [Source: Int] = [:]

    package init(database: Database, calendar: LocalCalendar, settings: Settings, ranks: @escaping ([Source]) -> [Source: Int]) {
        self.database = database; self.calendar = calendar; self.settings = settings; self.ranks = ranks
    }

    /// A summed metric, the type it sums and the `daily_analytics` expression of its merged total.
    struct Metric {
        var name: String
        var type: String
        var merged: String
        /// The `activity_summaries` column of the Watch's own value, and the tolerance below
        /// which a difference is no disagreement: `max(relative × rings, absolute)`.
        var rings: (column: String, relative: Double, absolute: Double)?
    }

    static let metrics: [Metric] = [
        Metric(name: "steps", type: "HKQuantityTypeIdentifierStepCount", merged: "steps"),
        Metric(name: "walking_running_distance_m", type: "HKQuantityTypeIdentifierDistanceWalkingRunning",
               merged: "CASE WHEN walking_distance_m IS NULL AND running_distance_m IS NULL THEN NULL "
                   + "ELSE ifnull(walking_distance_m, 0) + ifnull(running_distance_m, 0) END"),
        Metric(name: "active_energy_kcal", type: "HKQuantityTypeIdentifierActiveEnergyBurned", merged: "active_energy_kcal",
               rings: ("active_energy_kcal", 0.05, 10)),
        Metric(name: "stairs_climbed", type: "HKQuantityTypeIdentifierFlightsClimbed", merged: "stairs_climbed"),
        Metric(name: "exercise_minutes", type: "HKQuantityTypeIdentifierAppleExerciseTime", merged: "exercise_minutes",
               rings: ("exercise_min", 0.05, 2)),
        Metric(name: "stand_minutes", type: "HKQuantityTypeIdentifierAppleStandTime", merged: "stand_minutes"),
    ]

    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"

    /// A source as the outputs name it: its name and device model, whatever its versions
    /// (device descriptions lost their per-object address at ingest: `DeviceAddress`).
    package struct Source: Hashable, Comparable, Sendable {
        package var name: String
        /// "" when the source named none.
        package var model: String
        package static func < (a: Source, b: Source) -> Bool { (a.name, a.model) < (b.name, b.model) }
        var modelText: String? { model.isEmpty ? nil : model }
        var modelValue: SQLValue { modelText.map { .text($0) } ?? .null }
    }

    /// Rewrites the quality tables of `days` (nil: all), inside the caller's transaction. An
    /// upgraded store (version 5) has none yet: then every day is computed.
    /// `tally`: gathered from every sample on the analytics' way (a full build); read from the
    /// store if nil or not exact.
    package mutating func update(days requested: Set<CivilDate>?, tally gathered: QualityTally? = nil) throws {
        let empty = try database.scalar("SELECT count(*) FROM data_quality").int == 0
        let days = empty ? nil : requested
        let sources = try sourceKeys()
        rankOf = ranks(Array(Set(sources.values)))
        let wanted = days.map { Set($0.map { Int64($0.daysSinceEpoch) }) }
        let tally = try gathered.flatMap { $0.isExact ? $0 : nil }
            ?? QualityTally.read(from: database, calendar: calendar, days: wanted)
        // The inventory, the sources of each day and each source's daily totals of the summed
        // metrics, gathered by number (a source's versions share one number, its name and
        // model; tens of thousands of groups, no string hashed per group) and named once at
        // the end. Groups come in key order, so each total adds its parts in the same order
        // every run.
        let (distinct, sourceNumber) = Self.numbered(sources)
        let metricOfType = Dictionary(uniqueKeysWithValues: Self.metrics.enumerated().map { ($1.type, $0) })
        var metricNumber: [Int64: Int?] = [:]
        var inventory: [NumberedKey: (records: Int64, first: Int64, last: Int64)] = [:]
        var daySources: [Int64: Set<Int>] = [:]
        var totals: [NumberedKey: (total: Double, samples: Int64)] = [:]
        for (key, group) in tally.sortedGroups {
            let day = key.day, count = group.count
            guard let source = sourceNumber[key.source], tally.typeNames[key.type] != nil else { continue }
            let typeKey = NumberedKey(source: source, item: key.type)
            if let seen = inventory[typeKey] {
                inventory[typeKey] = (seen.records + count, min(seen.first, day), max(seen.last, day))
            } else {
                inventory[typeKey] = (count, day, day)
            }
            guard wanted?.contains(day) ?? true else { continue }
            daySources[day, default: []].insert(source)
            let metric = metricNumber[key.type] ?? {
                let number = tally.typeNames[key.type].flatMap { metricOfType[$0] }
                metricNumber[key.type] = number
                return number
            }()
            if let metric {
                let totalKey = NumberedKey(source: source, item: Int64(metric), day: day)
                let seen = totals[totalKey]
                totals[totalKey] = ((seen?.total ?? 0) + group.sum, (seen?.samples ?? 0) + count)
            }
        }
        var namedInventory: [Source: [String: (records: Int64, first: Int64, last: Int64)]] = [:]
        for (key, seen) in inventory { namedInventory[distinct[key.source], default: [:]][tally.typeNames[key.item]!] = seen }
        var namedTotals: [Int64: [String: [Source: (total: Double, samples: Int64)]]] = [:]
        for (key, total) in totals {
            namedTotals[key.day, default: [:]][Self.metrics[Int(key.item)].name, default: [:]][distinct[key.source]] = total
        }
        try writeInventory(namedInventory)
        try writeReconciliation(days: days, totals: namedTotals)
        try writeDataQuality(days: days, sourcesOfDay: daySources.mapValues(\.count), worn: tally.worn, carried: tally.carried)
    }

    /// A source (by number) and a type id or metric number, on a day for the totals.
    private struct NumberedKey: Hashable { var source: Int; var item: Int64; var day: Int64 = 0 }

    /// The distinct sources (name and model) and, for each source id, its number among them.
    private static func numbered(_ sources: [Int64: Source]) -> (distinct: [Source], number: [Int64: Int]) {
        var distinct: [Source] = [], numberOf: [Source: Int] = [:], number: [Int64: Int] = [:]
        for (id, source) in sources {
            if let known = numberOf[source] {
                number[id] = known
            } else {
                numberOf[source] = distinct.count
                number[id] = distinct.count
                distinct.append(source)
            }
        }
        return (distinct, number)
    }

    /// Source id → name and device model.
    private func sourceKeys() throws -> [Int64: Source] {
        var keys: [Int64: Source] = [:]
        for row in try database.rows("SELECT id, name, device_model FROM sources") {
            guard let id = row[0].int else { continue }
            keys[id] = Source(name: row[1].string ?? "", model: row[2].string ?? "")
        }
        return keys
    }

    private func priority(_ key: Source) -> Int64? {
        rankOf[key].map(Int64.init)
    }

    private func writeInventory(_ inventory: [Source: [String: (records: Int64, first: Int64, last: Int64)]]) throws {
        try database.execute("DELETE FROM source_inventory")
        let insert = try database.prepare("INSERT INTO source_inventory VALUES (?, ?, ?, ?, ?, ?, ?)")
        for source in inventory.keys.sorted() {
            for (type, seen) in inventory[source]!.sorted(by: { $0.key < $1.key }) {
                try insert.bind([.text(source.name), source.modelValue, .text(type), .integer(seen.records),
                                 .text(Self.iso(seen.first)), .text(Self.iso(seen.last)),
                                 priority(source).map { .integer($0) } ?? .null])
                try insert.run()
            }
        }
    }

    /// Sums kept to a micro-unit: the grouped read adds a day's samples in row order, which
    /// differs between a full and an incremental store; the last bits of a sum must not.
    static func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }

    static func iso(_ day: Int64) -> String { CivilDate(daysSinceEpoch: Int(day)).iso8601 }

    private func clear(_ table: String, days: Set<CivilDate>?) throws {
        guard let days else { return try database.execute("DELETE FROM \(table)") }
        let delete = try database.prepare("DELETE FROM \(table) WHERE date = ?")
        for day in days { delete.bind(1, day.iso8601); try delete.run() }
    }

    private func writeReconciliation(days: Set<CivilDate>?,
                                     totals: [Int64: [String: [Source: (total: Double, samples: Int64)]]]) throws {
        try clear("reconciliation", days: days)
        try clear("reconciliation_sources", days: days)
        // Merged totals and rings of the days in question.
        let dayFilter = days == nil ? "" : " WHERE date IN (SELECT value FROM json_each(?))"
        let dayList: [SQLValue] = days.map { [.text("[" + $0.map { "\"\($0.iso8601)\"" }.sorted().joined(separator: ",") + "]")] } ?? []
        var merged: [String: [String: Double]] = [:]
        let mergedSQL = "SELECT date, " + Self.metrics.map(\.merged).joined(separator: ", ") + " FROM daily_analytics" + dayFilter
        for row in try database.rows(mergedSQL, dayList) {
            guard let date = row[0].string else { continue }
            for (i, metric) in Self.metrics.enumerated() { if let v = row[i + 1].double { merged[date, default: [:]][metric.name] = v } }
        }
        var rings: [String: [String: Double]] = [:]
        let ringMetrics = Self.metrics.compactMap { m in m.rings.map { (m.name, $0.column) } }
        let ringsSQL = "SELECT date, " + ringMetrics.map(\.1).joined(separator: ", ") + " FROM activity_summaries" + dayFilter
        for row in try database.rows(ringsSQL, dayList) {
            guard let date = row[0].string else { continue }
            for (i, metric) in ringMetrics.enumerated() { if let v = row[i + 1].double { rings[date, default: [:]][metric.0] = v } }
        }
        var dates = Set(merged.keys)
        for day in totals.keys { dates.insert(Self.iso(day)) }
        let dropped = try droppedCopies()
        let insert = try database.prepare("INSERT INTO reconciliation VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let insertSource = try database.prepare("INSERT INTO reconciliation_sources VALUES (?, ?, ?, ?, ?, ?, ?)")
        for date in dates.sorted() {
            guard let civil = CivilDate(iso: date) else { continue }
            let perMetric = totals[Int64(civil.daysSinceEpoch)] ?? [:]
            for metric in Self.metrics {
                let bySource = perMetric[metric.name] ?? [:]
                let ours = merged[date]?[metric.name]
                guard ours != nil || !bySource.isEmpty else { continue }
                var all = 0.0
                for source in bySource.keys.sorted() {
                    let t = bySource[source]!
                    let total = Self.rounded(t.total)
                    all += total
                    // Bound one by one: thousands of rows, no array of values made for each.
                    insertSource.bind(1, date); insertSource.bind(2, metric.name); insertSource.bind(3, source.name)
                    insertSource.bind(4, source.modelText); insertSource.bind(5, total)
                    insertSource.bind(6, t.samples); insertSource.bind(7, priority(source))
                    try insertSource.run()
                }
                all = Self.rounded(all)
                let ring = rings[date]?[metric.name]
                let difference = ours.flatMap { o in ring.map { Self.rounded(o - $0) } }
                var disagree: SQLValue = .null
                if let difference, let ring, let tolerance = metric.rings {
                    disagree = .integer(abs(difference) > max(tolerance.relative * ring, tolerance.absolute) ? 1 : 0)
                }
                try insert.bind([.text(date), .text(metric.name), ours.map { .real($0) } ?? .null, .real(all),
                                 ours.map { .real(Self.rounded(all - $0)) } ?? .null, .integer(Int64(bySource.count)),
                                 ring.map { .real($0) } ?? .null, difference.map { .real($0) } ?? .null, disagree,
                                 dropped.value(day: Int64(civil.daysSinceEpoch), metric: metric.name)])
                try insert.run()
            }
        }
    }

    /// The `HKTimeZone` names recorded on each local day (sleep samples and workouts carry them).
    private func zones(days: Set<String>?) throws -> [String: Set<String>] {
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

    /// `+01:00` for an offset in seconds.
    static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+", a = abs(seconds)
        return String(format: "%@%02d:%02d", sign, a / 3600, a % 3600 / 60)
    }

    /// `sourcesOfDay`: local day → the sources that recorded on it; `worn`, `carried`: local day →
    /// hours holding a heart-rate sample, a phone's step sample.
    private func writeDataQuality(days: Set<CivilDate>?, sourcesOfDay: [Int64: Int],
                                  worn: [Int64: Int], carried: [Int64: Int]) throws {
        try clear("data_quality", days: days)
        let zones = try zones(days: days.map { Set($0.map(\.iso8601)) })
        let dayFilter = days == nil ? "" : " WHERE date IN (SELECT value FROM json_each(?))"
        let dayList: [SQLValue] = days.map { [.text("[" + $0.map { "\"\($0.iso8601)\"" }.sorted().joined(separator: ",") + "]")] } ?? []
        let insert = try database.prepare("INSERT INTO data_quality VALUES (?, ?, ?, ?, 0, 0, ?, ?)")
        for row in try database.rows("SELECT date FROM daily_analytics" + dayFilter + " ORDER BY date", dayList) {
            guard let date = row[0].string, let civil = CivilDate(iso: date) else { continue }
            let day = Int64(civil.daysSinceEpoch)
            let recorded = zones[date].map { $0.sorted() } ?? []
            // The offset of the zone recorded at local noon; of the first when the day held several (travel).
            let offset = recorded.first.flatMap(TimeZone.init(identifier:)).map { zone in
                Self.offsetText(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(day * 86_400 + 43_200))))
            }
            try insert.bind([.text(date), .integer(Int64(worn[day] ?? 0)), .integer(Int64(carried[day] ?? 0)),
                             .integer(Int64(sourcesOfDay[day] ?? 0)),
                             recorded.isEmpty ? .null : .text(recorded.joined(separator: ",")), offset.map { .text($0) } ?? .null])
            try insert.run()
        }
        // Every day: the export day moves (partial_day) and the rule is a setting (valid_day).
        try database.rows("""
            UPDATE data_quality SET
              partial_day = ifnull((SELECT partial_day FROM daily_analytics d WHERE d.date = data_quality.date), 0),
              valid_day = CASE WHEN watch_hours >= ? THEN 1 ELSE 0 END
            """, [.real(settings.validDayMinWatchHours)])
    }
}
