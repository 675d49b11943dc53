import HealthCore
import HealthStore

/// Month calendars and year heatmaps as grids of day cells. Each cell carries `data-date`,
/// `data-metric` and `data-value` (the `daily_analytics` value, or the Activity rings' for
/// stand hours) and a band class `b0`…`b4` by the fraction of the day's goal (below 25, 50,
/// 75, 100 % and reached), `nd` without data. The page's script turns the attributes into a
/// tooltip. Ten years are some 18,000 cells: no title per cell and unquoted attribute values
/// (valid HTML for dates, names and numbers) keep the page under 2 MB.
enum CalendarGrid {
    static func band(_ fraction: Double?) -> String {
        guard let fraction else { return "nd" }
        switch fraction {
        case ..<0.25: return "b0"
        case ..<0.5: return "b1"
        case ..<0.75: return "b2"
        case ..<1: return "b3"
        default: return "b4"
        }
    }

    static func cell(_ date: CivilDate, _ day: ReportDay?, _ metric: ReportMetric, _ goals: ReportGoals, label: String = "") -> String {
        let value = day?.value(metric)
        // No value: an empty quoted attribute.
        let valueText = value.map { v in v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) } ?? "\"\""
        // A partial day keeps its band, outlined: its value is what there was at the export.
        // A travel day (issue 48) is marked too; a day away names its zone for the tooltip.
        let marks = (day?.partial == true ? " pt" : "") + (day?.travelDay == true ? " tr" : "")
        let band = band(day?.fraction(metric, goals))
        let cls = marks.isEmpty ? band : "\"\(band)\(marks)\""
        let zone = day?.away.map { " data-zone=\(Format.html(Format.place($0)).replacingOccurrences(of: " ", with: "_"))" } ?? ""
        return "<i class=\(cls) data-date=\(date.iso8601) data-metric=\(metric.column) data-value=\(valueText)\(zone)>\(label)</i>"
    }

    /// One month: weekday header, blank cells before the 1st (weeks start on Monday).
    static func month(_ first: CivilDate, days: [CivilDate: ReportDay], metric: ReportMetric, goals: ReportGoals) -> String {
        var s = #"<div class="cal">"#
        for name in ["M", "T", "W", "T", "F", "S", "S"] { s += "<b>\(name)</b>" }
        for _ in 0..<first.weekdayFromMonday { s += "<u></u>" }
        var d = first
        while d.month == first.month {
            s += cell(d, days[d], metric, goals, label: String(d.day))
            d = d.adding(days: 1)
        }
        return s + "</div>"
    }

    /// A year as 53 columns of weeks (Monday on top), one cell per day.
    static func year(_ year: Int, days: [CivilDate: ReportDay], metric: ReportMetric, goals: ReportGoals) -> String {
        let first = CivilDate(year: year, month: 1, day: 1)
        var s = #"<div class="heat">"#
        for _ in 0..<first.weekdayFromMonday { s += "<u></u>" }
        var d = first
        while d.year == year {
            s += cell(d, days[d], metric, goals)
            d = d.adding(days: 1)
        }
        return s + "</div>"
    }

    /// The bands are fractions of each day's goal, the same for every metric: one legend.
    static var legend: String {
        let labels = ["under 25% of the goal", "25–50%", "50–75%", "75–100%", "goal reached", "no data"]
        return #"<div class="legend" aria-label="Colours: fraction of the day's goal">"#
            + zip(["b0", "b1", "b2", "b3", "b4", "nd"], labels).map { #"<span><i class="\#($0)"></i>\#($1)</span>"# }.joined()
            + #"<span><i class="nd pt"></i>partial day (the first day of data, the export's day): not counted</span>"#
            + #"<span><i class="nd tr"></i>travel day (between two time zones): a day away counts in the local time of where you were</span></div>"#
    }
}
