import Foundation
import HealthCore
import HealthStore
import SQLite

/// Computes the data-quality tables (docs/data-quality.md) from a loaded store, after the
/// analytics: `reconciliation` and `reconciliation_sources`, `data_quality` and
/// `source_inventory`. Everything comes from the stored samples, never from the ingest loop:
/// read through `QualityStore` (the tables' SQL), and what needs each sample from a
/// `QualityTally` (gathered from the series the analytics read, or read from the store).
///
/// Only `days` are rewritten (nil: every day); the columns that depend on every day or on the
/// settings (`partial_day`, `valid_day`, the inventory, the priorities) are recomputed whole,
/// so an incremental run leaves the same rows as a full one.
package struct QualityBuilder {
    package struct Settings: Sendable, Equatable {
        /// `validDayMinWatchHours`: a day is valid with at least this many worn hours.
        package var validDayMinWatchHours: Double
        package init(validDayMinWatchHours: Double = QualityBuilder.defaultValidDayMinWatchHours) {
            self.validDayMinWatchHours = validDayMinWatchHours
        }
    }

    package static let defaultValidDayMinWatchHours = 10.0

    let store: QualityStore
    var calendar: LocalCalendar
    let settings: Settings
    /// The priority ranks (0 = best) the analytics give these sources as recorded.
    let ranks: ([Source]) -> [Source: Int]
    private var rankOf: [Source: Int] = [:]

    package init(database: Database, calendar: LocalCalendar, settings: Settings, ranks: @escaping ([Source]) -> [Source: Int]) {
        store = QualityStore(database: database); self.calendar = calendar; self.settings = settings; self.ranks = ranks
    }

    /// A source as the outputs name it (name and device model).
    package typealias Source = QualityStore.Source
    static let metrics = QualityStore.metrics

    /// For each metric the Watch's rings hold, the tolerance below which a difference between
    /// our total and the rings is no disagreement: `max(relative × rings, absolute)`.
    static let ringsTolerance: [String: (relative: Double, absolute: Double)] = [
        "active_energy_kcal": (0.05, 10),
        "exercise_minutes": (0.05, 2),
    ]

    /// Rewrites the quality tables of `days` (nil: all), inside the caller's transaction. An
    /// upgraded store (version 5) has none yet: then every day is computed.
    /// `tally`: gathered from every sample on the analytics' way (a full build); read from the
    /// store if nil or not exact.
    package mutating func update(days requested: Set<CivilDate>?, tally gathered: QualityTally? = nil) throws {
        let days = try store.isEmpty() ? nil : requested
        let sources = try store.sources()
        rankOf = ranks(Array(Set(sources.values)))
        let wanted = days.map { Set($0.map { Int64($0.daysSinceEpoch) }) }
        let tally = try gathered.flatMap { $0.isExact ? $0 : nil }
            ?? QualityTally.read(from: store.database, calendar: calendar, days: wanted)
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

    private func priority(_ key: Source) -> Int64? {
        rankOf[key].map(Int64.init)
    }

    private func writeInventory(_ inventory: [Source: [String: (records: Int64, first: Int64, last: Int64)]]) throws {
        var rows: [QualityStore.InventoryRow] = []
        for source in inventory.keys.sorted() {
            for (type, seen) in inventory[source]!.sorted(by: { $0.key < $1.key }) {
                rows.append(.init(source: source, type: type, records: seen.records, firstSeen: Self.iso(seen.first),
                                  lastSeen: Self.iso(seen.last), priority: priority(source)))
            }
        }
        try store.replaceInventory(rows)
    }

    /// Sums kept to a micro-unit: the grouped read adds a day's samples in row order, which
    /// differs between a full and an incremental store; the last bits of a sum must not.
    static func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }

    static func iso(_ day: Int64) -> String { CivilDate(daysSinceEpoch: Int(day)).iso8601 }

    private func writeReconciliation(days: Set<CivilDate>?,
                                     totals: [Int64: [String: [Source: (total: Double, samples: Int64)]]]) throws {
        let rows = try store.replaceReconciliation(days: days)
        // Merged totals and rings of the days in question.
        let merged = try store.mergedTotals(days: days)
        let rings = try store.ringTotals(days: days)
        var dates = Set(merged.keys)
        for day in totals.keys { dates.insert(Self.iso(day)) }
        let dropped = try store.droppedCopies()
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
                    try rows.addSource(date: date, metric: metric.name, source: source, total: total, samples: t.samples,
                                       priority: priority(source))
                }
                all = Self.rounded(all)
                let ring = rings[date]?[metric.name]
                let difference = ours.flatMap { o in ring.map { Self.rounded(o - $0) } }
                var disagree: Bool?
                if let difference, let ring, let tolerance = Self.ringsTolerance[metric.name] {
                    disagree = abs(difference) > max(tolerance.relative * ring, tolerance.absolute)
                }
                try rows.add(date: date, metric: metric.name, merged: ours, allSources: all,
                             overlapRemoved: ours.map { Self.rounded(all - $0) }, sourceCount: Int64(bySource.count),
                             rings: ring, ringsDifference: difference, ringsDisagree: disagree,
                             duplicatesDropped: dropped.value(day: Int64(civil.daysSinceEpoch), metric: metric.name))
            }
        }
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
        try store.clearDays(days)
        let zones = try store.recordedZones(days: days.map { Set($0.map(\.iso8601)) })
        var rows: [QualityStore.DayRow] = []
        for date in try store.analyticsDates(days: days) {
            guard let civil = CivilDate(iso: date) else { continue }
            let day = Int64(civil.daysSinceEpoch)
            let recorded = zones[date].map { $0.sorted() } ?? []
            // The offset of the zone recorded at local noon; of the first when the day held several (travel).
            let offset = recorded.first.flatMap(TimeZone.init(identifier:)).map { zone in
                Self.offsetText(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(day * 86_400 + 43_200))))
            }
            rows.append(.init(date: date, watchHours: Int64(worn[day] ?? 0), phoneHours: Int64(carried[day] ?? 0),
                              sourceCount: Int64(sourcesOfDay[day] ?? 0),
                              timeZones: recorded.isEmpty ? nil : recorded.joined(separator: ","), utcOffset: offset))
        }
        try store.insert(days: rows)
        try store.updateDayFlags(minWatchHours: settings.validDayMinWatchHours)
    }
}
