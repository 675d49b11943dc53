import Foundation
import HealthAggregate
import HealthCore
@_spi(Analytics) import HealthDedupe   // PriorityMerger, specialized into `build`
import HealthStore

/// Wires the second half of the job: each stored series, read back in time order, goes
/// through the priority merge (dedupe) and the day, sleep or heart-rate stage (aggregate)
/// into the analytics ledger (weeks, months and years are summed from the stored days by
/// the pipeline's `AnalyticsUpdate`).
package struct AnalyticsBuilder: Sendable {
    package var calendar: LocalCalendar
    package let priority: SourcePriority
    package let heartbeatMaxGapMinutes: Double
    /// Gets every batch of rows read, with its type's identifier (the full build's
    /// `samples` output rides along this way).
    package var tap: (@Sendable (String, [SeriesReader.Row]) throws -> Void)?
    /// Where each platform's samples begin (`AnalyticsSettings.platformStarts`); nil: read here.
    package var platformStarts: [InputPlatform: Int64]?

    package init(calendar: LocalCalendar, priority: SourcePriority, heartbeatMaxGapMinutes: Double,
                tap: (@Sendable (String, [SeriesReader.Row]) throws -> Void)? = nil) {
        self.calendar = calendar; self.priority = priority
        self.heartbeatMaxGapMinutes = heartbeatMaxGapMinutes; self.tap = tap
    }

    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    static let runningActivity = "HKWorkoutActivityTypeRunning"
    /// How far before a window samples are read: long samples (iOS 8 daily aggregates, a
    /// night of sleep) and the heart-rate gap reach back less than this into the days being computed.
    static let lookBack: Int64 = 2 * 86_400_000_000
    /// How far after it: a sleep session is dated by its end, so a session still running at the
    /// window's end must be read whole, or its part would pass for a night ending in the window.
    static let lookAhead: Int64 = 86_400_000_000

    /// Analytics of every day (`days` nil) or only of the given days (an incremental run), read
    /// from the store: each run of consecutive days is computed from the samples around it,
    /// and only those days are kept.
    package func build(days: Set<CivilDate>? = nil, from reader: SeriesReader) throws -> AnalyticsWriter.Content {
        let store = try StoreContext(reader: reader, sources: reader.sources(), priority: priority, types: reader.types(),
                                     platformStarts: platformStarts)
        guard let days else { return try build(window: nil, store, series: reader) }
        var content = AnalyticsWriter.Content()
        for run in Self.consecutiveRuns(days) {
            // Only the run's own days: what it reads before and after reaches into other runs'
            // days (an isolated partial day two days before the next run), which they compute.
            let part = try build(window: run, store, series: reader)
            content.days += part.days.filter { run.contains($0.date) }
            content.nights += part.nights.filter { run.contains($0.date) }
            content.typeDays += part.typeDays.filter { run.contains($0.date) }
            content.typeHours += part.typeHours.filter { run.contains($0.date) }
            content.platformShares += part.platformShares
        }
        return content
    }

    /// Analytics of every day, from series read elsewhere (the sorted runs of a full load),
    /// with what the store knows besides.
    package func buildAll(_ store: StoreContext, series: some SeriesSource) throws -> AnalyticsWriter.Content {
        try build(window: nil, store, series: series)
    }

    static func consecutiveRuns(_ days: Set<CivilDate>) -> [ClosedRange<CivilDate>] {
        var runs: [ClosedRange<CivilDate>] = []
        for d in days.sorted() {
            if let last = runs.last, last.upperBound.adding(days: 1) == d {
                runs[runs.count - 1] = last.lowerBound...d
            } else {
                runs.append(d...d)
            }
        }
        return runs
    }

    /// What every window needs from the store besides the series, read once per build.
    package struct StoreContext: Sendable {
        var ranks: RankTable
        /// The listed types' places by source id (`SourcePriority.listed`).
        var listed: [String: [Int64: Int]]
        var names: [Int64: String]
        var running: [Range<Int64>]
        /// The types with samples, by id.
        var types: [(id: Int64, identifier: String)]
        /// A store of one person's two phones: the platforms' order (nil: one platform).
        var platforms: PlatformRanks?

        /// `sources`: the store's (`SeriesReader.sources`), which the caller may need too.
        package init(reader: SeriesReader, sources: [SeriesReader.Source], priority: SourcePriority,
             types: [(id: Int64, identifier: String)], platformStarts: [InputPlatform: Int64]? = nil) throws {
            ranks = RankTable(sources, priority: priority)
            names = Dictionary(sources.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            let platforms = PlatformRanks(sources: sources, starts: try platformStarts ?? reader.platformStarts(sources),
                                          priority: priority.platforms)
            // The lists are a Health Connect export's: with two platforms they rank its own apps only.
            let listing = platforms == nil ? sources : sources.filter { $0.platform == .healthConnect }
            listed = priority.listed.mapValues { list in
                var places: [Int64: Int] = [:]
                for source in listing { if let place = list.firstIndex(of: source.name) { places[source.id] = place } }
                return places
            }
            self.platforms = platforms
            running = RunningIntervals.union(try reader.workoutSpans(activityType: AnalyticsBuilder.runningActivity))
            self.types = types
        }

        /// How a type's records are ranked for the merge.
        func rule(for identifier: String) -> RankRule {
            guard let platforms else { return listed[identifier].map(RankRule.listed) ?? .patterns(ranks) }
            return .tiered(tiers: platforms.tiers(for: identifier), listed: listed[identifier],
                           listedPlatform: platforms.platformOf.map { $0 == .healthConnect }, table: ranks)
        }
    }

    private func build(window: ClosedRange<CivilDate>?, _ store: StoreContext,
                       series source: some SeriesSource) throws -> AnalyticsWriter.Content {
        var cal = calendar
        let span = window.map { w in
            (cal.startOfDay(w.lowerBound).microseconds - Self.lookBack)..<(cal.startOfDay(w.upperBound.adding(days: 1)).microseconds + Self.lookAhead)
        }
        let (names, running) = (store.names, store.running)
        var book = AnalyticsBook()
        // Steps counted by an export's own list are that platform's total: Health Connect truncates it.
        if let steps = DailyMetric.steps.sourceType, priority.listed[steps] != nil { book.truncating = [.steps] }
        var nights: [SleepNight] = []
        var platformShares: [AnalyticsWriter.PlatformShare] = []
        for (typeID, identifier) in store.types {
            // Every series is read once: its daily statistics (and the tap) ride along with
            // its stage, and go into the book first (the stage's results complete or replace them).
            var statistics = DailyStatistics(type: identifier, keeping: window)
            func series(_ body: ([SeriesReader.Row]) throws -> Void) throws {
                try source.forEachBatch(typeID: typeID, starting: span, batchSize: 8192) { rows in
                    try tap?(identifier, rows)
                    for r in rows {
                        statistics.add(localDay: r.localDay, start: r.start, end: r.end, value: r.value, unit: r.unit,
                                       categoryValue: r.categoryValue)
                    }
                    try body(rows)
                }
            }
            let type = TypeRegistry.type(for: identifier)
            let rank = store.rule(for: identifier)
            if identifier == Self.sleepType {
                nights = try sleepNights(series, rank: rank, names: names)
                book.addStatistics(statistics.finish())
                book.addNights(nights)
                continue
            }
            switch type.aggregation {
            case .cumulative:
                var stages = PriorityMerger<Void>().then(DaySplitter<Void>(calendar: calendar, running: running))
                var amounts: [DayAmount] = []
                var shares = store.platforms.flatMap { platforms in
                    Self.reconciledMetric[identifier].map { (platforms, PlatformShareCounter(metric: $0, calendar: calendar)) }
                }
                try series { rows in
                    if let platforms = shares?.0 { try shares!.1.add(rows, rank: rank.rank, platform: platforms.platform) }
                    let samples = rows.compactMap { r -> MergeSample<Void>? in
                        guard let value = r.value, let rank = rank.rank(r) else { return nil }
                        return MergeSample(start: r.start, end: r.end, value: value, rank: rank, tag: ())
                    }
                    try stages.handle(samples) { Self.appendSummingRuns($0, to: &amounts) }
                }
                try stages.finish { Self.appendSummingRuns($0, to: &amounts) }
                if var counter = shares?.1 { platformShares += try counter.finish(keeping: window) }
                book.addStatistics(statistics.finish())
                book.addCumulative(type: identifier, unit: type.canonicalUnit, amounts: amounts)
            case .timeWeighted:
                var stage = HeartRateDays(calendar: calendar, maxGapMinutes: heartbeatMaxGapMinutes)
                try series { rows in
                    try stage.handle(rows.compactMap { r in r.value.map { HeartRateReading(start: r.start, end: r.end, bpm: $0) } }) { _ in }
                }
                book.addStatistics(statistics.finish())
                try stage.finish { book.addHeartRate(type: identifier, $0) }
            case .leq:
                var stage = SoundLevelDays(type: identifier, calendar: calendar)
                try series { rows in
                    try stage.handle(rows.compactMap { r in r.value.map { SoundLevelReading(start: r.start, end: r.end, decibels: $0) } }) { _ in }
                }
                book.addStatistics(statistics.finish())
                try stage.finish { book.replaceAverages($0) }
            case .discrete, .category:
                try series { _ in }   // the daily statistics are the answer
                book.addStatistics(statistics.finish())
            }
        }
        var content = AnalyticsWriter.Content()
        content.days = book.dailyRows
        content.typeDays = book.takeTypeRows()
        content.typeHours = book.takeHourRows()
        content.nights = nights
        content.platformShares = platformShares
        return content
    }

    /// Appends merged amounts, adding each to the last one while they fall in the same (day,
    /// hour): one entry per hour of the series instead of one per sample (280 k amounts of a
    /// type at 4 years, which the book sums by hour anyway; issue 35). The sums are made in
    /// the order the book made them (left to right along a run), so they are the same doubles.
    static func appendSummingRuns(_ new: [DayAmount], to amounts: inout [DayAmount]) {
        for a in new {
            if let last = amounts.indices.last, amounts[last].date == a.date, amounts[last].hour == a.hour {
                amounts[last].amount += a.amount
                amounts[last].inRunning += a.inRunning
            } else {
                amounts.append(a)
            }
        }
    }

    /// Ranks of every stored source, as typed in and as recorded.
    struct RankTable: Sendable {
        /// By source id: ids count up from 1, and an array index is cheaper than hashing
        /// for every sample read.
        var ranks: [(recorded: Int, typedIn: Int)] = []

        init(_ sources: [SeriesReader.Source], priority: SourcePriority) {
            func candidate(_ s: SeriesReader.Source, _ typedIn: Bool) -> SourcePriority.Candidate {
                .init(name: s.name, deviceModel: s.deviceModel, userEntered: typedIn)
            }
            let ranked = priority.ranks(of: sources.flatMap { [candidate($0, false), candidate($0, true)] })
            ranks = Array(repeating: (Int.max, Int.max), count: Int(sources.map(\.id).max() ?? 0) + 1)
            for s in sources where s.id >= 0 {
                ranks[Int(s.id)] = (ranked[candidate(s, false)] ?? Int.max, ranked[candidate(s, true)] ?? Int.max)
            }
        }

        func rank(_ row: SeriesReader.Row) -> Int {
            guard row.sourceID >= 0 && row.sourceID < ranks.count else { return Int.max }
            let r = ranks[Int(row.sourceID)]
            return row.userEntered ? r.typedIn : r.recorded
        }
    }

    /// How a type's records are ranked for the merge: by the patterns (every source counts), or
    /// by the list an export gave for the type (its source's place, then the later
    /// modification; a source not listed does not count: nil).
    enum RankRule {
        case patterns(RankTable)
        case listed([Int64: Int])
        /// A store of one person's two phones (`PlatformRanks`): the platform's tier (by source
        /// id) above the source's rank; a listed type's list ranks its own platform's sources
        /// (`listedPlatform`, by source id), the patterns the other's.
        case tiered(tiers: [Int], listed: [Int64: Int]?, listedPlatform: [Bool], table: RankTable)

        func rank(_ r: SeriesReader.Row) -> Int? {
            switch self {
            case .patterns(let table): return table.rank(r)
            case .listed(let places): return SourcePriority.listedRank(place: places[r.sourceID], modifiedMicroseconds: r.created)
            case .tiered(let tiers, let listed, let listedPlatform, let table):
                guard r.sourceID >= 0 && r.sourceID < tiers.count else { return nil }
                let id = Int(r.sourceID)
                let rank = listed != nil && listedPlatform[id]
                    ? SourcePriority.listedRank(place: listed![r.sourceID], modifiedMicroseconds: r.created) : table.rank(r)
                return rank.map { tiers[id] | $0 }
            }
        }
    }

    /// The reconciled metrics' names by their type (`reconciliation_platforms`).
    static let reconciledMetric = Dictionary(QualityStore.metrics.map { ($0.type, $0.name) }, uniquingKeysWith: { a, _ in a })

    /// In-bed and asleep/awake samples are merged as two separate tracks (docs/FORMAT.md), then
    /// both tracks' pieces go to the nights.
    private func sleepNights(_ series: (([SeriesReader.Row]) throws -> Void) throws -> Void, rank: RankRule,
                             names: [Int64: String]) throws -> [SleepNight] {
        var inBed = PriorityMerger<SleepTag>(), asleep = PriorityMerger<SleepTag>()
        var nights = SleepNights(calendar: calendar)
        let collect: ([MergedPiece<SleepTag>]) throws -> Void = { try nights.handle($0) { _ in } }
        try series { rows in
            var bedSamples: [MergeSample<SleepTag>] = [], sleepSamples: [MergeSample<SleepTag>] = []
            for r in rows {
                guard let stage = r.categoryValue.flatMap(SleepStage.init(categoryValue:)), let rank = rank.rank(r) else { continue }
                let tag = SleepTag(stage: stage, sampleStart: r.start, source: names[r.sourceID] ?? "")
                let sample = MergeSample(start: r.start, end: r.end, value: Double(r.end - r.start), rank: rank, tag: tag)
                if stage.isInBedTrack { bedSamples.append(sample) } else { sleepSamples.append(sample) }
            }
            try inBed.handle(bedSamples, emit: collect)
            try asleep.handle(sleepSamples, emit: collect)
        }
        try inBed.finish(emit: collect)
        try asleep.finish(emit: collect)
        var result: [SleepNight] = []
        try nights.finish { result = $0 }
        return result
    }
}
