import Foundation

/// Local calendar days of instants in one IANA zone, DST-correct, or along a traveller's
/// `ZoneTimeline` (`init(timeline:)`).
///
/// Never from the printed clock: exports print every timestamp with the offset in force at
/// export time, not at recording. Asking Foundation for every record would be slow, so the
/// offset is cached for the span between two transitions around the last lookup (with a
/// timeline, also cut at the stretch's bounds: O(1) amortized for sorted instants either way).
///
/// With a timeline (more than one stretch):
/// - the offset at an instant is that of the zone of its stretch;
/// - the local date is the date in that zone, but never earlier than a date already reached:
///   at a westward switch (Tokyo, 10 Feb → Los Angeles, 9 Feb) the date stays until the new
///   zone's clock reaches it, so that day runs longer. Local dates never decrease with time,
///   and each local day D is one interval [startOfDay(D), startOfDay(D + 1)), where
///   startOfDay(D) is the first instant whose local date is ≥ D;
/// - an eastward switch can skip a date (Pago Pago → Kiritimati, 25 hours ahead): that day is
///   empty, startOfDay(D) == startOfDay(D + 1), and no instant has it as its date. A loop
///   over dates sees it with zero length (no amounts, no hours, nothing to divide by);
///   `day(containing:)` never returns it;
/// - `secondOfDay` is the wall clock of the instant's zone; while the date is held back (the
///   new zone's date is still earlier), it is the seconds since the held day began (after 24
///   hours it starts again from 0, only between zones more than 24 hours apart). So at a
///   switch the clock of the day jumps, as it does at a DST change;
/// - a day that starts at an eastward switch starts at the switch, not at 00:00;
/// - instant + `offset(at:)` is the zone's own wall clock, without the held date: the day and
///   the clock of the day are `localDate(of:)` and `secondOfDay(_:)`.
/// A timeline of one stretch gives exactly the one-zone calendar of its home.
public struct LocalCalendar: Sendable {
    /// The zone (with a timeline: the home zone).
    public let timeZone: TimeZone
    private var cachedRange: Range<Int64> = 0..<0   // seconds since 1970
    private var cachedOffset: Int64 = 0
    /// What turns seconds since 1970 into local seconds over `cachedRange`: the offset, except
    /// while a timeline holds the date back (then the start of the held day is 00:00).
    private var cachedShift: Int64 = 0
    /// The last day asked for: consecutive instants mostly fall on the same day.
    private var cachedDay: (date: CivilDate, start: Timestamp, end: Timestamp)?
    /// nil: one zone.
    private let travel: Travel?
    /// With a timeline: the stretch of `cachedRange`.
    private var cachedPiece = 0
    /// The last local date made from a day number (`localDate`): a date from a day number
    /// is some twenty divisions, and a stream of samples asks for the same day again and again.
    private var lastLocalDate = (day: Int.min, date: CivilDate(year: 1970, month: 1, day: 1))

    public init(timeZone: TimeZone) { self.init(timeZone: timeZone, travel: nil) }

    private init(timeZone: TimeZone, travel: Travel?) {
        self.timeZone = timeZone
        self.travel = travel
    }

    /// Whether this calendar follows a timeline of more than one zone.
    public var isTravelling: Bool { travel != nil }

    public init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.init(timeZone: zone)
    }

    /// Days local to where the timeline says the person was. A home zone name that is not a
    /// known zone reads as UTC.
    public init(timeline: ZoneTimeline) {
        let home = TimeZone(identifier: timeline.home) ?? TimeZone(secondsFromGMT: 0)!
        self.init(timeZone: home, travel: timeline.isSingleZone ? nil : Travel(timeline, home: home))
    }

    /// UTC offset in seconds at `instant`.
    public mutating func offset(at instant: Timestamp) -> Int64 {
        let seconds = instant.microseconds.floorDivided(by: 1_000_000).quotient
        if !cachedRange.contains(seconds) { fill(seconds) }
        return cachedOffset
    }

    /// Local seconds since 1970 (the wall clock, or the held day's clock) of `instant`.
    private mutating func localSeconds(_ instant: Timestamp) -> Int64 {
        let seconds = instant.microseconds.floorDivided(by: 1_000_000).quotient
        if !cachedRange.contains(seconds) { fill(seconds) }
        return seconds + cachedShift
    }

    private mutating func fill(_ seconds: Int64) {
        if let travel { return fill(seconds, travel) }
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let offset = Int64(timeZone.secondsFromGMT(for: date))
        let next = timeZone.nextDaylightSavingTimeTransition(after: date).map { Int64($0.timeIntervalSince1970) }
            ?? seconds + 366 * 86_400
        // The range starts at the lookup: going backwards in time just asks again.
        cachedRange = seconds..<max(next, seconds + 1)
        cachedOffset = offset
        cachedShift = offset
    }

    /// The same along a timeline: the range also ends with the stretch, and with the held part.
    private mutating func fill(_ seconds: Int64, _ travel: Travel) {
        let i = travel.piece(holding: seconds, near: cachedPiece)
        let piece = travel.pieces[i]
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let offset = Int64(piece.zone.secondsFromGMT(for: date))
        var upper = min(piece.end, piece.zone.nextDaylightSavingTimeTransition(after: date)
            .map { Int64($0.timeIntervalSince1970) } ?? seconds + 366 * 86_400)
        var shift = offset
        if seconds < piece.heldUntil {
            let dayStart = seconds - (seconds - piece.heldDayStart).floorDivided(by: 86_400).remainder
            shift = Int64(piece.floor) * 86_400 - dayStart
            upper = min(upper, piece.heldUntil, dayStart + 86_400)
        }
        cachedRange = seconds..<max(upper, seconds + 1)
        cachedOffset = offset
        cachedShift = shift
        cachedPiece = i
    }

    public mutating func localDate(of instant: Timestamp) -> CivilDate {
        let day = Int(localSeconds(instant).floorDivided(by: 86_400).quotient)
        if day != lastLocalDate.day { lastLocalDate = (day, CivilDate(daysSinceEpoch: day)) }
        return lastLocalDate.date
    }

    /// The instant at which local `date` begins (00:00 local; DST days are 23 or 25 hours).
    /// With a timeline: the first instant whose local date is `date` or later.
    public mutating func startOfDay(_ date: CivilDate) -> Timestamp {
        guard let travel else { return instant(on: date, secondOfDay: 0) }
        return Timestamp(seconds: travel.startOfDay(date.daysSinceEpoch))
    }

    /// The instant at which the local wall clock of `date` shows `second` seconds after midnight.
    /// With a timeline: the wall clock of the zone in force, taking the stretches of the day in
    /// time order; a time the clock skips (at an eastward switch) gives the switch, a time past
    /// the day's last stretch gives the day's end, so the answer is always in
    /// [startOfDay(date), startOfDay(date + 1)].
    public mutating func instant(on date: CivilDate, secondOfDay second: Int64) -> Timestamp {
        let wall = Int64(date.daysSinceEpoch) * 86_400 + second
        if let travel { return Timestamp(seconds: travel.instant(on: date.daysSinceEpoch, wall: wall)) }
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
        localSeconds(instant).floorDivided(by: 86_400).remainder
    }

    /// Whether local `date` touches an uncertain window of the timeline (an instant of both is
    /// the same; an empty day: its one instant lies in a window). One zone: never.
    public func isTravelDay(_ date: CivilDate) -> Bool {
        guard let travel else { return false }
        let start = travel.startOfDay(date.daysSinceEpoch) * 1_000_000
        let end = travel.startOfDay(date.daysSinceEpoch + 1) * 1_000_000
        return travel.windows.contains { w in
            start == end ? w.from.microseconds <= start && start <= w.to.microseconds
                : w.from.microseconds < end && start <= w.to.microseconds
        }
    }

    /// The zone in force longest during local `date` (the earlier on a tie; an empty day: the
    /// zone at its instant). One zone: that zone's identifier.
    public func zoneName(on date: CivilDate) -> String {
        guard let travel else { return timeZone.identifier }
        let start = travel.startOfDay(date.daysSinceEpoch)
        let end = travel.startOfDay(date.daysSinceEpoch + 1)
        var i = travel.piece(holding: start, near: 0)
        var best = (name: travel.pieces[i].name, length: Int64(0))
        while i < travel.pieces.count, travel.pieces[i].start < end {
            let p = travel.pieces[i]
            let length = min(end, p.end) - max(start, p.start)
            if length > best.length { best = (p.name, length) }
            i += 1
        }
        return best.name
    }
}

/// A calendar's timeline, ready for lookups: per stretch its bounds (seconds), zone, and the
/// dates it holds.
private struct Travel: Sendable {
    struct Piece: Sendable {
        var start: Int64          // seconds; Int64.min for the first
        var end: Int64            // seconds; Int64.max for the last
        var zone: TimeZone
        var name: String
        var floor = Int.min       // days since 1970: the date reached before the stretch
        var firstDay = Int.min    // its date at `start`
        var lastDay = Int.max     // its date at `end` − 1
        var heldUntil = Int64.min // the date is held at `floor` over [start, heldUntil)
        var heldDayStart: Int64 = 0 // where the held day (`floor`) began
    }
    var pieces: [Piece]
    var windows: [ZoneTimeline.Window]

    init(_ timeline: ZoneTimeline, home: TimeZone) {
        let s = timeline.stretches
        pieces = s.indices.map { i in
            Piece(start: s[i].start.map { $0.microseconds / 1_000_000 } ?? .min,
                  end: i + 1 < s.count ? s[i + 1].start!.microseconds / 1_000_000 : .max,
                  zone: TimeZone(identifier: s[i].zone) ?? home, name: s[i].zone)
        }
        windows = timeline.windows
        var reached = Int.min   // the date reached so far
        for i in pieces.indices {
            let zone = pieces[i].zone
            if i > 0 {
                let naive = Self.naiveDay(zone, pieces[i].start)
                pieces[i].floor = reached
                pieces[i].firstDay = max(reached, naive)
                if naive < reached {
                    // Only earlier pieces decide where the held day began.
                    pieces[i].heldDayStart = startOfDay(reached)
                    pieces[i].heldUntil = min(pieces[i].end, Self.midnight(zone, reached))
                }
            }
            if i + 1 < pieces.count { pieces[i].lastDay = max(reached, Self.naiveDay(zone, pieces[i].end - 1)) }
            reached = pieces[i].lastDay
        }
    }

    /// The piece holding `seconds`: `near` or the next one (sorted input), else a binary search.
    func piece(holding seconds: Int64, near: Int) -> Int {
        if near < pieces.count, pieces[near].start <= seconds, seconds < pieces[near].end { return near }
        if near + 1 < pieces.count, pieces[near + 1].start <= seconds, seconds < pieces[near + 1].end { return near + 1 }
        var low = 0, high = pieces.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if pieces[mid].start <= seconds { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The first second whose local date is `day` or later.
    func startOfDay(_ day: Int) -> Int64 {
        // The first piece whose dates reach `day` (lastDay does not decrease).
        var low = 0, high = pieces.count - 1
        while low < high {
            let mid = (low + high) / 2
            if pieces[mid].lastDay >= day { high = mid } else { low = mid + 1 }
        }
        let p = pieces[low]
        if p.firstDay >= day { return p.start }
        return min(max(Self.midnight(p.zone, day), p.start), p.end)
    }

    /// See `LocalCalendar.instant(on:secondOfDay:)`.
    func instant(on day: Int, wall: Int64) -> Int64 {
        let start = startOfDay(day), end = startOfDay(day + 1)
        guard start < end else { return start }
        var i = piece(holding: start, near: 0)
        while i < pieces.count, pieces[i].start < end {
            let from = max(start, pieces[i].start), to = min(end, pieces[i].end)
            let candidate = Self.wallClock(pieces[i].zone, wall)
            if candidate < from { return from }   // the clock skipped it
            if candidate < to { return candidate }
            i += 1
        }
        return end
    }

    /// The date, in `zone`, of `seconds`.
    static func naiveDay(_ zone: TimeZone, _ seconds: Int64) -> Int {
        let local = seconds + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        return Int(local.floorDivided(by: 86_400).quotient)
    }

    /// The instant at which `zone`'s wall clock shows `wall` (local seconds since 1970): the
    /// offset at the guess, corrected once for a transition in between.
    static func wallClock(_ zone: TimeZone, _ wall: Int64) -> Int64 {
        func offset(_ s: Int64) -> Int64 { Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(s)))) }
        let guess = wall - offset(wall)
        return wall - offset(guess)
    }

    /// The first second of `day` in `zone`: its midnight, or the transition where a DST change
    /// at midnight skips it.
    static func midnight(_ zone: TimeZone, _ day: Int) -> Int64 {
        let m = wallClock(zone, Int64(day) * 86_400)
        if naiveDay(zone, m) < day, let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: TimeInterval(m))) {
            return Int64(next.timeIntervalSince1970)
        }
        return m
    }
}
