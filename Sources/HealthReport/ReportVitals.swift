import HealthCore
import HealthPresentation
import HealthStore
import SQLite

/// What the report's "Heart and vitals" section shows (docs/vitals-hrv-workouts.md), read
/// through HealthStore's `VitalsStore`.
package struct ReportVitals: Sendable {
    package var days: [(date: CivilDate, values: [Double?])] = []
    package var pressure: [VitalsStore.PressureRow] = []
    package var workouts: [VitalsStore.WorkoutDetail] = []
    package init() {}

    package static func load(from database: Database) throws -> ReportVitals {
        let store = VitalsStore(database: database)
        var v = ReportVitals()
        v.days = try store.dailyVitals()
        v.pressure = try store.latestPressure(limit: 10)
        v.workouts = try store.latestWorkouts(limit: 10)
        return v
    }

    /// One column's values on the days that have one, oldest first.
    func series(_ column: String) -> [(date: CivilDate, value: Double)] {
        guard let i = VitalsStore.dailyVitalColumns.firstIndex(of: column) else { return [] }
        return days.compactMap { d in d.values[i].map { (d.date, $0) } }
    }

    /// The mean of the values on the days within the 7 days ending on `day` (the days without
    /// a value are not counted as 0: a vital not measured is unknown).
    static func sevenDayAverage(_ series: [(date: CivilDate, value: Double)], endingOn day: CivilDate) -> Double? {
        let window = series.filter { $0.date <= day && $0.date > day.adding(days: -7) }.map(\.value)
        return window.isEmpty ? nil : window.reduce(0, +) / Double(window.count)
    }
}

/// The section itself, placed after the Heart section.
struct ReportVitalsSection {
    let vitals: ReportVitals
    let units: UnitSystem

    static let shown: [(column: String, title: String, places: Int, chart: Bool)] = [
        ("resting_heart_rate", "Resting heart rate (bpm)", 0, false),
        ("hrv_sdnn_ms", "HRV, Apple's SDNN (ms)", 0, false),
        ("hrv_rmssd_ms", "HRV, RMSSD from beats (ms)", 0, true),
        ("vo2_max", "VO₂ max (mL/kg·min)", 1, true),
        ("weight_kg", "", 1, true),
    ]

    var html: String {
        var s = #"<section id="vitals"><h2>Heart and vitals</h2>"#
        let rows = Self.shown.compactMap { item -> String? in
            let series = vitals.series(item.column)
            guard let last = series.last else { return nil }
            let unit = units.show(item.column, spreadsheet: true)
            let title = item.title.isEmpty ? unit.title : item.title
            let average = ReportVitals.sevenDayAverage(series, endingOn: last.date)
            return "<tr data-vital=\(item.column)><td>\(Format.html(title))</td><td>\(Format.number(unit.convert(last.value), places: item.places))</td>"
                + "<td>\(Format.day(last.date))</td><td>\(average.map { Format.number(unit.convert($0), places: item.places) } ?? "–")</td></tr>"
        }
        if rows.isEmpty && vitals.pressure.isEmpty && vitals.workouts.isEmpty {
            return s + #"<p class="empty">No vitals recorded.</p></section>"#
        }
        if !rows.isEmpty {
            s += Format.tableStart(["Vital", "Latest", "On", "7-day average"])
                + rows.joined() + "</tbody></table>"
        }
        for item in Self.shown where item.chart {
            let recent = vitals.series(item.column).suffix(180)
            guard recent.count >= 2 else { continue }
            let unit = units.show(item.column, spreadsheet: true)
            let title = item.title.isEmpty ? unit.title : item.title
            s += #"<div class="card wide noprint"><h3>\#(Format.html(title)), last \#(recent.count) days with data</h3>"#
                + SVGCharts.line(recent.map { ($0.date, unit.convert($0.value)) }, unit: Self.unitLabel(unit.title), title: title) + "</div>"
        }
        if !vitals.pressure.isEmpty {
            s += #"<div class="card wide"><h3>Blood pressure, the last \#(vitals.pressure.count) readings</h3>"#
                + Format.tableStart(["Date", "Systolic (mmHg)", "Diastolic (mmHg)"])
            for p in vitals.pressure.reversed() {
                s += "<tr data-pressure><td>\(Format.day(p.date))</td><td>\(p.systolic.map { Format.count($0) } ?? "–")</td>"
                    + "<td>\(p.diastolic.map { Format.count($0) } ?? "–")</td></tr>"
            }
            s += "</tbody></table></div>"
        }
        if !vitals.workouts.isEmpty {
            let distance = units.show("distance_m", spreadsheet: true), pace = units.show("pace_min_per_km", spreadsheet: true)
            s += #"<div class="card wide"><h3>The last \#(vitals.workouts.count) workouts, minutes in each heart-rate zone</h3>"#
                + Format.tableStart(["Start", "Workout", "Minutes", distance.title, "Avg / max bpm", "Z1", "Z2", "Z3", "Z4", "Z5",
                                     pace.title.replacingOccurrences(of: "(min/", with: "(m:ss/")])
            for w in vitals.workouts {
                let zones = (0..<5).map { i in w.zoneSeconds.map { Format.count($0[i] / 60) } ?? "–" }
                let heart = w.averageHeartRate.map { "\(Format.count($0)) / \(Format.count(w.maximumHeartRate ?? $0))" } ?? "–"
                s += "<tr data-workout><td>\(Format.html((w.localStart ?? "").replacingOccurrences(of: "T", with: " ").prefix(16).description))</td>"
                    + "<td>\(Format.html(w.activity))</td><td>\(w.minutes.map { Format.count($0) } ?? "–")</td>"
                    + "<td>\(w.distance.map { Format.number(distance.convert($0), places: 2) } ?? "–")</td><td>\(heart)</td>"
                    + zones.map { "<td>\($0)</td>" }.joined()
                    + "<td>\(w.pace.map { Format.pace(pace.convert($0)) } ?? "–")</td></tr>"
            }
            s += "</tbody></table></div>"
        }
        return s + "</section>"
    }
}

extension ReportVitalsSection {
    /// The unit in a spreadsheet title's parentheses ("Weight (kg)" → "kg"), for the chart's axis.
    static func unitLabel(_ title: String) -> String {
        guard let open = title.lastIndex(of: "("), let close = title.lastIndex(of: ")"), open < close else { return "" }
        return String(title[title.index(after: open)..<close])
    }
}
