import Foundation

/// One piece of evidence: at `instant`, the device was in zone `zone` (an IANA name), as the
/// `HKTimeZone` metadata of a sleep record or a workout says.
public struct ZoneEvidence: Sendable, Hashable {
    public var instant: Timestamp
    public var zone: String
    public init(instant: Timestamp, zone: String) { self.instant = instant; self.zone = zone }
}

/// Which IANA zone a person was in, when: built from `HKTimeZone` evidence, so that a
/// traveller's days are local to where they were (`LocalCalendar(timeline:)`).
///
/// The rule (`build`; `reach` is 48 hours unless told):
/// 1. Evidence comes in any order, duplicates allowed; evidence whose zone name is unknown
///    (`TimeZone(identifier:)` is nil) is ignored. It is sorted by instant (ties by zone name)
///    and consecutive evidence of the same zone is grouped into runs [first, last]; evidence of
///    a zone away from home more than `stay` (14 days) after the last of its zone starts a new
///    run (two trips to Tokyo a year apart, with no evidence between them, are two trips; a
///    fortnight in Tokyo with a workout a week is one).
/// 2. Between two consecutive runs of different zones A (last evidence at a) and B (first
///    evidence at b): if b − a ≤ 2·reach, or home is A or B, the switch from A to B is at the
///    midpoint (a + b) / 2 (a record in the gap is read in the zone whose evidence is nearest)
///    and [a, b] is an uncertain window. Otherwise (a long gap between two trips away from
///    home): A until a + reach, home until b − reach, then B; the windows are [a, a + reach]
///    and [b − reach, b].
/// 3. Before the first run, if its zone is not home: home until (first − reach), then that
///    zone; window [first − reach, first]. After the last run, if its zone is not home: that
///    zone until (last + reach), then home; window [last, last + reach]. So the timeline always
///    begins and ends at home. No evidence: one stretch, home, no windows (a one-zone calendar).
///    Evidence all in the home zone (a person who never travels): the same.
/// 4. Every switch instant is rounded down to the whole second; adjacent stretches of the same
///    zone are merged (a stretch of no length is dropped), and so are windows of no length.
///
/// A switch at an instant belongs to the zone switched to (`zone(at: switch)` is the new zone).
/// `reach` is clamped to 0 … 100 years.
public struct ZoneTimeline: Sendable, Equatable {
    /// From `start` (nil: from the beginning of time) until the next stretch's start, `zone`.
    public struct Stretch: Sendable, Equatable {
        public var start: Timestamp?
        public var zone: String
        public init(start: Timestamp?, zone: String) { self.start = start; self.zone = zone }
    }

    /// A span where the switch between two zones is a guess (no evidence inside), both ends
    /// included: the local days it touches are travel days.
    public struct Window: Sendable, Equatable {
        public var from: Timestamp
        public var to: Timestamp
        public init(from: Timestamp, to: Timestamp) { self.from = from; self.to = to }
    }

    /// Sorted by start; the first has start nil; consecutive stretches have different zones.
    public private(set) var stretches: [Stretch]
    /// Sorted, each of positive length.
    public private(set) var windows: [Window]
    /// The zone where there is no evidence (the export's own zone). Read only: the stretches
    /// were built from it.
    public private(set) var home: String

    /// A timeline as kept (the store reads back what `build` made).
    public init(stretches: [Stretch], windows: [Window], home: String) {
        self.stretches = stretches
        self.windows = windows
        self.home = home
    }

    /// Builds the timeline: `home` is the zone where there is no evidence (the export's own
    /// zone); `reach` (seconds) is how long evidence holds on its own, `stay` (seconds) the
    /// longest silence within one stay away. The rule: see the type.
    public static func build(evidence: [ZoneEvidence], home: String, reach: Int64 = 48 * 3600,
                             stay: Int64 = 14 * 86_400) -> ZoneTimeline {
        let reach = min(max(reach, 0), 100 * 366 * 86_400) * 1_000_000   // µs
        let stay = min(max(stay, 0), 100 * 366 * 86_400) * 1_000_000
        var known: [String: Bool] = [:]
        let usable = evidence.filter { e in
            if let k = known[e.zone] { return k }
            let k = TimeZone(identifier: e.zone) != nil
            known[e.zone] = k
            return k
        }.sorted { ($0.instant, $0.zone) < ($1.instant, $1.zone) }

        var runs: [(zone: String, first: Int64, last: Int64)] = []
        for e in usable {
            // A zone away from home seen again after more than `stay` without evidence is a new
            // run: two trips to Tokyo a year apart are not a year in Tokyo.
            if let run = runs.last, run.zone == e.zone, run.zone == home || e.instant.microseconds - run.last <= stay {
                runs[runs.count - 1].last = e.instant.microseconds
            } else {
                runs.append((e.zone, e.instant.microseconds, e.instant.microseconds))
            }
        }

        var timeline = ZoneTimeline(stretches: [Stretch(start: nil, zone: home)], windows: [], home: home)
        guard let first = runs.first, let last = runs.last else { return timeline }
        if first.zone != home {
            timeline.switchTo(first.zone, at: first.first - reach)
            timeline.window(first.first - reach, first.first)
        }
        for (a, b) in zip(runs, runs.dropFirst()) {
            if b.first - a.last <= 2 * reach || a.zone == home || b.zone == home {
                timeline.switchTo(b.zone, at: a.last + (b.first - a.last) / 2)
                timeline.window(a.last, b.first)
            } else {
                timeline.switchTo(home, at: a.last + reach)
                timeline.switchTo(b.zone, at: b.first - reach)
                timeline.window(a.last, a.last + reach)
                timeline.window(b.first - reach, b.first)
            }
        }
        if last.zone != home {
            timeline.switchTo(home, at: last.last + reach)
            timeline.window(last.last, last.last + reach)
        }
        return timeline
    }

    /// Appends a switch (never earlier than the last one): merged into the last stretch when
    /// the zone is the same, replacing it when it would have no length.
    private mutating func switchTo(_ zone: String, at microseconds: Int64) {
        let start = Timestamp(seconds: microseconds.floorDivided(by: 1_000_000).quotient)
        while let lastStart = stretches.last?.start, lastStart >= start { stretches.removeLast() }
        if stretches.last?.zone != zone { stretches.append(Stretch(start: start, zone: zone)) }
    }

    private mutating func window(_ from: Int64, _ to: Int64) {
        if from < to { windows.append(Window(from: Timestamp(microseconds: from), to: Timestamp(microseconds: to))) }
    }

    /// The distinct zones, in order of first appearance (home first).
    public var zones: [String] {
        var seen: Set<String> = []
        return stretches.map(\.zone).filter { seen.insert($0).inserted }
    }

    /// One stretch: a calendar of this timeline is the one-zone calendar of `home`.
    public var isSingleZone: Bool { stretches.count == 1 }

    /// The zone in force at `instant`.
    public func zone(at instant: Timestamp) -> String { stretches[stretchIndex(at: instant)].zone }

    /// The index of the stretch holding `instant` (binary search: the last start ≤ instant).
    func stretchIndex(at instant: Timestamp) -> Int {
        var low = 0, high = stretches.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if let start = stretches[mid].start, start <= instant { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
