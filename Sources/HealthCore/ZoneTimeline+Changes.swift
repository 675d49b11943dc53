/// What moves when a person's timeline changes (a nightly export brings a trip, or new
/// evidence moves a switch): the local days whose bounds, zone or travel mark differ.
extension ZoneTimeline {
    /// The days changed between calendars of `self` (as the store's rows were dated) and
    /// `next`, and the instants (µs) spanned by their old and new bounds, one range per run of
    /// consecutive changed days, in order: every row starting there may belong to another day
    /// now, and no row outside them does. Empty when nothing moved (the same timeline, or two
    /// timelines of one zone). Nil when the homes differ: every day moves.
    public func changedDays(to next: ZoneTimeline) -> (days: Set<CivilDate>, instants: [Range<Int64>])? {
        guard home == next.home else { return nil }
        let bounds = [self, next].flatMap { t in t.stretches.compactMap(\.start) + t.windows.flatMap { [$0.from, $0.to] } }
        guard let first = bounds.min(), let last = bounds.max() else { return ([], []) }
        var old = LocalCalendar(timeline: self), new = LocalCalendar(timeline: next)
        // Two days either side: the farthest any date reaches past a switch (a held date, a
        // window's travel mark) is less than one.
        var day = min(old.localDate(of: first), new.localDate(of: first)).adding(days: -2)
        let end = max(old.localDate(of: last), new.localDate(of: last)).adding(days: 2)
        var days: Set<CivilDate> = []
        var instants: [Range<Int64>] = []
        var previousChanged = false
        while day <= end {
            let before = (old.startOfDay(day), old.startOfDay(day.adding(days: 1)), old.zoneName(on: day), old.isTravelDay(day))
            let after = (new.startOfDay(day), new.startOfDay(day.adding(days: 1)), new.zoneName(on: day), new.isTravelDay(day))
            let changed = before != after
            if changed {
                days.insert(day)
                let span = min(before.0.microseconds, after.0.microseconds)..<max(before.1.microseconds, after.1.microseconds)
                if previousChanged, let last = instants.last {
                    instants[instants.count - 1] = min(last.lowerBound, span.lowerBound)..<max(last.upperBound, span.upperBound)
                } else {
                    instants.append(span)
                }
            }
            previousChanged = changed
            day = day.adding(days: 1)
        }
        return (days, instants)
    }
}
