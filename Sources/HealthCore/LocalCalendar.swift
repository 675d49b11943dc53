import Foundation

/// Local calendar days of instants in one IANA zone, DST-correct.
///
/// Never from the printed clock: exports print every timestamp with the offset in force at
/// export time, not at recording. Asking Foundation for every record would be slow, so the
/// offset is cached for the span between two transitions around the last lookup.
public struct LocalCalendar: Sendable {
    public let timeZone: TimeZone
    private var cachedRange: Range<Int64> = 0..<0   // seconds since 1970
    private var cachedOffset: Int64 = 0
    /// The last day asked for: consecutive instants mostly fall on the same day.
    private var cachedDay: (date: CivilDate, start: Timestamp, end: Timestamp)?

    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    public init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.init(timeZone: zone)
    }

    /// UTC offset in seconds at `instant`.
    public mutating func offset(at instant: Timestamp) -> Int64 {
        let seconds = instant.microseconds.floorDivided(by: 1_000_000).quotient
        if cachedRange.contains(seconds) { return cachedOffset }
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let offset = Int64(timeZone.secondsFromGMT(for: date))
        let next = timeZone.nextDaylightSavingTimeTransition(after: date).map { Int64($0.timeIntervalSince1970) }
            ?? seconds + 366 * 86_400
        // The range starts at the lookup: going backwards in time just asks again.
        cachedRange = seconds..<max(next, seconds + 1)
        cachedOffset = offset
        return offset
    }

    public mutating func localDate(of instant: Timestamp) -> CivilDate {
        let seconds = instant.microseconds.floorDivided(by: 1_000_000).quotient + offset(at: instant)
        return CivilDate(daysSinceEpoch: Int(seconds.floorDivided(by: 86_400).quotient))
    }

    /// The instant at which local `date` begins (00:00 local; DST days are 23 or 25 hours).
    public mutating func startOfDay(_ date: CivilDate) -> Timestamp { instant(on: date, secondOfDay: 0) }

    /// The instant at which the local wall clock of `date` shows `second` seconds after midnight.
    public mutating func instant(on date: CivilDate, secondOfDay second: Int64) -> Timestamp {
        let wall = Int64(date.daysSinceEpoch) * 86_400 + second
        // Offset at the guessed instant, then corrected once for a transition in between.
        var guess = Timestamp(seconds: wall - offset(at: Timestamp(seconds: wall)))
        guess = Timestamp(seconds: wall - offset(at: guess))
        return guess
    }

    /// The local day holding `instant` and the instants at which it begins and ends.
    public mutating func day(containing instant: Timestamp) -> (date: CivilDate, start: Timestamp, end: Timestamp) {
        if let d = cachedDay, d.start <= instant, instant < d.end { return d }
        let date = localDate(of: instant)
        let d = (date, startOfDay(date), startOfDay(date.adding(days: 1)))
        cachedDay = d
        return d
    }

    /// Seconds since local midnight of `instant` (wall clock; on DST days hours repeat or skip).
    public mutating func secondOfDay(_ instant: Timestamp) -> Int64 {
        let seconds = instant.microseconds.floorDivided(by: 1_000_000).quotient + offset(at: instant)
        return seconds.floorDivided(by: 86_400).remainder
    }
}
