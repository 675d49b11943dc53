import HealthCore
import HealthStore

/// A sentence the numbers support, with its kind (`data-insight` on the page). No advice,
/// no diagnosis: each one states what the analytics say.
package struct Insight: Sendable, Equatable {
    package var kind: String
    package var text: String
}

/// The insights of the report, each a pure function of the days (or nights), tested alone.
/// Each counts complete days only (a partial day, the first of the data or the export's own,
/// is skipped wherever it is passed in), and averages a metric over the days with data, a
/// day's 0 included (docs/days-and-averages.md).
package enum Insights {
    package static func all(_ data: ReportData, goals: ReportGoals) -> [Insight] {
        let days = data.completeDays
        return [streaks(days, goals: goals), bestAndWorst(days, period: .week), bestAndWorst(days, period: .month),
                lastWeekAgainstTheWeekBefore(days), weekdaysAgainstWeekends(days), sleepRegularity(data.nights),
                trend(days, metric: .steps), trend(days, metric: .sleep)].compactMap { $0 }
    }

    /// The current and the longest run of consecutive days at the step goal (a day without
    /// data ends a run). The current one ends on the last day with data.
    package static func streaks(_ days: [ReportDay], goals: ReportGoals) -> Insight? {
        let sorted = days.filter { $0.steps != nil && !$0.partial }.sorted { $0.date < $1.date }
        guard !sorted.isEmpty else { return nil }
        var longest = 0, run = 0
        var previous: CivilDate?
        for day in sorted {
            let met = (day.fraction(.steps, goals) ?? 0) >= 1
            let consecutive = previous.map { $0.adding(days: 1) == day.date } ?? false
            run = met ? (consecutive ? run + 1 : 1) : 0
            longest = max(longest, run)
            previous = day.date
        }
        let goal = Format.count(sorted.last!.goal(.steps, goals))
        return Insight(kind: "streak", text: "Current streak: \(dayCount(run)) at \(goal) steps or more; longest: \(dayCount(longest)).")
    }

    package enum Period: String, Sendable { case week, month }

    /// The best and the worst week (or month) by average steps a day, among periods with data
    /// on at least 4 of 7 days (15 of a month's).
    package static func bestAndWorst(_ days: [ReportDay], period: Period) -> Insight? {
        var groups: [CivilDate: [Double]] = [:]
        for day in days where !day.partial {
            guard let steps = day.steps else { continue }
            let start = period == .week ? day.date.startOfWeek(weekStart: 0)
                : CivilDate(year: day.date.year, month: day.date.month, day: 1)
            groups[start, default: []].append(steps)
        }
        let minimum = period == .week ? 4 : 15
        let averages = groups.filter { $0.value.count >= minimum }.map { ($0.key, mean($0.value)) }.sorted { $0.0 < $1.0 }
        guard averages.count >= 2, let best = averages.max(by: { $0.1 < $1.1 }), let worst = averages.min(by: { $0.1 < $1.1 })
        else { return nil }
        func name(_ start: CivilDate) -> String {
            period == .week ? "the week of \(Format.day(start))" : Format.month(start)
        }
        return Insight(kind: "best-worst-\(period.rawValue)",
                       text: "Best \(period.rawValue): \(name(best.0)) (\(Format.count(best.1)) steps a day); "
                           + "worst: \(name(worst.0)) (\(Format.count(worst.1)))." )
    }

    /// The last 7 days against the 7 before, by average steps a day (at least 4 days in each).
    package static func lastWeekAgainstTheWeekBefore(_ days: [ReportDay]) -> Insight? {
        let days = days.filter { !$0.partial }
        guard let last = days.filter({ $0.steps != nil }).map(\.date).max() else { return nil }
        func average(_ from: CivilDate, _ to: CivilDate) -> (Double, Int) {
            let values = days.filter { $0.date >= from && $0.date <= to }.compactMap(\.steps)
            return (values.isEmpty ? 0 : mean(values), values.count)
        }
        let now = average(last.adding(days: -6), last), before = average(last.adding(days: -13), last.adding(days: -7))
        guard now.1 >= 4, before.1 >= 4, before.0 > 0 else { return nil }
        let change = (now.0 - before.0) / before.0 * 100
        return Insight(kind: "period-change",
                       text: "Last 7 days: \(Format.count(now.0)) steps a day, \(Format.percent(change)) against the 7 days before "
                           + "(\(Format.count(before.0))).")
    }

    /// Average steps on weekdays against weekends (at least 4 of each).
    package static func weekdaysAgainstWeekends(_ days: [ReportDay]) -> Insight? {
        var weekday: [Double] = [], weekend: [Double] = []
        for day in days where !day.partial {
            guard let steps = day.steps else { continue }
            if day.date.weekdayFromMonday >= 5 { weekend.append(steps) } else { weekday.append(steps) }
        }
        guard weekday.count >= 4, weekend.count >= 4 else { return nil }
        let (a, b) = (mean(weekday), mean(weekend))
        guard a > 0 else { return nil }
        return Insight(kind: "weekday-weekend",
                       text: "Weekends: \(Format.count(b)) steps a day, \(Format.percent((b - a) / a * 100)) against weekdays "
                           + "(\(Format.count(a))).")
    }

    /// How much bed and wake times vary (standard deviation) over the last 30 nights (at least 7).
    package static func sleepRegularity(_ nights: [ReportNight]) -> Insight? {
        let recent = nights.sorted { $0.date < $1.date }.suffix(30)
        guard recent.count >= 7 else { return nil }
        let bed = standardDeviation(recent.map(\.bedtimeMinutes)), wake = standardDeviation(recent.map(\.wakeMinutes))
        return Insight(kind: "sleep-regularity",
                       text: "Over the last \(recent.count) nights, bedtime varied by ±\(Format.count(bed)) min and wake time "
                           + "by ±\(Format.count(wake)) min (standard deviation).")
    }

    /// The direction of a metric over (at most) the last 8 weeks, by a least-squares line
    /// through its weekly averages (at least 5 weeks with 4 days of data). The span named is
    /// the one measured: from the first of those weeks to the week of the last day, never more.
    /// "Up" or "down" when the line moves by at least 10% of the average over the span and fits
    /// (R² ≥ 0.5); "steady" only when it moves by less than 10% and no week is more than 10%
    /// from the average; otherwise the weekly averages are given, without a direction.
    package static func trend(_ days: [ReportDay], metric: ReportMetric) -> Insight? {
        let days = days.filter { !$0.partial }
        guard let last = days.filter({ $0.value(metric) != nil }).map(\.date).max() else { return nil }
        let firstWeek = last.startOfWeek(weekStart: 0).adding(days: -7 * 7)
        var weeks: [(Double, Double)] = []
        for w in 0..<8 {
            let start = firstWeek.adding(days: 7 * w)
            let values = days.filter { $0.date >= start && $0.date < start.adding(days: 7) }.compactMap { $0.shown(metric) }
            if values.count >= 4 { weeks.append((Double(w), mean(values))) }
        }
        guard weeks.count >= 5, let first = weeks.first, let latest = weeks.last else { return nil }
        let fit = leastSquares(weeks)
        let averages = weeks.map(\.1)
        let average = mean(averages)
        guard average > 0 else { return nil }
        let spanWeeks = 8 - Int(first.0)
        let change = fit.slope * (latest.0 - first.0) / average * 100   // between the first and the last week measured
        let spread = averages.map { abs($0 - average) / average * 100 }.max() ?? 0
        let name = metric.title, over = "over the last \(spanWeeks) weeks"
        let text: String
        if abs(change) >= 10 && fit.r2 >= 0.5 {
            text = "\(name) trending \(change > 0 ? "up" : "down"): \(Format.percent(change)) \(over)."
        } else if abs(change) < 10 && spread <= 10 {
            text = "\(name) steady \(over) (the weekly averages moved \(Format.percent(change)))."
        } else {
            let places = metric == .sleep ? 1 : 0
            text = "\(name) without a clear direction \(over): weekly averages between "
                + "\(SVGCharts.number(averages.min()!, places)) and \(SVGCharts.number(averages.max()!, places)) \(metric.unit) a day."
        }
        return Insight(kind: "trend-\(metric.rawValue)", text: text)
    }

    // MARK: arithmetic

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(values.count, 1)) }

    static func standardDeviation<C: Collection>(_ values: C) -> Double where C.Element == Double {
        let m = values.reduce(0, +) / Double(max(values.count, 1))
        return (values.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(max(values.count, 1))).squareRoot()
    }

    static func leastSquares(_ points: [(Double, Double)]) -> (slope: Double, r2: Double) {
        let mx = mean(points.map(\.0)), my = mean(points.map(\.1))
        let sxy = points.map { ($0.0 - mx) * ($0.1 - my) }.reduce(0, +)
        let sxx = points.map { ($0.0 - mx) * ($0.0 - mx) }.reduce(0, +)
        let syy = points.map { ($0.1 - my) * ($0.1 - my) }.reduce(0, +)
        guard sxx > 0 else { return (0, 0) }
        let slope = sxy / sxx
        return (slope, syy > 0 ? (sxy * sxy) / (sxx * syy) : 0)
    }

    private static func dayCount(_ n: Int) -> String { n == 1 ? "1 day" : "\(n) days" }
}
