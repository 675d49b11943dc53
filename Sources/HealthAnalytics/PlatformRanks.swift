import HealthAggregate
import HealthCore
@_spi(Analytics) import HealthDedupe
import HealthStore

/// A store of one person's two phones (issue 60): each source's platform, which platform counts
/// first in each data category (`PlatformPriority`), and the lists an export gave, which rank
/// only that export's own sources. nil for a store of one platform: its ranks are what they were.
struct PlatformRanks: Sendable {
    /// By source id.
    let platformOf: [InputPlatform?]
    /// The platform whose records begin later (`PlatformPriority.Choice.newerPhone`).
    let newer: InputPlatform
    let priority: PlatformPriority

    init?(sources: [SeriesReader.Source], starts: [InputPlatform: Int64], priority: PlatformPriority) {
        guard starts.count > 1, let newer = starts.max(by: { ($0.value, $0.key.rawValue) < ($1.value, $1.key.rawValue) })?.key
        else { return nil }
        var platformOf = [InputPlatform?](repeating: nil, count: Int(sources.map(\.id).max() ?? 0) + 1)
        for s in sources where s.id >= 0 { platformOf[Int(s.id)] = s.platform ?? .appleHealth }
        self.platformOf = platformOf; self.newer = newer; self.priority = priority
    }

    func platform(_ sourceID: Int64) -> InputPlatform? {
        sourceID >= 0 && sourceID < platformOf.count ? platformOf[Int(sourceID)] : nil
    }

    /// Tiers by source id for a type: 0 for the platform that counts first, 2^52 for the other.
    func tiers(for identifier: String) -> [Int] {
        let category = HealthDataCategory.of(identifier)
        return platformOf.map { $0.map { priority.tier(of: $0, in: category, newer: newer) } ?? 0 }
    }

    /// The line the store keeps of the order in force (`platform_order`): which platform counts
    /// first in each category. A later run that finds another order recomputes every day.
    var orderLine: String {
        HealthDataCategory.allCases.map { "\($0.rawValue):\(priority.first(in: $0, newer: newer).rawValue)" }
            .joined(separator: ",")
    }

    /// Where each platform's samples begin in a store, read once (empty: one platform), and the
    /// order line it gives (nil: one platform).
    static func read(_ reader: SeriesReader, priority: PlatformPriority) throws -> (starts: [InputPlatform: Int64], order: String?) {
        let sources = try reader.sources()
        let starts = try reader.platformStarts(sources)
        return (starts, PlatformRanks(sources: sources, starts: starts, priority: priority)?.orderLine)
    }
}

/// Each platform's part of a day's merged total, for the reconciled metrics of a store of two
/// phones (`reconciliation_platforms`): the type's samples merged again with their platform as
/// the tag (the same ranks, so the same pieces), each piece's amount split into local days.
struct PlatformShareCounter {
    let metric: String
    private var merger = PriorityMerger<InputPlatform>()
    private var splitters: [InputPlatform: DaySplitter<InputPlatform>] = [:]
    private var counted: [InputPlatform: [CivilDate: Double]] = [:]
    private var all: [InputPlatform: [CivilDate: (sum: Double, samples: Int)]] = [:]
    private let calendar: LocalCalendar

    init(metric: String, calendar: LocalCalendar) { self.metric = metric; self.calendar = calendar }

    mutating func add(_ rows: [SeriesReader.Row], rank: (SeriesReader.Row) -> Int?, platform: (Int64) -> InputPlatform?) throws {
        var samples: [MergeSample<InputPlatform>] = []
        for r in rows {
            guard let value = r.value, let p = platform(r.sourceID) else { continue }
            let day = CivilDate(daysSinceEpoch: Int(r.localDay))
            let seen = all[p, default: [:]][day] ?? (0, 0)
            all[p, default: [:]][day] = (seen.sum + value, seen.samples + 1)
            if let rank = rank(r) { samples.append(MergeSample(start: r.start, end: r.end, value: value, rank: rank, tag: p)) }
        }
        var pieces: [MergedPiece<InputPlatform>] = []
        try merger.handle(samples) { pieces += $0 }
        try split(pieces)
    }

    private mutating func split(_ pieces: consuming [MergedPiece<InputPlatform>]) throws {
        for piece in pieces {
            var splitter = splitters[piece.tag] ?? DaySplitter(calendar: calendar)
            let p = piece.tag
            try splitter.handle([piece]) { amounts in
                for a in amounts { counted[p, default: [:]][a.date, default: 0] += a.amount }
            }
            splitters[piece.tag] = splitter
        }
    }

    /// The shares of `window`'s days (nil: every day).
    mutating func finish(keeping window: ClosedRange<CivilDate>?) throws -> [AnalyticsWriter.PlatformShare] {
        var pieces: [MergedPiece<InputPlatform>] = []
        try merger.finish { pieces += $0 }
        try split(pieces)
        for (p, var splitter) in splitters {
            try splitter.finish { amounts in for a in amounts { counted[p, default: [:]][a.date, default: 0] += a.amount } }
        }
        var shares: [AnalyticsWriter.PlatformShare] = []
        let days = Set(all.values.flatMap(\.keys)).union(counted.values.flatMap(\.keys))
        for day in days.sorted() where window?.contains(day) ?? true {
            for p in InputPlatform.allCases {
                let mine = all[p]?[day]
                guard mine != nil || counted[p]?[day] != nil else { continue }
                shares.append(.init(date: day, metric: metric, platform: p.rawValue,
                                    counted: QualityBuilder.rounded(counted[p]?[day] ?? 0),
                                    allSourcesSum: QualityBuilder.rounded(mine?.sum ?? 0), samples: mine?.samples ?? 0))
            }
        }
        return shares
    }
}
