import HealthCore

/// Weekly, monthly and yearly rows: the sums of their stored days (integer metrics already
/// rounded per day, so a week equals the sum of its days exactly) and `days_with_data`.
package enum PeriodRollup {
    /// `weekStart`: 0 = Monday … 6 = Sunday.
    package static func periods(_ kind: PeriodKind, of days: [DailyAnalytics], weekStart: Int = 0) -> [PeriodAnalytics] {
        var byStart: [CivilDate: PeriodAnalytics] = [:]
        for day in days {
            let (start, end) = bounds(kind, of: day.date, weekStart: weekStart)
            var p = byStart[start] ?? PeriodAnalytics(kind: kind, start: start, end: end, metrics: MetricValues(), daysWithData: 0)
            for m in DailyMetric.allCases {
                if let v = day.metrics[m] { p.metrics.add(v, to: m) }
            }
            p.daysWithData += 1
            byStart[start] = p
        }
        return byStart.values.sorted { $0.start < $1.start }
    }

    /// First and last day of the period holding `date`.
    package static func bounds(_ kind: PeriodKind, of date: CivilDate, weekStart: Int = 0) -> (CivilDate, CivilDate) {
        switch kind {
        case .week:
            let start = date.startOfWeek(weekStart: weekStart)
            return (start, start.adding(days: 6))
        case .month:
            let start = CivilDate(year: date.year, month: date.month, day: 1)
            let next = date.month == 12 ? CivilDate(year: date.year + 1, month: 1, day: 1)
                : CivilDate(year: date.year, month: date.month + 1, day: 1)
            return (start, next.adding(days: -1))
        case .year:
            return (CivilDate(year: date.year, month: 1, day: 1), CivilDate(year: date.year, month: 12, day: 31))
        }
    }

    /// `monday` … `sunday` (or nil) → 0 … 6.
    package static func weekStartIndex(_ name: String?) -> Int? {
        guard let name, !name.isEmpty else { return 0 }
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        return names.firstIndex(of: name.lowercased())
    }
}
