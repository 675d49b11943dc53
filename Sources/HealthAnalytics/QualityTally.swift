import HealthCore
import HealthStore
import SQLite

/// What the data-quality tables need from the samples themselves: every sample counted and
/// summed by type, source and local day (the inventory, the sources of a day, each source's
/// daily totals), and the local hours of each day holding a heart-rate sample (worn) or a
/// phone's step sample (carried).
///
/// A full build gathers it from the series the analytics read anyway (`add(type:_:)`, fed by
/// the builder's tap), which costs little per sample instead of reading the whole
/// `sample_data` table back (some 15 % of a year's full import; docs/PERFORMANCE.md). An
/// incremental run reads it from the store (`read`).
package struct QualityTally: Sendable {
    struct GroupKey: Hashable { var type: Int64; var source: Int64; var day: Int64 }
    typealias Group = (count: Int64, sum: Double)

    /// Type key → identifier: the store's type ids (`read`), or numbers given in order of
    /// first sight (`add`).
    private(set) var typeNames: [Int64: String] = [:]
    private var typeKeys: [String: Int64] = [:]
    private(set) var groups: [GroupKey: Group] = [:]
    /// Local day → one bit per local hour (0…23): a day's hours fit in an integer, one hash
    /// lookup per heart-rate or phone step sample.
    private(set) var wornHours: [Int64: UInt32] = [:]
    private(set) var carriedHours: [Int64: UInt32] = [:]
    private var calendar: LocalCalendar
    private let phones: Set<Int64>
    /// The type being added, and each source's open days (`OpenDays`), by slot.
    private var openType: Int64 = -1
    private var open: [OpenDays] = []
    /// Source id → its slot in `open`, and the last one asked for (a series is mostly one
    /// source's run after another's).
    private var slots: [Int64: Int] = [:]
    private var slotSources: [Int64] = []
    private var lastSlot: (source: Int64, slot: Int) = (-1, -1)
    /// False when a source's day came back after it was summed (only a clock set back by more
    /// than a day would do it): its sum is then not the store's to the last bit, and the
    /// builder reads the tally from the store instead.
    package private(set) var isExact = true

    /// A source's samples of its newest day and the day before, not yet summed: a series comes
    /// in start order, so its local days only go forward, but for the hour when a clock goes
    /// back over midnight (Newfoundland until 2011, Casey in 2010). Two days at most are held,
    /// not the series.
    struct OpenDays { var newest = Int64.min; var entries: [Entry] = [] }
    struct Entry { var day: Int64; var id: Int64; var value: Double }

    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"

    /// `phones`: the ids of the sources that are phones (`phoneSources`).
    package init(calendar: LocalCalendar, phones: Set<Int64>) {
        self.calendar = calendar; self.phones = phones
    }

    /// The sources whose step samples tell that the phone was carried.
    package static func phoneSources(in database: Database) throws -> Set<Int64> {
        try QualityStore(database: database).phoneSources()
    }

    // MARK: From the series

    /// Adds a batch of one type's series, in start order (the analytics' tap). Every sample of
    /// the store must pass exactly once, each type's batches one after the other, and `finish`
    /// be called after the last.
    package mutating func add(type identifier: String, _ rows: [SeriesReader.Row]) {
        let type = typeKey(identifier)
        if type != openType { closeType(); openType = type }
        let hours = identifier == Self.heartRate ? 1 : identifier == Self.steps ? 2 : 0
        // By index, field by field: a row copied whole retains and releases its four texts.
        for i in rows.indices {
            let day = Int64(rows[i].localDay), source = rows[i].sourceID
            let slot = slot(source)
            if day > open[slot].newest {   // a new day: the source's days before the day before are done
                close(slot, daysBefore: day - 1)
                open[slot].newest = day
            }
            open[slot].entries.append(Entry(day: day, id: rows[i].id, value: rows[i].value ?? 0))
            if hours == 1 || (hours == 2 && phones.contains(source)) {
                addHour(start: rows[i].start, day: day, worn: hours == 1)
            }
        }
    }

    /// Closes the last type: call once after the last batch.
    package mutating func finish() {
        closeType()
        openType = -1
    }

    private mutating func typeKey(_ identifier: String) -> Int64 {
        if let key = typeKeys[identifier] { return key }
        let key = Int64(typeKeys.count)
        typeKeys[identifier] = key
        typeNames[key] = identifier
        return key
    }

    /// Sums what is open of the type being added.
    private mutating func closeType() {
        for slot in open.indices {
            close(slot, daysBefore: .max)
            open[slot].newest = .min
        }
    }

    /// Sums a source's open days before `cutoff`, each in row-id order as the store's read adds
    /// them (`read`): the same doubles, to the last bit. They come in start order: in id
    /// order, mostly, and sorted when not.
    private mutating func close(_ slot: Int, daysBefore cutoff: Int64) {
        guard !open[slot].entries.isEmpty else { return }
        let source = slotSources[slot]
        var entries = open[slot].entries
        open[slot].entries = []   // `entries` the only reference: sorted in place, its storage kept
        if !Self.inOrder(entries) { entries.sort { ($0.day, $0.id) < ($1.day, $1.id) } }
        var i = 0
        while i < entries.count && entries[i].day < cutoff {
            let day = entries[i].day
            var group: Group = (0, 0)
            while i < entries.count && entries[i].day == day {
                group.count += 1; group.sum += entries[i].value
                i += 1
            }
            let key = GroupKey(type: openType, source: source, day: day)
            if let earlier = groups[key] {   // summed already: counted, but not in id order
                groups[key] = (earlier.count + group.count, earlier.sum + group.sum)
                isExact = false
            } else {
                groups[key] = group
            }
        }
        entries.removeFirst(i)
        open[slot].entries = entries
    }

    private static func inOrder(_ entries: [Entry]) -> Bool {
        for i in entries.indices.dropFirst() where (entries[i].day, entries[i].id) < (entries[i - 1].day, entries[i - 1].id) {
            return false
        }
        return true
    }

    private mutating func slot(_ source: Int64) -> Int {
        if lastSlot.source == source { return lastSlot.slot }
        let slot: Int
        if let known = slots[source] {
            slot = known
        } else {
            slot = open.count
            open.append(OpenDays())
            slotSources.append(source)
            slots[source] = slot
        }
        lastSlot = (source, slot)
        return slot
    }

    /// Marks the local hour of `start` on its day, if the sample's local day is that day.
    private mutating func addHour(start: Int64, day: Int64, worn: Bool) {
        // Through the calendar's own date and clock, not instant + offset: a traveller's calendar
        // (issue 48) holds a date across a westward switch, which an offset alone cannot say.
        let instant = Timestamp(microseconds: start)
        guard Int64(calendar.localDate(of: instant).daysSinceEpoch) == day else { return }
        let bit: UInt32 = 1 << UInt32(min(calendar.secondOfDay(instant) / 3600, 23))
        if worn { wornHours[day, default: 0] |= bit } else { carriedHours[day, default: 0] |= bit }
    }

    // MARK: From the store

    /// Reads the tally from a loaded store: the groups of every day (the inventory spans every
    /// day), the hours of `days` only (nil: every day).
    static func read(from database: Database, calendar: LocalCalendar, days: Set<Int64>?) throws -> QualityTally {
        let store = QualityStore(database: database)
        var tally = QualityTally(calendar: calendar, phones: try store.phoneSources())
        tally.typeNames = try store.typeIdentifiers()
        try store.forEachSample { type, source, day, value in
            func add(_ group: inout Group) { group.count += 1; group.sum += value }
            add(&tally.groups[GroupKey(type: type, source: source, day: day), default: (0, 0)])
        }
        for (type, worn) in [(heartRate, true), (steps, false)] {
            try store.forEachStart(ofType: type, around: days) { start, source, day in
                guard days?.contains(day) ?? true, worn || tally.phones.contains(source) else { return }
                tally.addHour(start: start, day: day, worn: worn)
            }
        }
        return tally
    }

    // MARK: What the builder takes

    /// The groups in key order: a source's versions are added up in the same order every run.
    /// The sums are exact for counts and rounded later for the rest (`QualityBuilder.rounded`).
    var sortedGroups: [(key: GroupKey, group: Group)] {
        groups.map { ($0.key, $0.value) }.sorted { ($0.key.type, $0.key.source, $0.key.day) < ($1.key.type, $1.key.source, $1.key.day) }
    }

    /// Local day → the number of hours holding a heart-rate sample.
    var worn: [Int64: Int] { wornHours.mapValues(\.nonzeroBitCount) }
    /// Local day → the number of hours holding a phone's step sample.
    var carried: [Int64: Int] { carriedHours.mapValues(\.nonzeroBitCount) }
}
