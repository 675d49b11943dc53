import HealthCore

/// Calendar arithmetic in the store's zone, for time constants and the SQL functions.
enum LocalTime {
    /// The instant at which the local wall clock of `date` shows `second` seconds after midnight
    /// (corrected once for a DST transition in between, as `LocalCalendar.startOfDay`).
    static func instant(date: CivilDate, second: Int64, in calendar: inout LocalCalendar) -> Timestamp {
        let wall = Int64(date.daysSinceEpoch) * 86_400 + second
        var guess = Timestamp(seconds: wall - calendar.offset(at: Timestamp(seconds: wall)))
        guess = Timestamp(seconds: wall - calendar.offset(at: guess))
        return guess
    }

    /// First day of the week holding `date`; `weekStart` 0 = Monday … 6 = Sunday.
    static func weekStart(of date: CivilDate, weekStart: Int) -> CivilDate {
        date.adding(days: -((date.weekdayFromMonday - weekStart + 7) % 7))
    }

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
            return LocalTime.instant(date: moved, second: second, in: &calendar)
        }
    }
}

extension Int {
    func floorDiv(_ d: Int) -> Int { self >= 0 ? self / d : -((-self + d - 1) / d) }
}
