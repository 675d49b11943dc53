/// What moves when a person's timeline changes (a nightly export brings a trip, or new
/// evidence moves a switch): the local days whose bounds, zone or travel mark differ.
extension ZoneTimeline {
    /// The days changed between calendars of `self` (as the store's rows were dated) and
    /// `next`, and the instants (µs) spanned by their old and new bounds: every row starting
    /// there may belong to another day now, and no row outside it does. Empty when nothing
    /// moved (the same timeline, or two timelines of one zone). Nil when the homes differ:
    /// every day moves.
    public func changedDays(to next: ZoneTimeline) -> (days: Set<CivilDate>, instants: Range<Int64>)? {
        guard home == next.home else { return nil }
        let bounds = [self, next].flatMap { t in t.stretches.compactMap(\.start) + t.windows.flatMap { [$0.from, $0.to] } }
        guard let first = bounds.min(), let last = bounds.max() else { return ([], 0..<0) }
        var old = LocalCalendar(timeline: self), new = LocalCalendar(timeline: next)
        // Two days either side: the farthest any date reaches past a switch (a held date, a
        // window's travel mark) is less than one.
        var day = min(old.localDate(of: first), new.localDate(of: first)).adding(days: -2)
        let end = max(old.localDate(of: last), new.localDate(of: last)).adding(days: 2)
        var days: Set<CivilDate> = []
        var low = Int64.max, high = Int64.min
        while day <= end {
            let before = (old.startOfDay(day), old.startOfDay(day.adding(days: 1)), old.zoneName(on: day), old.isTravelDay(day))
            let after = (new.startOfDay(day), new.startOfDay(day.adding(days: 1)), new.zoneName(on: day), new.isTravelDay(day))
            if before != after {
                days.insert(day)
                low = min(low, before.0.microseconds, after.0.microseconds)
                high = max(high, before.1.microseconds, after.1.microseconds)
            }
            day = day.adding(days: 1)
        }
        return (days, days.isEmpty ? 0..<0 : low..<high)
    }
}
