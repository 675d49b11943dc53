import HealthCore
import HealthPresentation
import HealthStore

/// The report as one self-contained HTML page: inline CSS, inline SVG, a few lines of script
/// for the month and year pickers and the tooltips, and a Content-Security-Policy that lets
/// the page fetch nothing at all (it is health data; it opens from a file, offline).
package struct ReportPage: Sendable {
    package let data: ReportData
    package let goals: ReportGoals
    /// Distances in km or mi (the store's metres either way).
    package let units: UnitSystem

    /// The page depends on the data, the goals and the units only (no "generated at"): an
    /// import rewrites it when the data changed, and the same store always gives the same bytes.
    package init(data: ReportData, goals: ReportGoals, units: UnitSystem = .metric) {
        self.data = data; self.goals = goals; self.units = units
    }

    static let calendarMetrics: [ReportMetric] = [.steps, .activeEnergy, .exercise, .sleep]

    package var html: String {
        var s = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        s += #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">"#
        s += #"<meta name="viewport" content="width=device-width, initial-scale=1"><title>Health report</title>"#
        s += "<style>" + ReportStyle.css + "</style></head><body>"
        s += header
        // The page opens on the last complete day; the export's own day is shown as "so far".
        guard let latest = data.latestComplete else {
            return s + #"<main><p class="empty">No days with data yet.</p></main></body></html>"#
        }
        s += "<main>" + ReportChanges.section(data.changes) + dashboard(latest) + trends(latest) + sleep + workouts + heart
            + ReportVitalsSection(vitals: data.vitals, units: units).html + cycles.html + insights + dataQuality + "</main>"
        s += #"<div id="tip" role="tooltip" hidden></div><script>"# + ReportStyle.script + "</script></body></html>"
        return s
    }

    private var header: String {
        let span = data.days.first.map { "\(Format.day($0.date)) – \(Format.day(data.days.last!.date))" } ?? "no data yet"
        return #"<header><h1>Health report</h1><p>\#(span) · local days in \#(Format.html(data.timeZone))</p>"#
            + ##"<nav><a href="#dashboard">Today</a><a href="#trends">Trends</a><a href="#sleep">Sleep</a>"##
            + ##"<a href="#workouts">Workouts</a><a href="#heart">Heart</a><a href="#vitals">Vitals</a>"##
            + (cycles.isEmpty ? "" : ##"<a href="#cycles">Cycles</a>"##) + ##"<a href="#insights">Insights</a><a href="#quality">Data quality</a></nav></header>"##
    }

    private var cycles: ReportCyclesSection { ReportCyclesSection(cycles: data.cycles, days: data.cycleDays) }

    private var byDate: [CivilDate: ReportDay] { Dictionary(data.days.map { ($0.date, $0) }, uniquingKeysWith: { a, _ in a }) }

    // MARK: dashboard

    /// Which goal came from where on the day shown (issue 44): "Goals: move, exercise and stand from
    /// your Activity rings that day; sleep from your sleep goal in Health; steps: the default."
    static func goalOrigins(_ day: ReportDay, _ goals: ReportGoals) -> String {
        var by: [ReportDay.GoalOrigin: [String]] = [:]
        for metric in ReportMetric.allCases { by[day.goalAndOrigin(metric, goals).origin, default: []].append(metric.goalName) }
        func list(_ names: [String]) -> String {
            names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
        var parts: [String] = []
        if let names = by[.export] {
            let rings = names.filter { $0 != ReportMetric.sleep.goalName }, sleep = names.contains(ReportMetric.sleep.goalName)
            if !rings.isEmpty { parts.append(list(rings) + " from your Activity ring goals that day") }
            if sleep { parts.append("sleep from the sleep goal set in Health") }
        }
        if let names = by[.settings] { parts.append(list(names) + " as the settings set (person or pipeline)") }
        if let names = by[.defaults] { parts.append(list(names) + ": the defaults") }
        return #"<p class="note" data-goals>Goals: \#(parts.joined(separator: "; ")).</p>"#
    }

    private func dashboard(_ latest: ReportDay) -> String {
        var s = #"<section id="dashboard"><h2>\#(Format.day(latest.date))\#(Format.whereDay(latest))</h2><div class="cards">"#
        let ringParts: [(ReportMetric, String)] = [(.activeEnergy, "move"), (.exercise, "exercise"), (.stand, "stand")]
        // Every ring keeps its place (move outside, stand inside) and its track, even at 0 or
        // with no data, so the picture reads the same every day.
        let rings = ringParts.map { m, cls in (m.title, latest.fraction(m, goals) ?? 0, cls) }
        s += #"<div class="card rings"><div>"# + SVGCharts.rings(rings) + Self.ringLegend(latest, goals) + "</div><ul>"
        for metric in ReportMetric.allCases {
            let goal = latest.goal(metric, goals)
            let places = metric == .sleep || metric == .stand ? 1 : 0
            let value = latest.shown(metric)
            let percent = value.map { Int(($0 / max(goal, 1e-9) * 100).rounded()) }
            // Value and goal in one grid cell: a bare text node would take a row of its own.
            s += #"<li class="goalbar"><span>\#(metric.title)</span><b>\#(value.map { SVGCharts.number($0, places) } ?? "–")"#
                + #"<small> / \#(SVGCharts.number(goal, places)) \#(metric.unit)</small></b><meter min="0" max="1" value="\#(min(percent.map { Double($0) / 100 } ?? 0, 1))"></meter>"#
                + #"<em>\#(percent.map { "\($0)%" } ?? Self.noValue(metric, latest))</em></li>"#
        }
        s += "</ul>" + #"<p class="note">Rings: move is the day's active energy and exercise its exercise minutes, each summed from the samples, against the Watch's ring goal; stand hours are the Watch's Activity ring. Steps and sleep are summed from the samples.</p>"#
            + Self.goalOrigins(latest, goals) + "</div>"
        s += soFar
        let week = (0..<7).map { latest.date.adding(days: $0 - 6) }
        let stepGoal = latest.goal(.steps, goals)
        // A bar takes the "goal reached" colour only when its own day reached the goal; the
        // latest day is marked by its outline, not by a colour the legend gives another meaning.
        let bars = week.map { d in
            SVGCharts.Bar(label: "\(weekdayName(d)) \(d.day)", value: byDate[d]?.steps, highlight: d == latest.date,
                          reached: byDate[d].map { ($0.steps ?? 0) >= $0.goal(.steps, goals) } ?? false)
        }
        s += #"<div class="card"><h3>Steps, last 7 days</h3>"# + SVGCharts.bars(bars, goal: stepGoal, unit: "steps",
                                                                                   title: "Steps of the last 7 days") + "</div>"
        if let night = data.nights.last {
            s += #"<div class="card"><h3>Last night (\#(Format.day(night.date))\#(Format.whereDay(byDate[night.date])))</h3>"#
                + Self.lastNight(night) + "</div>"
        }
        return s + "</div></section>"
    }

    /// The export's own day, as far as it went: never counted (docs/days-and-averages.md).
    private var soFar: String {
        guard let day = data.exportDay, let export = data.export else { return "" }
        var s = #"<div class="card sofar" data-partial="\#(day.date.iso8601)"><h3>\#(Format.day(day.date)) so far (exported \#(Format.clock(export.minutes)))</h3><ul>"#
        for metric in ReportMetric.allCases where metric != .sleep {
            guard let value = day.shown(metric) else { continue }
            s += "<li>\(Format.html(metric.title)): \(SVGCharts.number(value, metric == .stand ? 1 : 0)) \(metric.unit)</li>"
        }
        return s + #"</ul><p class="note">A day in progress when the export was taken: not counted in averages, streaks or comparisons until a later export completes it.</p></div>"#
    }

    // MARK: trends

    private func trends(_ latest: ReportDay) -> String {
        var s = #"<section id="trends"><h2>Trends</h2>"#
        for (id, label, checked) in [("week", "Week", false), ("month", "Month", true), ("year", "Year", false)] {
            s += #"<input type="radio" name="view" id="view-\#(id)"\#(checked ? " checked" : "")><label class="tab" for="view-\#(id)">\#(label)</label>"#
        }
        s += #"<div class="views">"# + weekView(latest) + monthView(latest) + yearView(latest) + "</div></section>"
        return s
    }

    private func weekView(_ latest: ReportDay) -> String {
        let start = latest.date.startOfWeek(weekStart: 0)
        var s = #"<div class="view week"><p class="note">The week of \#(Format.day(start)), day by day, against the week before (pale).</p><div class="cards">"#
        for metric in Self.calendarMetrics {
            let places = metric == .sleep ? 1 : 0
            let bars = (0..<7).map { i -> SVGCharts.Bar in
                let d = start.adding(days: i)
                return SVGCharts.Bar(label: "\(weekdayName(d)) \(d.day)", value: byDate[d]?.shown(metric),
                                     previous: byDate[d.adding(days: -7)]?.shown(metric))
            }
            // A day a week: over its complete days with data, a day of 0 counted (docs/days-and-averages.md).
            func counted(_ from: CivilDate) -> [Double] {
                (0..<7).compactMap { byDate[from.adding(days: $0)].flatMap { $0.partial ? nil : $0.shown(metric) } }
            }
            let now = counted(start), before = counted(start.adding(days: -7))
            let change = !now.isEmpty && !before.isEmpty && Insights.mean(before) > 0
                ? " · " + Format.percent((Insights.mean(now) - Insights.mean(before)) / Insights.mean(before) * 100) + " vs last week" : ""
            s += #"<div class="card"><h3>\#(metric.title)</h3><p class="note">\#(now.isEmpty ? "no data" : SVGCharts.number(Insights.mean(now), places) + " \(metric.unit) a day")\#(change)</p>"#
                + SVGCharts.bars(bars, goal: latest.goal(metric, goals), unit: metric.unit, places: places,
                                 title: "\(metric.title) this week and the week before") + "</div>"
        }
        return s + "</div></div>"
    }

    private var months: [CivilDate] {
        Array(Set(data.days.map { CivilDate(year: $0.date.year, month: $0.date.month, day: 1) })).sorted()
    }

    private func monthView(_ latest: ReportDay) -> String {
        let months = self.months
        let opened = CivilDate(year: latest.date.year, month: latest.date.month, day: 1)
        let days = byDate
        var s = #"<div class="view month">"#
        for (i, metric) in Self.calendarMetrics.enumerated() {
            s += #"<input type="radio" name="mmetric" id="mm-\#(metric.rawValue)"\#(i == 0 ? " checked" : "")><label class="chip" for="mm-\#(metric.rawValue)">\#(metric.title)</label>"#
        }
        s += #"<select id="month-pick" aria-label="Month">"#
        for m in months.reversed() {
            s += #"<option value="\#(String(m.iso8601.prefix(7)))"\#(m == opened ? " selected" : "")>\#(Format.month(m))</option>"#
        }
        s += #"</select><div class="months">"#
        for m in months {
            s += #"<div class="mon\#(m == opened ? " on" : "")" data-month="\#(String(m.iso8601.prefix(7)))"><h3>\#(Format.month(m))</h3>"#
            for metric in Self.calendarMetrics {
                s += #"<div class="m-\#(metric.rawValue)">"# + CalendarGrid.month(m, days: days, metric: metric, goals: goals) + "</div>"
            }
            s += "</div>"
        }
        return s + "</div>" + CalendarGrid.legend + "</div>"
    }

    private func yearView(_ latest: ReportDay) -> String {
        let years = Array(Set(data.days.map(\.date.year))).sorted()
        let opened = latest.date.year
        let days = byDate, complete = data.completeDays
        var s = #"<div class="view year"><select id="year-pick" aria-label="Year">"#
        for y in years.reversed() { s += #"<option value="\#(y)"\#(y == opened ? " selected" : "")>\#(y)</option>"# }
        s += "</select>"
        for y in years {
            let bars = (1...12).map { month -> SVGCharts.Bar in
                let values = complete.filter { $0.date.year == y && $0.date.month == month }.compactMap(\.steps)
                return SVGCharts.Bar(label: String(Format.monthNames[month - 1].prefix(1)),
                                     value: values.isEmpty ? nil : Insights.mean(values))
            }
            s += #"<div class="yr\#(y == opened ? " on" : "")" data-year="\#(y)"><h3>\#(y): steps a day, by month</h3>"#
                + SVGCharts.bars(bars, goal: goals.resolved.steps, unit: "steps a day", width: 720, title: "Steps a day by month, \(y)")
                + CalendarGrid.year(y, days: days, metric: .steps, goals: goals) + "</div>"
        }
        return s + CalendarGrid.legend + "</div>"
    }

    // MARK: sleep, workouts, heart, insights

    private var sleep: String {
        guard let latest = data.nights.last?.date else {
            return #"<section id="sleep"><h2>Sleep</h2><p class="empty">No sleep recorded.</p></section>"#
        }
        // The charts' time axis: the 30 days to the latest night, a night without a record a gap.
        let recent = data.nights.filter { $0.date > latest.adding(days: -30) }
        var s = #"<section id="sleep"><h2>Sleep</h2><p class="note">\#(Format.html(Self.sleepAverage(recent)))</p>"#
        s += #"<div class="card wide"><h3>Stages, the 30 days to \#(Format.day(latest))</h3>"# + SVGCharts.nights(recent)
            + #"<div class="legend"><span><i class="deep"></i>Deep</span><span><i class="core"></i>Core</span><span><i class="rem"></i>REM</span><span><i class="unspec"></i>Asleep</span><span><i class="awake"></i>Awake</span>"#
            + (recent.contains(where: \.isInBedOnly) ? #"<span><i class="inbed"></i>In bed (no sleep stages recorded)</span>"# : "")
            + "</div></div>"
        s += #"<div class="card wide"><h3>Bedtime and wake time</h3>"# + SVGCharts.bedAndWake(recent)
        if let regularity = Insights.sleepRegularity(data.nights) { s += #"<p class="note">\#(Format.html(regularity.text))</p>"# }
        return s + "</div></section>"
    }

    private var workouts: String {
        guard let last = data.workouts.map(\.date).max() ?? data.days.last?.date,
              let firstDay = data.days.first?.date ?? data.workouts.first?.date else { return "" }
        // The last 12 weeks, or fewer when the data is younger.
        let firstWeek = max(last.startOfWeek(weekStart: 0).adding(days: -7 * 11), firstDay.startOfWeek(weekStart: 0))
        let weekCount = (last.daysSinceEpoch - firstWeek.daysSinceEpoch) / 7 + 1
        let recent = data.workouts.filter { $0.date >= firstWeek }
        var s = #"<section id="workouts"><h2>Workouts</h2>"#
        guard !recent.isEmpty else { return s + #"<p class="empty">No workouts in the last 12 weeks.</p></section>"# }
        let bars = (0..<weekCount).map { w -> SVGCharts.Bar in
            let start = firstWeek.adding(days: 7 * w)
            let energy = recent.filter { $0.date >= start && $0.date < start.adding(days: 7) }.compactMap(\.energyKcal)
            return SVGCharts.Bar(label: Format.shortDay(start), value: energy.isEmpty ? nil : energy.reduce(0, +))
        }
        let weeks = (0..<weekCount).map { firstWeek.adding(days: 7 * $0) }
        s += #"<div class="card wide"><h3>Workout energy per week (kcal)</h3>"# + SVGCharts.bars(bars, unit: "kcal", width: 720, dates: weeks,
                                                                                               title: "Workout energy per week") + "</div>"
        let distance = units.show("distance_m", spreadsheet: true)
        s += Format.tableStart(["Week", "Type", "Workouts", "Minutes", distance.title, "Energy (kcal)"], numeric: [2, 3, 4, 5])
        for w in (0..<weekCount).reversed() {
            let start = firstWeek.adding(days: 7 * w)
            let week = recent.filter { $0.date >= start && $0.date < start.adding(days: 7) }
            for type in Array(Set(week.map(\.type))).sorted() {
                let these = week.filter { $0.type == type }
                let km = distance.convert(these.compactMap(\.distanceMeters).reduce(0, +))
                s += "<tr><td>\(Format.day(start))</td><td>\(Format.html(type))</td><td class=num>\(these.count)</td>"
                    + "<td class=num>\(Format.count(these.compactMap(\.minutes).reduce(0, +)))</td>"
                    + "<td class=num>\(km > 0 ? Format.number(km, places: 1) : "–")</td>"
                    + "<td class=num>\(Format.count(these.compactMap(\.energyKcal).reduce(0, +)))</td></tr>"
            }
        }
        return s + "</tbody></table></section>"
    }

    private var heart: String {
        var s = #"<section id="heart"><h2>Heart</h2>"#
        var any = false
        for (name, series, unit) in [("Resting heart rate", data.restingHeartRate, "bpm"), ("Heart rate variability (SDNN)", data.hrv, "ms")] {
            let recent = series.suffix(180)
            guard recent.count >= 2 else { continue }
            any = true
            s += #"<div class="card wide"><h3>\#(name), last \#(recent.count) days with data</h3>"#
                + SVGCharts.line(recent.map { ($0.0, $0.1) }, unit: unit, title: "\(name) (\(unit)) by day") + "</div>"
        }
        if !data.ecg.isEmpty {
            // The latest recordings, newest first: what the Watch classified, as it said it.
            let shown = data.ecg.suffix(12).reversed()
            s += #"<div class="card wide"><h3>ECG recordings\#(data.ecg.count > shown.count ? ", the last \(shown.count) of \(data.ecg.count)" : "")</h3>"#
                + Format.tableStart(["Date", "Classification", "Average heart rate (bpm)", "Symptoms"])
            for r in shown {
                s += "<tr data-ecg=\(r.date.iso8601)><td>\(Format.day(r.date))</td><td>\(Format.html(r.classification ?? "–"))</td>"
                    + "<td>\(r.averageHeartRate.map { Format.count($0) } ?? "–")</td><td>\(Format.html(r.symptoms ?? "–"))</td></tr>"
            }
            s += "</tbody></table></div>"
        }
        let nothing = !any && data.ecg.isEmpty
        return s + (nothing ? #"<p class="empty">No resting heart rate, HRV or ECG recorded.</p>"# : "") + "</section>"
    }

    private var insights: String {
        let all = Insights.all(data, goals: goals)
        return #"<section id="insights"><h2>Insights</h2><ul class="insights">"#
            + all.map { #"<li data-insight="\#($0.kind)">\#(Format.html($0.text))</li>"# }.joined() + "</ul></section>"
    }

    /// The rings' colours with their numbers: value, goal and percentage of each.
    static func ringLegend(_ day: ReportDay, _ goals: ReportGoals) -> String {
        var s = #"<div class="legend ringlegend">"#
        for (metric, cls) in [(ReportMetric.activeEnergy, "move"), (.exercise, "exercise"), (.stand, "stand")] {
            let places = metric == .stand ? 1 : 0
            let value = day.shown(metric).map { SVGCharts.number($0, places) } ?? "–"
            let percent = day.fraction(metric, goals).map { " (\(Int(($0 * 100).rounded()))%)" } ?? ""
            s += #"<span><i class="sw \#(cls)"></i>\#(metric == .activeEnergy ? "Move" : metric.title): \#(value)/\#(SVGCharts.number(day.goal(metric, goals), places)) \#(metric.unit)\#(percent)</span>"#
        }
        return s + "</div>"
    }

    private func weekdayName(_ d: CivilDate) -> String { ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"][d.weekdayFromMonday] }
}
