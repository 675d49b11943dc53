import HealthCore
import HealthStore

/// The report's Data quality section (docs/data-quality.md): a wear calendar of valid,
/// low-wear, partial and missing days, the days where our total and the Activity rings differ
/// most with each source's own total, and the source list. Read through `HealthStore`.
package struct ReportQuality: Sendable {
    package var days: [HealthStore.QualityDay] = []
    package var gaps: [HealthStore.RingsGap] = []
    package var sources: [HealthStore.InventorySource] = []
    package init() {}

    /// How many ring differences the section lists.
    static let gapCount = 5
    /// The wear calendar shows at most this many months, the newest.
    static let calendarMonths = 12

    static func load(_ store: HealthStore) throws -> ReportQuality {
        var q = ReportQuality()
        q.days = try store.qualityDays()
        q.gaps = try store.largestRingsGaps(limit: gapCount)
        q.sources = try store.sourceInventory()
        return q
    }
}

extension ReportPage {
    var dataQuality: String {
        let q = data.quality
        var s = #"<section id="quality"><h2>Data quality</h2>"#
        guard let first = q.days.first?.date, let last = q.days.last?.date else {
            return s + #"<p class="empty">No data-quality figures yet.</p></section>"#
        }
        let valid = q.days.filter(\.valid).count
        s += #"<p class="note">\#(valid) of \#(q.days.count) days with data are valid (at least the configured hours of wear: "#
            + "hours holding a heart-rate sample). Solid: valid; pale: worn too little; outlined: partial; empty: no data.</p>"
        s += wearCalendar(q.days, from: first, through: last)
        s += ringsGaps(q.gaps)
        s += sourceList(q.sources)
        return s + "</section>"
    }

    private func wearCalendar(_ days: [HealthStore.QualityDay], from first: CivilDate, through last: CivilDate) -> String {
        let byDate = Dictionary(days.map { ($0.date, $0) }, uniquingKeysWith: { a, _ in a })
        var month = CivilDate(year: last.year, month: last.month, day: 1)
        var months: [CivilDate] = []
        let firstMonth = CivilDate(year: first.year, month: first.month, day: 1)
        while month >= firstMonth && months.count < ReportQuality.calendarMonths {
            months.insert(month, at: 0)
            month = month.month == 1 ? CivilDate(year: month.year - 1, month: 12, day: 1) : CivilDate(year: month.year, month: month.month - 1, day: 1)
        }
        var s = #"<div class="views"><div class="months">"#
        for m in months {
            s += #"<div class="month"><h3>\#(Format.month(m))</h3><div class="cal">"#
            for name in ["M", "T", "W", "T", "F", "S", "S"] { s += "<b>\(name)</b>" }
            for _ in 0..<m.weekdayFromMonday { s += "<u></u>" }
            var d = m
            while d.month == m.month {
                s += wearCell(d, byDate[d])
                d = d.adding(days: 1)
            }
            s += "</div></div>"
        }
        return s + "</div></div>"
    }

    /// A day's cell: the calendar's bands (valid b4, worn too little b1, no data nd), a partial day outlined.
    private func wearCell(_ date: CivilDate, _ day: HealthStore.QualityDay?) -> String {
        guard let day else {
            return "<i class=nd data-date=\(date.iso8601) data-quality=missing data-metric=watch_hours data-value=\"\">\(date.day)</i>"
        }
        let band = day.valid ? "b4" : "b1"
        let kind = day.partial ? "partial" : day.valid ? "valid" : "low-wear"
        let cls = day.partial ? "\"\(band) pt\"" : band
        return "<i class=\(cls) data-date=\(date.iso8601) data-quality=\(kind) data-metric=watch_hours data-value=\(day.watchHours)>\(date.day)</i>"
    }

    private static let metricNames = ["active_energy_kcal": ("Active energy", "kcal"), "exercise_minutes": ("Exercise", "min")]

    private func ringsGaps(_ gaps: [HealthStore.RingsGap]) -> String {
        var s = "<h3>Where our total and the Activity rings differ most</h3>"
        guard !gaps.isEmpty else { return s + #"<p class="empty">No Activity rings to compare with.</p>"# }
        s += Format.tableStart(["Day", "Metric", "Ours", "Rings", "Difference", "All sources summed", "Each source"],
                               class: "quality-gaps")
        for g in gaps {
            let (name, unit) = Self.metricNames[g.metric] ?? (g.metric, "")
            let each = g.sources.map { src in
                Format.html(src.source) + (src.priority.map { " (#\($0))" } ?? "") + ": " + Format.number(src.total, places: 0)
            }.joined(separator: "; ")
            s += "<tr\(g.disagree ? #" class="disagree""# : "")><td>\(Format.day(g.date))</td><td>\(Format.html(name))</td>"
                + "<td>\(Format.number(g.merged, places: 0)) \(unit)</td><td>\(Format.number(g.rings, places: 0)) \(unit)</td>"
                + "<td>\(g.difference >= 0 ? "+" : "")\(Format.number(g.difference, places: 0))</td>"
                + "<td>\(Format.number(g.allSourcesSum, places: 0))\(Self.copiesNote(g.duplicatesDropped))</td><td>\(each)</td></tr>"
        }
        return s + "</tbody></table>"
    }

    /// The exact copies the load dropped that day (not in any sum), when there were any.
    static func copiesNote(_ copies: Int?) -> String {
        guard let copies, copies > 0 else { return "" }
        return "<br><small>\(copies) exact \(copies == 1 ? "copy" : "copies") dropped</small>"
    }

    private func sourceList(_ sources: [HealthStore.InventorySource]) -> String {
        var s = "<h3>Sources</h3>"
        guard !sources.isEmpty else { return s + #"<p class="empty">No sources.</p>"# }
        s += Format.tableStart(["Priority", "Source", "Device", "Records", "Types", "First seen", "Last seen"],
                               class: "quality-sources")
        for src in sources {
            s += "<tr><td>\(src.priority.map(String.init) ?? "")</td><td>\(Format.html(src.source))</td>"
                + "<td>\(Format.html(src.deviceModel ?? ""))</td><td>\(Format.count(Double(src.records)))</td><td>\(src.types)</td>"
                + "<td>\(Format.day(src.firstSeen))</td><td>\(Format.day(src.lastSeen))</td></tr>"
        }
        return s + "</tbody></table>"
    }
}
