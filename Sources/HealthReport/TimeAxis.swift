import HealthCore

/// The date axis of a chart: x proportional to time (an 11-month gap between two measurements
/// looks like eleven months, not like the next day), and date labels that never overlap, with
/// the year wherever the range crosses one (issue 45).
struct TimeAxis {
    let first: CivilDate, last: CivilDate
    /// The x of the first and the last date's centre.
    let left: Double, right: Double

    var days: Int { last.daysSinceEpoch - first.daysSinceEpoch }
    var crossesYear: Bool { first.year != last.year }

    /// Pixels per day.
    var scale: Double { days == 0 ? 0 : (right - left) / Double(days) }

    func x(_ date: CivilDate) -> Double {
        days == 0 ? (left + right) / 2 : left + scale * Double(date.daysSinceEpoch - first.daysSinceEpoch)
    }

    /// The width of an 11 px label, with room around it: generous, so no two ever touch.
    static func labelWidth(_ text: String) -> Double { Double(text.count) * 6.6 + 8 }

    /// Labels at the given dates, as many as fit without overlapping inside `0...width`: the
    /// latest first (the data a reader looks for), then the earliest, then the rest from the
    /// left. Where the range crosses a year, the first label shown and the first of each new
    /// year carry the year.
    func labels(at dates: [CivilDate], width: Double, y: Double) -> String {
        let sorted = Array(Set(dates)).sorted()
        guard let latest = sorted.last, let earliest = sorted.first else { return "" }
        func text(_ d: CivilDate, withYear: Bool) -> String { withYear ? Format.day(d) : Format.shortDay(d) }
        // Room is planned for the longer text, so adding the year later never makes an overlap.
        func span(_ d: CivilDate) -> ClosedRange<Double> {
            let w = Self.labelWidth(text(d, withYear: crossesYear))
            let centre = min(max(x(d), w / 2), width - w / 2)
            return (centre - w / 2)...(centre + w / 2)
        }
        var kept: [CivilDate] = []
        for d in [latest, earliest] + sorted.dropFirst().dropLast() where !kept.contains(d) {
            let s = span(d)
            if kept.allSatisfy({ !span($0).overlaps(s) }) { kept.append(d) }
        }
        var out = "", previousYear: Int?
        for d in kept.sorted() {
            let s = span(d)
            let label = text(d, withYear: crossesYear && d.year != previousYear)
            previousYear = d.year
            out += #"<text class="lbl" x="\#(SVGCharts.f((s.lowerBound + s.upperBound) / 2))" y="\#(SVGCharts.f(y))">\#(label)</text>"#
        }
        return out
    }
}
