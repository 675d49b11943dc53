import HealthCore

/// Calendar arithmetic in the store's zone, for time constants and the SQL functions.
enum LocalTime {
    static func adding(months: Int, to date: CivilDate) -> CivilDate {
        let total = date.year * 12 + (date.month - 1) + months
        let year = total.floorDiv(12), month = total - year * 12 + 1
        let lastDay = CivilDate(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1)
            .adding(days: -1).day
        return CivilDate(year: year, month: month, day: min(date.day, lastDay))
    }

    /// `date` moved by a whole-day duration (days, weeks, months, years); nil for hours and minutes.
    static func adding(_ duration: Duration, sign: Double, to date: CivilDate) -> CivilDate? {
        let n = Int(exactly: (duration.amount * sign).rounded()) ?? 0
        switch duration.unit {
        case .days: return date.adding(days: n)
        case .weeks: return date.adding(days: 7 * n)
        case .months: return adding(months: n, to: date)
        case .years: return adding(months: 12 * n, to: date)
        case .hours, .minutes: return nil
        }
    }

    /// `instant` moved by a duration on the local wall clock (a day is 23 or 25 hours on DST days).
    static func adding(_ duration: Duration, sign: Double, to instant: Timestamp, in calendar: inout LocalCalendar) -> Timestamp {
        switch duration.unit {
        case .minutes, .hours:
            let seconds = duration.amount * sign * (duration.unit == .hours ? 3600 : 60)
            return Timestamp(microseconds: instant.microseconds + Int64((seconds * 1_000_000).rounded()))
        default:
            let date = calendar.localDate(of: instant)
            let second = calendar.secondOfDay(instant)
            let moved = adding(duration, sign: sign, to: date) ?? date
            return calendar.instant(on: moved, secondOfDay: second)
        }
    }
}

extension Int {
    func floorDiv(_ d: Int) -> Int { self >= 0 ? self / d : -((-self + d - 1) / d) }
}
