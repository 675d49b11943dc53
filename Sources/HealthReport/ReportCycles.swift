import HealthCore
import HealthStore

/// The report's Cycles section (docs/cycles.md), only when the store has cycle data: a
/// calendar of the last months with cycle records (period days by flow, spotting, positive
/// ovulation tests) and the lengths of the complete cycles over time. It shows what was
/// recorded and nothing it cannot know: no predicted period or fertile window, no length for
/// the open cycle or for one whose start lies before the data.
struct ReportCyclesSection {
    let cycles: [StoredCycle]
    let days: [StoredCycleDay]

    /// Months shown in the calendar, the most recent with cycle records.
    static let monthsShown = 6

    var isEmpty: Bool { cycles.isEmpty && days.isEmpty }

    /// Kept with the section (not in the page's style): a page without cycle data is unchanged.
    static let css = """
    #cycles .months{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,250px),1fr));gap:8px 18px}
    #cycles .cal i{cursor:default}#cycles i.cd{background:var(--nd);color:#777}#cycles i.cp{background:#f3b8c4}
    #cycles i.f-medium{background:#e67b93;color:#fff}#cycles i.f-heavy{background:#b8324f;color:#fff}
    #cycles i.cs{box-shadow:inset 0 -4px 0 #b8324f}#cycles i.co{outline:2px solid #6a4fb3;outline-offset:-2px}
    """

    var html: String {
        guard !isEmpty else { return "" }
        var s = #"<section id="cycles"><h2>Cycles</h2><style>"# + Self.css + "</style>"
        s += #"<p class="note">\#(Format.html(summary))</p>"#
        s += calendar
        let lengths = cycles.compactMap { c in c.length.map { (date: c.start, value: Double($0)) } }
        if lengths.count >= 2 {
            s += "<h3>Cycle lengths</h3>" + SVGCharts.line(lengths, unit: "days", gapDays: 400, title: "Cycle length in days, by start")
        }
        s += table
        return s + "</section>"
    }

    /// What the cycles were, in words: counts and the range of complete lengths only.
    var summary: String {
        guard let first = cycles.first, let last = cycles.last else {
            return "Cycle records (temperature, tests or spotting) but no period recorded."
        }
        let lengths = cycles.compactMap(\.length).sorted()
        var text = "\(cycles.count) cycle\(cycles.count == 1 ? "" : "s") from \(Format.day(first.start)) to \(Format.day(last.start))"
        if let shortest = lengths.first, let longest = lengths.last {
            let median = lengths.count % 2 == 1 ? Double(lengths[lengths.count / 2])
                : Double(lengths[lengths.count / 2 - 1] + lengths[lengths.count / 2]) / 2
            text += "; \(lengths.count) with a known length: \(shortest)–\(longest) days, median \(Format.number(median, places: median == median.rounded() ? 0 : 1))"
        }
        text += ". The last cycle is still open: it has no length."
        if cycles.contains(where: { !$0.complete }) {
            text += " The first began before the data did: its start and length are not known."
        }
        return text
    }

    private var calendar: String {
        let byDate = Dictionary(days.map { ($0.date, $0) }, uniquingKeysWith: { a, _ in a })
        let months = Array(Set(days.map { CivilDate(year: $0.date.year, month: $0.date.month, day: 1) })).sorted()
            .suffix(Self.monthsShown)
        var s = #"<div class="months">"#
        for m in months {
            s += #"<div data-month="\#(String(m.iso8601.prefix(7)))"><h3>\#(Format.month(m))</h3><div class="cal">"#
            for name in ["M", "T", "W", "T", "F", "S", "S"] { s += "<b>\(name)</b>" }
            for _ in 0..<m.weekdayFromMonday { s += "<u></u>" }
            var d = m
            while d.month == m.month {
                s += Self.cell(d, byDate[d])
                d = d.adding(days: 1)
            }
            s += "</div></div>"
        }
        s += "</div>"
        return s + #"<div class="legend"><span><i style="background:#f3b8c4"></i>period, light or no level</span>"#
            + #"<span><i style="background:#e67b93"></i>medium flow</span><span><i style="background:#b8324f"></i>heavy flow</span>"#
            + #"<span><i style="box-shadow:inset 0 -4px 0 #b8324f;background:var(--nd)"></i>spotting</span>"#
            + #"<span><i style="outline:2px solid #6a4fb3;outline-offset:-2px;background:var(--nd)"></i>positive ovulation test</span></div>"#
    }

    static func cell(_ date: CivilDate, _ day: StoredCycleDay?) -> String {
        var classes = [day?.inPeriod == true ? "cp" : "cd"]
        if let flow = day?.flow, day?.inPeriod == true { classes.append("f-" + flow) }
        if day?.spotting == true { classes.append("cs") }
        if day?.ovulationTest == "positive" { classes.append("co") }
        let attributes = (day?.flow.map { " data-flow=\($0)" } ?? "") + (day?.cycleDay.map { " data-cycle-day=\($0)" } ?? "")
        return "<i class=\"\(classes.joined(separator: " "))\" data-date=\(date.iso8601)\(attributes)>\(date.day)</i>"
    }

    private var table: String {
        var s = Format.tableStart(["Start", "Period (days)", "Cycle (days)"], numeric: [1, 2], class: "cycles")
        for c in cycles.suffix(12).reversed() {
            let length = c.length.map(String.init) ?? (c.complete ? "open" : "not known")
            s += "<tr data-start=\(c.start.iso8601)><td>\(Format.day(c.start))\(c.complete ? "" : " (partial)")</td>"
                + "<td class=num>\(c.periodDays.map(String.init) ?? "not known")</td><td class=num>\(length)</td></tr>"
        }
        return s + "</tbody></table>"
    }
}
