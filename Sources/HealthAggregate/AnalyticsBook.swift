import HealthCore

/// The aggregate stage's ledger: collects what the per-series stages produce (merged day
/// amounts, heart-rate days, sleep nights, per-type statistics) into daily analytics rows and
/// the long-form per-type table. It holds one entry per day and per (type, day): thousands,
/// never per sample.
package struct AnalyticsBook: Sendable {
    private var days: [CivilDate: MetricValues] = [:]
    private var typeDays: [TypeDay: DayFigures] = [:]
    private var typeHours: [TypeHour: Double] = [:]
    /// The cumulative types' names, by `TypeHour.type`.
    private var hourTypeNames: [String] = []
    /// Every type's name, by `TypeDay.type`, and the last one looked up (rows come type by type).
    private var dayTypeNames: [String] = []
    private var dayTypeIndex: [String: Int] = [:]
    private var lastDayType: (name: String, index: Int) = ("", -1)

    /// A type's day, packed like `TypeHour`, and its figures without the type and date the key
    /// holds: 100 bytes a slot instead of 152 (the table per type and day took 10 MB at four
    /// years; issue 35).
    private struct TypeDay: Hashable {
        var type: Int32, year: Int32, month: UInt8, day: UInt8
        init(type: Int, date: CivilDate) {
            self.type = Int32(truncatingIfNeeded: type)
            year = Int32(truncatingIfNeeded: date.year)
            month = UInt8(truncatingIfNeeded: date.month)
            day = UInt8(truncatingIfNeeded: date.day)
        }
        var date: CivilDate { CivilDate(year: Int(year), month: Int(month), day: Int(day)) }
        /// One word to hash, not four fields (the tables are hashed several times per hour of data).
        func hash(into hasher: inout Hasher) {
            hasher.combine(UInt64(UInt32(bitPattern: type)) << 40 | UInt64(UInt32(bitPattern: year) & 0xFF_FFFF) << 16
                           | UInt64(month) << 8 | UInt64(day))
        }
    }
    private struct DayFigures {
        var unit: String?
        var sum: Double?, average: Double?, minimum: Double?, maximum: Double?
        var count: Int
        init(unit: String?, sum: Double? = nil, average: Double? = nil, minimum: Double? = nil, maximum: Double? = nil,
             count: Int) {
            self.unit = unit; self.sum = sum; self.average = average; self.minimum = minimum; self.maximum = maximum
            self.count = count
        }
        init(_ m: DailyTypeMetric) {
            self.init(unit: m.unit, sum: m.sum, average: m.average, minimum: m.minimum, maximum: m.maximum, count: m.count)
        }
        mutating func add(_ amount: Double) { sum = (sum ?? 0) + amount }
        func metric(date: CivilDate, type: String) -> DailyTypeMetric {
            DailyTypeMetric(date: date, type: type, unit: unit, sum: sum, average: average, minimum: minimum,
                            maximum: maximum, count: count)
        }
    }

    private mutating func dayKey(_ type: String, _ date: CivilDate) -> TypeDay {
        if type != lastDayType.name || lastDayType.index < 0 {
            let index = dayTypeIndex[type] ?? dayTypeNames.count
            if index == dayTypeNames.count { dayTypeNames.append(type); dayTypeIndex[type] = index }
            lastDayType = (type, index)
        }
        return TypeDay(type: lastDayType.index, date: date)
    }
    /// An hour of a type, packed: the hourly table has an entry per type and local hour
    /// (108 k at four years), and with the name and the date whole its table took 56 bytes
    /// a slot, 15 MB then; packed, 20 (issue 35). Months, days and hours fit a byte, years
    /// (of instants in microseconds) 32 bits.
    private struct TypeHour: Hashable {
        var type: Int32, year: Int32, month: UInt8, day: UInt8, hour: UInt8
        init(type: Int, date: CivilDate, hour: Int) {
            self.type = Int32(truncatingIfNeeded: type)
            year = Int32(truncatingIfNeeded: date.year)
            month = UInt8(truncatingIfNeeded: date.month)
            day = UInt8(truncatingIfNeeded: date.day)
            self.hour = UInt8(truncatingIfNeeded: hour)
        }
        var date: CivilDate { CivilDate(year: Int(year), month: Int(month), day: Int(day)) }
        /// One word to hash, as `TypeDay`'s (a collision only costs a comparison).
        func hash(into hasher: inout Hasher) {
            hasher.combine(UInt64(UInt32(bitPattern: type)) << 40 | UInt64(UInt32(bitPattern: year) & 0xFFFF) << 24
                           | UInt64(month) << 16 | UInt64(day) << 8 | UInt64(hour))
        }
    }

    package init() {}

    /// Plain statistics per type and day (from the store: count, mean, min, max of the samples
    /// starting that day). Marks the day as one with data.
    package mutating func addStatistics(_ rows: [DailyTypeMetric]) {
        for row in rows {
            typeDays[dayKey(row.type, row.date)] = DayFigures(row)
            touch(row.date)
        }
    }

    /// Merged amounts of a cumulative type: the type's daily and hourly sums, and its analytics column
    /// (DistanceWalkingRunning split into walking and running).
    package mutating func addCumulative(type: String, unit: String?, amounts: [DayAmount]) {
        let metric = DailyMetric.metric(forCumulativeType: type)
        let typeIndex = hourTypeNames.firstIndex(of: type) ?? hourTypeNames.count
        if typeIndex == hourTypeNames.count { hourTypeNames.append(type) }
        // Amounts come in time order, often many to an hour: each run of one (day, hour) is
        // summed first, so the tables (keyed by the type's name) are hashed once per run.
        var next = amounts.startIndex
        while next < amounts.endIndex {
            var a = amounts[next]
            next += 1
            while next < amounts.endIndex, amounts[next].date == a.date, amounts[next].hour == a.hour {
                a.amount += amounts[next].amount
                a.inRunning += amounts[next].inRunning
                next += 1
            }
            // One lookup: the figures are updated where they lie in the table.
            typeDays[dayKey(type, a.date), default: DayFigures(unit: unit, count: 0)].add(a.amount)
            typeHours[TypeHour(type: typeIndex, date: a.date, hour: a.hour), default: 0] += a.amount
            guard let metric else { touch(a.date); continue }
            if metric == .walkingDistance {
                days[a.date, default: MetricValues()].add(a.amount - a.inRunning, to: .walkingDistance)
                days[a.date, default: MetricValues()].add(a.inRunning, to: .runningDistance)
            } else {
                days[a.date, default: MetricValues()].add(a.amount, to: metric)
            }
        }
    }

    /// Heartbeats per day; the heart-rate type's mean becomes time-weighted.
    package mutating func addHeartRate(type: String, _ hr: [HeartRateDay]) {
        for d in hr {
            if d.beats > 0 { days[d.date, default: MetricValues()].add(d.beats, to: .heartbeats) }
            let key = dayKey(type, d.date)
            if d.count > 0 {
                typeDays[key] = DayFigures(unit: "count/min", sum: nil, average: d.average,
                                           minimum: d.minimum, maximum: d.maximum, count: d.count)
            }
            touch(d.date)
        }
    }

    /// Replaces the mean of a type on some days (the LEQ of sound levels).
    package mutating func replaceAverages(_ rows: [DailyTypeMetric]) {
        for row in rows { typeDays[dayKey(row.type, row.date)] = DayFigures(row) }
    }

    /// A night's minutes go to its wake-up day. An in-bed-only night (no asleep/awake track)
    /// leaves the asleep columns empty, not 0: how long was slept is unknown, and an average of
    /// sleep must not count it as a night without sleep. Its in-bed minutes are still shown.
    package mutating func addNights(_ nights: [SleepNight]) {
        for n in nights where n.asleepMinutes > 0 || n.inBedMinutes > 0 || n.napMinutes > 0 {
            var day = days[n.date, default: MetricValues()]
            if !n.isInBedOnly {
                day[.sleepTotalMinutes] = n.asleepMinutes
                day[.sleepDeepMinutes] = n.deepMinutes
                day[.sleepREMMinutes] = n.remMinutes
            }
            day[.sleepInBedMinutes] = n.inBedMinutes
            day[.sleepNapMinutes] = n.napMinutes
            days[n.date] = day
        }
    }

    private mutating func touch(_ date: CivilDate) {
        if days[date] == nil { days[date] = MetricValues() }
    }

    /// Integer metrics cut to their whole part instead of rounded (`MetricValues.rounded(truncating:)`).
    package var truncating: Set<DailyMetric> = []

    /// One row per day with any data, integer metrics rounded as stored.
    package var dailyRows: [DailyAnalytics] {
        days.map { DailyAnalytics(date: $0.key, metrics: $0.value.rounded(truncating: truncating)) }.sorted { $0.date < $1.date }
    }

    package var typeRows: [DailyTypeMetric] {
        var rows = typeDays.map { $0.value.metric(date: $0.key.date, type: dayTypeNames[Int($0.key.type)]) }
        rows.sort { ($0.date, $0.type) < ($1.date, $1.type) }
        return rows
    }

    /// `typeRows`, then the per-type-and-day table is emptied: taken at the end of a build,
    /// it frees that table (9 MB at four years) before `takeHourRows` makes its rows and their
    /// sort's buffer, the moment of the analytics' peak memory (issue 62).
    package mutating func takeTypeRows() -> [DailyTypeMetric] {
        let rows = typeRows
        typeDays = [:]
        return rows
    }

    /// `hourRows`, then the hourly table is emptied (see `takeTypeRows`). The table's entries
    /// (24 bytes each) are sorted before they become rows (48): the rows and a sort's buffer of
    /// half of them, beside the table, took 18 MB at four years; now at most 13.
    package mutating func takeHourRows() -> [HourlyTypeAmount] {
        // Rows sort by the type's name: each name's place among them, by `TypeHour.type`.
        var rank = [Int32](repeating: 0, count: hourTypeNames.count)
        for (place, index) in hourTypeNames.indices.sorted(by: { hourTypeNames[$0] < hourTypeNames[$1] }).enumerated() {
            rank[index] = Int32(place)
        }
        var entries = Array(typeHours)
        typeHours = [:]
        entries.sort { a, b in
            (a.key.year, a.key.month, a.key.day, rank[Int(a.key.type)], a.key.hour)
                < (b.key.year, b.key.month, b.key.day, rank[Int(b.key.type)], b.key.hour)
        }
        return entries.map {
            HourlyTypeAmount(date: $0.key.date, hour: Int($0.key.hour), type: hourTypeNames[Int($0.key.type)], sum: $0.value)
        }
    }

    /// Every type's hourly sums, by date, type and hour.
    package var hourRows: [HourlyTypeAmount] {
        var copy = self   // shares the tables until `takeHourRows` lets go of the copy's
        return copy.takeHourRows()
    }
}
