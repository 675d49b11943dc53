import HealthCore

/// A heart-rate sample: beats per minute over `[start, end)` (usually an instant).
package struct HeartRateReading: Sendable, Equatable {
    package var start: Int64   // µs
    package var end: Int64
    package var bpm: Double
    package init(start: Int64, end: Int64, bpm: Double) { self.start = start; self.end = end; self.bpm = bpm }
}

/// One day of heart rate: estimated heartbeats, the minutes they were counted over
/// (the watch was worn), and plain statistics of the samples starting that day.
package struct HeartRateDay: Sendable, Equatable {
    package var date: CivilDate
    package var beats = 0.0
    package var wornMinutes = 0.0
    package var minimum = Double.infinity
    package var maximum = -Double.infinity
    package var count = 0
    package var sum = 0.0
    package init(date: CivilDate) { self.date = date }
    /// Time-weighted mean; the plain mean when no sample had a neighbour close enough.
    package var average: Double { wornMinutes > 0 ? beats / wornMinutes : (count > 0 ? sum / Double(count) : 0) }
}

/// The aggregate stage for heart rate: integrates bpm over time ("heartbeats" is not an Apple
/// metric). Each sample holds until the next one (from any source: the merged timeline, so
/// a chest strap next to the watch does not double the count); a gap longer than `maxGap`
/// means the watch was not worn and counts only the sample's own span. Intervals that cross
/// midnight are split pro rata. Input sorted by start.
package struct HeartRateDays: StageHandler {
    package typealias InboundIn = [HeartRateReading]
    package typealias InboundOut = [HeartRateDay]

    private var calendar: LocalCalendar
    private let maxGap: Int64
    private var previous: HeartRateReading?
    /// The day being added to: readings come in time order, so the table is only touched
    /// when the day changes, not twice per reading.
    private var current: HeartRateDay?
    private var days: [CivilDate: HeartRateDay] = [:]

    package init(calendar: LocalCalendar, maxGapMinutes: Double = 30) {
        self.calendar = calendar
        self.maxGap = Int64(maxGapMinutes * 60_000_000)
    }

    package mutating func handle(_ input: [HeartRateReading], emit: (consuming [HeartRateDay]) throws -> Void) throws {
        for reading in input {
            let date = calendar.localDate(of: Timestamp(microseconds: reading.start))
            update(date) { day in
                day.minimum = min(day.minimum, reading.bpm)
                day.maximum = max(day.maximum, reading.bpm)
                day.count += 1
                day.sum += reading.bpm
            }
            if let p = previous {
                let gap = reading.start - p.start
                integrate(p, until: gap <= maxGap ? reading.start : p.end)
            }
            previous = reading
        }
    }

    package mutating func finish(emit: (consuming [HeartRateDay]) throws -> Void) throws {
        if let p = previous { integrate(p, until: p.end) }
        previous = nil
        if let current { days[current.date] = current }
        current = nil
        try emit(days.values.sorted { $0.date < $1.date })
        days = [:]
    }

    private mutating func update(_ date: CivilDate, _ body: (inout HeartRateDay) -> Void) {
        var day: HeartRateDay
        if let current, current.date == date {
            day = current
        } else {
            if let current { days[current.date] = current }
            day = days.removeValue(forKey: date) ?? HeartRateDay(date: date)
        }
        body(&day)
        current = day
    }

    private mutating func integrate(_ r: HeartRateReading, until end: Int64) {
        var from = r.start
        while from < end {
            let d = calendar.day(containing: Timestamp(microseconds: from))
            let to = min(end, d.end.microseconds)
            let minutes = Double(to - from) / 60_000_000
            update(d.date) { day in
                day.beats += r.bpm * minutes
                day.wornMinutes += minutes
            }
            from = to
        }
    }
}
