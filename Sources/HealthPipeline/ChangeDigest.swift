import HealthCore
import HealthStore

/// What an import changed, from the store's days before and after it: new complete days, a new
/// best day of steps, the step-goal streak they extend, resting heart rate or sleep moving away
/// from the person's 90-day baseline, and gaps without data among the new days. A pure function:
/// the same two lists always give the same lines.
package enum ChangeDigest {
    /// How far the last 7 days must move from the baseline to be told.
    package static let restingHeartRateShift = 3.0   // bpm
    package static let sleepShift = 45.0             // minutes
    /// Days without data in a row that make a gap worth a line.
    package static let gapDays = 2

    package static func changes(before: [DigestDay], after: [DigestDay], stepGoal: Double = 10_000) -> [DigestChange] {
        let beforeComplete = Set(before.filter { !$0.partial }.map(\.date))
        let complete = after.filter { !$0.partial }.sorted { $0.date < $1.date }
        let fresh = complete.filter { !beforeComplete.contains($0.date) }
        guard let first = fresh.first, let last = fresh.last else { return [] }
        var out = [DigestChange(kind: "new-days", text: fresh.count == 1
            ? "1 new complete day: \(text(first.date))"
            : "\(fresh.count) new complete days: \(text(first.date)) – \(text(last.date))")]
        let freshDates = Set(fresh.map(\.date))
        // A best only against days the person already had: the first import has nothing to beat.
        let old = complete.filter { !freshDates.contains($0.date) }
        if let previous = old.compactMap(\.steps).max(), let best = fresh.filter({ ($0.steps ?? 0) > previous }).max(by: { ($0.steps ?? 0) < ($1.steps ?? 0) }),
           let steps = best.steps {
            out.append(DigestChange(kind: "best", text: "New best: \(count(steps)) steps on \(text(best.date)) (before: \(count(previous)))"))
        }
        // The step-goal streak up to the latest complete day, when a new day extends it.
        if let latest = complete.last, freshDates.contains(latest.date) {
            var streak = 0
            var day = latest.date
            let byDate = Dictionary(complete.map { ($0.date, $0) }, uniquingKeysWith: { a, _ in a })
            while let d = byDate[day], (d.steps ?? 0) >= stepGoal { streak += 1; day = day.adding(days: -1) }
            if streak >= 2 {
                out.append(DigestChange(kind: "streak", text: "Step goal (\(count(stepGoal))) reached \(streak) days in a row"))
            }
        }
        out += baseline(complete, lastNew: last.date, \.restingHeartRate, shift: restingHeartRateShift, name: "Resting heart rate") {
            "\(count($0)) bpm"
        }
        out += baseline(complete, lastNew: last.date, \.sleepMinutes, shift: sleepShift, name: "Sleep") { hours($0) }
        // Days without any data among the new ones (after the last day the store had before).
        let start = before.map(\.date).max().map { $0.adding(days: 1) } ?? complete.first!.date
        let present = Set(after.map(\.date))
        var run: [CivilDate] = []
        var day = start
        while day <= last.date {
            if present.contains(day) { if run.count >= gapDays { out.append(gap(run)) }; run = [] } else { run.append(day) }
            day = day.adding(days: 1)
        }
        return out
    }

    /// The last 7 complete days against the 90 days before them, told when a new day is among
    /// the 7 and the difference is at least `shift` (at least 14 days of baseline and 4 recent).
    static func baseline(_ days: [DigestDay], lastNew: CivilDate, _ value: KeyPath<DigestDay, Double?>, shift: Double,
                         name: String, show: (Double) -> String) -> [DigestChange] {
        guard let latest = days.last?.date else { return [] }
        let recentStart = latest.adding(days: -6)
        guard lastNew >= recentStart else { return [] }
        let recent = days.filter { $0.date >= recentStart }.compactMap { $0[keyPath: value] }
        let base = days.filter { $0.date < recentStart && $0.date >= recentStart.adding(days: -90) }.compactMap { $0[keyPath: value] }
        guard recent.count >= 4, base.count >= 14 else { return [] }
        let now = recent.reduce(0, +) / Double(recent.count), usual = base.reduce(0, +) / Double(base.count)
        guard abs(now - usual) >= shift else { return [] }
        return [DigestChange(kind: "baseline", text: "\(name) \(show(now)) over the last 7 days, \(now > usual ? "up" : "down") from a 90-day baseline of \(show(usual))")]
    }

    static func gap(_ days: [CivilDate]) -> DigestChange {
        DigestChange(kind: "gap", text: "No data from \(text(days.first!)) to \(text(days.last!)) (\(days.count) days)")
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static func text(_ d: CivilDate) -> String { "\(d.day) \(months[d.month - 1]) \(d.year)" }
    static func hours(_ minutes: Double) -> String {
        let m = Int(minutes.rounded())
        return "\(m / 60) h \(m % 60 < 10 ? "0" : "")\(m % 60) min"
    }
    static func count(_ v: Double) -> String {
        let digits = String(Int(v.rounded()))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 && c != "-" { out.append(",") }
            out.append(c)
        }
        return out
    }
}
