import HealthCore

/// Count, mean, minimum and maximum of one type's samples per local day of their start
/// (category types, which carry no value: count and minutes), as `DailyTypeMetric`s.
///
/// Two category types are not a sum of minutes (issue 44): an idle `AppleStandHour` is an hour
/// not stood (0 minutes, not 60), and `SleepAnalysis` records overlap by design (in bed, each
/// stage, each source: a night's records add up to 30 "hours"), so its day has a count and no
/// sum; the night's figures are in `sleep_sessions`.
///
/// It rides along the series read for the merge, so the store is not scanned a second time.
/// Samples come in start order, so their days arrive one after another: the running day is
/// compared first, and a table is only touched when the day changes.
package struct DailyStatistics {
    private struct Day {
        var count = 0, valued = 0
        var total = 0.0, minimum = Double.infinity, maximum = -Double.infinity
        var minutes = 0.0
        var unit: String?
    }

    private let type: String
    private let keeping: ClosedRange<Int>?
    private var current = Int.min
    private var day = Day()
    private var done: [Int: Day] = [:]

    /// `keeping`: only these days (the days an incremental run recomputes); nil for all.
    package init(type: String, keeping days: ClosedRange<CivilDate>?) {
        self.type = type
        keeping = days.map { $0.lowerBound.daysSinceEpoch...$0.upperBound.daysSinceEpoch }
    }

    /// Category values that are an hour the type did not happen.
    static let notHappened: Set<String> = ["HKCategoryValueAppleStandHourIdle"]
    /// Category types whose records overlap, so that their minutes add up to nothing meaningful.
    static let overlapping: Set<String> = ["HKCategoryTypeIdentifierSleepAnalysis"]

    package mutating func add(localDay: Int, start: Int64, end: Int64, value: Double?, unit: String?, categoryValue: String? = nil) {
        if localDay != current {
            if keeping?.contains(localDay) == false { return }
            if current != .min { done[current] = day }
            current = localDay
            day = done.removeValue(forKey: localDay) ?? Day()
        }
        day.count += 1
        if categoryValue.map(Self.notHappened.contains) != true { day.minutes += Double(end - start) / 60_000_000 }
        // A series repeats one String per unit: equal storage compares without reading it.
        if let unit, unit != day.unit, day.unit.map({ unit < $0 }) ?? true { day.unit = unit }
        guard let value else { return }
        day.valued += 1
        day.total += value
        day.minimum = min(day.minimum, value)
        day.maximum = max(day.maximum, value)
    }

    /// The days seen, in date order.
    package mutating func finish() -> [DailyTypeMetric] {
        if current != .min { done[current] = day }
        current = .min
        return done.sorted { $0.key < $1.key }.map { key, d in
            let numeric = d.valued > 0
            return DailyTypeMetric(date: CivilDate(daysSinceEpoch: key), type: type, unit: numeric ? d.unit : "min",
                                   sum: numeric || Self.overlapping.contains(type) ? nil : d.minutes,
                                   average: numeric ? d.total / Double(d.valued) : nil,
                                   minimum: numeric ? d.minimum : nil, maximum: numeric ? d.maximum : nil,
                                   count: d.count)
        }
    }
}
