import Foundation
import HealthCore

/// Small inline SVG charts, drawn in Swift: no script or font from anywhere else.
enum SVGCharts {
    struct Bar {
        var label: String
        var value: Double?
        /// A second, paler bar behind (the week before), or nil.
        var previous: Double? = nil
        var highlight = false
        /// The day reached its goal: the legend's "goal reached" colour.
        var reached = false
    }

    /// Vertical bars scaled to the largest value (or the goal, if higher), the goal as a dashed
    /// line, each bar's value above it, a value axis with its unit in a left gutter.
    /// With `dates` (one a bar, evenly spaced in time, such as weeks), the labels are those of a
    /// time axis: as many as fit, the year where the range crosses one.
    static func bars(_ bars: [Bar], goal: Double? = nil, unit: String, places: Int = 0, width: Int = 340, height: Int = 180,
                     dates: [CivilDate]? = nil, title: String) -> String {
        let top = 24.0, bottom = 22.0, gutter = 38.0
        let plot = Double(height) - top - bottom
        let ticks = niceTicks(max(bars.compactMap(\.value).max() ?? 0, bars.compactMap(\.previous).max() ?? 0, goal ?? 0, 1e-9))
        let maxValue = ticks.last ?? 1
        let slot = (Double(width) - gutter) / Double(max(bars.count, 1))
        let barWidth = min(slot * 0.6, 40)
        var s = svgOpen(width, height, title)
        s += valueAxis(ticks, unit: unit, gutter: gutter, width: width) { top + plot * (1 - $0 / maxValue) }
        if let goal {
            let y = top + plot * (1 - goal / maxValue)
            s += #"<line class="goal" x1="\#(f(gutter))" x2="\#(width)" y1="\#(f(y))" y2="\#(f(y))"/>"#
        }
        for (i, bar) in bars.enumerated() {
            let x = gutter + slot * Double(i) + (slot - barWidth) / 2
            if let p = bar.previous {
                let h = plot * p / maxValue
                s += #"<rect class="prev" x="\#(f(x - 4))" y="\#(f(top + plot - h))" width="\#(f(barWidth))" height="\#(f(h))"><title>\#(Format.html(bar.label)) before: \#(number(p, places)) \#(unit)</title></rect>"#
            }
            if let v = bar.value {
                let h = plot * v / maxValue
                s += #"<rect class="bar\#(bar.reached ? " met" : "")\#(bar.highlight ? " hi" : "")" x="\#(f(x))" y="\#(f(top + plot - h))" width="\#(f(barWidth))" height="\#(f(h))" rx="3"><title>\#(Format.html(bar.label)): \#(number(v, places)) \#(unit)</title></rect>"#
                if slot >= 30 { s += #"<text class="val" x="\#(f(x + barWidth / 2))" y="\#(f(top + plot - h - 4))">\#(short(v, places))</text>"# }
            }
            if dates == nil { s += #"<text class="lbl" x="\#(f(x + barWidth / 2))" y="\#(height - 6)">\#(Format.html(bar.label))</text>"# }
        }
        if let dates, let first = dates.first, let last = dates.last {
            let axis = TimeAxis(first: first, last: last, left: gutter + slot / 2, right: gutter + slot * (Double(dates.count) - 0.5))
            s += axis.labels(at: dates, width: Double(width), y: Double(height - 6))
        }
        return s + svgClose
    }

    /// Activity-style rings: each a fraction of its goal (a full turn at 100%).
    static func rings(_ rings: [(name: String, fraction: Double, cls: String)], size: Int = 150) -> String {
        var s = svgOpen(size, size, "Rings: " + rings.map { "\($0.name) \(Int(($0.fraction * 100).rounded()))%" }.joined(separator: ", "))
        let center = Double(size) / 2, stroke = 14.0
        for (i, ring) in rings.enumerated() {
            let r = center - stroke / 2 - Double(i) * (stroke + 3)
            let length = 2 * Double.pi * r
            let shown = min(max(ring.fraction, 0), 1)
            s += #"<circle class="track" cx="\#(f(center))" cy="\#(f(center))" r="\#(f(r))" stroke-width="\#(f(stroke))"/>"#
            guard shown > 0 else { continue }   // a round cap of length 0 would still draw a dot
            s += #"<circle class="ring \#(ring.cls)" cx="\#(f(center))" cy="\#(f(center))" r="\#(f(r))" stroke-width="\#(f(stroke))" stroke-dasharray="\#(f(length * shown)) \#(f(length))" transform="rotate(-90 \#(f(center)) \#(f(center)))"><title>\#(ring.name): \#(Int((ring.fraction * 100).rounded()))% of goal</title></circle>"#
        }
        return s + svgClose
    }

    /// Horizontal stacked bar of parts (sleep stages), each with its class and minutes.
    static func stacked(_ parts: [(name: String, minutes: Double, cls: String)], width: Int = 320, title: String) -> String {
        let total = max(parts.map(\.minutes).reduce(0, +), 1e-9)
        var s = svgOpen(width, 26, title)
        var x = 0.0
        for part in parts where part.minutes > 0 {
            let w = Double(width) * part.minutes / total
            s += #"<rect class="\#(part.cls)" x="\#(f(x))" y="0" width="\#(f(w))" height="26"><title>\#(part.name): \#(Format.count(part.minutes)) min</title></rect>"#
            x += w
        }
        return s + svgClose
    }

    /// Nights as stacked columns of stages (hours on the value axis, dates below), each at its
    /// date: a night with no record leaves its gap. A night in bed only is one pale column of
    /// its time in bed, so it is neither missing nor drawn as sleep.
    static func nights(_ nights: [ReportNight], width: Int = 720, height: Int = 200) -> String {
        let top = 24.0, bottom = 22.0, gutter = 38.0, plot = Double(height) - top - bottom
        let longest = max(nights.map { $0.isInBedOnly ? $0.inBed : $0.asleep + $0.awake }.max() ?? 0, 60) / 60
        let ticks = niceTicks(longest, step: 2)
        let maxMinutes = (ticks.last ?? 1) * 60
        let (axis, slot) = nightAxis(nights, width: width, gutter: gutter)
        var s = svgOpen(width, height, "Sleep stages of \(nights.count) nights, hours a night")
        s += valueAxis(ticks, unit: "h", gutter: gutter, width: width) { top + plot * (1 - $0 * 60 / maxMinutes) }
        for n in nights {
            var y = top + plot
            let x = axis.x(n.date) - slot * 0.35
            let parts = n.isInBedOnly ? [("In bed, no stages recorded", n.inBed, "inbed")]
                : [("Deep", n.deep, "deep"), ("Core", n.core, "core"), ("REM", n.rem, "rem"),
                   ("Asleep", n.unspecified, "unspec"), ("Awake", n.awake, "awake")]
            for (name, minutes, cls) in parts where minutes > 0 {
                let h = plot * minutes / maxMinutes
                y -= h
                s += #"<rect class="\#(cls)" x="\#(f(x))" y="\#(f(y))" width="\#(f(slot * 0.7))" height="\#(f(h))"><title>\#(Format.day(n.date)) \#(name): \#(Format.count(minutes)) min</title></rect>"#
            }
        }
        return s + axis.labels(at: nights.map(\.date), width: Double(width), y: Double(height - 6)) + svgClose
    }

    /// A column a day from the first night to the last, in the plot right of the gutter.
    static func nightAxis(_ nights: [ReportNight], width: Int, gutter: Double) -> (time: TimeAxis, slot: Double) {
        let first = nights.first?.date ?? CivilDate(year: 2000, month: 1, day: 1), last = nights.last?.date ?? first
        let slot = (Double(width) - gutter) / Double(last.daysSinceEpoch - first.daysSinceEpoch + 1)
        let time = TimeAxis(first: first, last: last, left: gutter + slot / 2, right: Double(width) - slot / 2)
        return (time, slot)
    }

    /// Bedtime and wake time of each night as a vertical span on a clock axis from 20:00 to
    /// 12:00, widened to the hour around any night outside it (a day sleep is drawn, not clipped),
    /// dates below.
    static func bedAndWake(_ nights: [ReportNight], width: Int = 720, height: Int = 220) -> String {
        let range = clockRange(nights)
        let top = 10.0, bottom = 22.0, gutter = 44.0, plot = Double(height) - top - bottom
        func y(_ minutes: Double) -> Double { top + plot * (minutes - range.from) / (range.to - range.from) }
        let axis = nightAxis(nights, width: width, gutter: gutter).time
        var s = svgOpen(width, height, "Bedtime and wake time of \(nights.count) nights, local clock time")
        let step = (range.to - range.from) > 1200 ? 360.0 : 240.0
        for minutes in stride(from: range.from, through: range.to, by: step) {
            s += #"<line class="grid" x1="\#(f(gutter))" x2="\#(width)" y1="\#(f(y(minutes)))" y2="\#(f(y(minutes)))"/><text class="axis" x="\#(f(gutter - 4))" y="\#(f(y(minutes) + 4))">\#(Format.clock(minutes))</text>"#
        }
        for n in nights {
            let x = axis.x(n.date)
            s += #"<line class="span" x1="\#(f(x))" x2="\#(f(x))" y1="\#(f(y(n.bedtimeMinutes)))" y2="\#(f(y(n.wakeMinutes)))"><title>\#(Format.day(n.date)): \#(Format.clock(n.bedtimeMinutes))–\#(Format.clock(n.wakeMinutes))</title></line>"#
        }
        return s + axis.labels(at: nights.map(\.date), width: Double(width), y: Double(height - 6)) + svgClose
    }

    /// The clock range of the bedtime chart: 20:00 the evening before to 12:00, widened to
    /// whole hours around the earliest bedtime and the latest wake.
    static func clockRange(_ nights: [ReportNight]) -> (from: Double, to: Double) {
        let earliest = nights.map(\.bedtimeMinutes).min() ?? -240, latest = nights.map(\.wakeMinutes).max() ?? 720
        return (min(-240, (earliest / 60).rounded(.down) * 60), max(720, (latest / 60).rounded(.up) * 60))
    }

    /// A line through daily values on a value axis with its unit, dates below, x proportional
    /// to time. The line breaks where more than `gapDays` pass between two values (a dot marks
    /// a value alone between gaps), so a year without measurements is not drawn as a trend.
    static func line(_ points: [(date: CivilDate, value: Double)], unit: String, width: Int = 720, height: Int = 180,
                     gapDays: Int = 31, title: String) -> String {
        guard let lo = points.map(\.value).min(), let hi = points.map(\.value).max(),
              let first = points.first?.date, let last = points.last?.date else { return "" }
        let top = 24.0, bottom = 22.0, gutter = 38.0, plot = Double(height) - top - bottom
        let ticks = niceTicks(hi, from: lo)
        let low = ticks.first ?? lo, span = max((ticks.last ?? hi) - low, 1e-9)
        let axis = TimeAxis(first: first, last: last, left: gutter + 10, right: Double(width) - 10)
        func xy(_ p: (date: CivilDate, value: Double)) -> (Double, Double) { (axis.x(p.date), top + plot * (1 - (p.value - low) / span)) }
        var s = svgOpen(width, height, title)
        s += valueAxis(ticks, unit: unit, gutter: gutter, width: width) { top + plot * (1 - ($0 - low) / span) }
        var path: [String] = [], alone: Set<Int> = []
        for (i, p) in points.enumerated() {
            let (x, y) = xy(p)
            let breaks = i == 0 || p.date.daysSinceEpoch - points[i - 1].date.daysSinceEpoch > gapDays
            let endsHere = i == points.count - 1 || points[i + 1].date.daysSinceEpoch - p.date.daysSinceEpoch > gapDays
            if breaks && endsHere { alone.insert(i) }
            path.append("\(breaks ? "M" : "L")\(f(x)) \(f(y))")
        }
        s += #"<path class="line" d="\#(path.joined(separator: " "))"/>"#
        s += axis.labels(at: points.map(\.date), width: Double(width), y: Double(height - 6))
        for (i, p) in points.enumerated() where points.count <= 120 || alone.contains(i) {
            let (x, y) = xy(p)
            s += #"<circle class="dot" cx="\#(f(x))" cy="\#(f(y))" r="2.5"><title>\#(Format.day(p.date)): \#(Format.number(p.value, places: 1)) \#(unit)</title></circle>"#
        }
        return s + svgClose
    }

    // MARK: helpers

    /// Each chart in its own box that scrolls sideways when the screen is narrower: the SVG is
    /// never drawn narrower than its own width, so its 11 px labels never scale below 11 px.
    static func svgOpen(_ width: Int, _ height: Int, _ title: String) -> String {
        #"<div class="chart"><svg viewBox="0 0 \#(width) \#(height)" style="min-width:\#(width)px" role="img" aria-label="\#(Format.html(title))" preserveAspectRatio="xMidYMid meet"><title>\#(Format.html(title))</title>"#
    }

    static let svgClose = "</svg></div>"

    /// Round steps (1, 2 or 5 times a power of ten, or multiples of `step`) from `from` (0 by
    /// default, rounded down) to at least `top`: three to five ticks.
    static func niceTicks(_ top: Double, from: Double = 0, step fixed: Double? = nil) -> [Double] {
        let span = max(top - from, 1e-9)
        var step = fixed ?? 1
        if fixed == nil {
            let raw = span / 3, power = pow(10, (log10(raw)).rounded(.down))
            step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? 10 * power
        }
        let low = (from / step).rounded(.down) * step
        var ticks = [low]
        while ticks.last! < top - 1e-9 { ticks.append(ticks.last! + step) }
        if ticks.count == 1 { ticks.append(low + step) }
        return ticks
    }

    /// Gridlines and labels of a value axis in a left gutter, the unit above the labels.
    static func valueAxis(_ ticks: [Double], unit: String, gutter: Double, width: Int, y: (Double) -> Double) -> String {
        var s = #"<text class="unit" x="0" y="11">\#(Format.html(unit))</text>"#
        for t in ticks {
            let label = t >= 10_000 ? Format.number(t / 1000, places: 0) + "k" : Format.number(t, places: t == t.rounded() ? 0 : 1)
            s += #"<line class="grid" x1="\#(f(gutter))" x2="\#(width)" y1="\#(f(y(t)))" y2="\#(f(y(t)))"/><text class="axis" x="\#(f(gutter - 4))" y="\#(f(y(t) + 4))">\#(label)</text>"#
        }
        return s
    }

    static func f(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    static func number(_ v: Double, _ places: Int) -> String { places == 0 ? Format.count(v) : Format.number(v, places: places) }

    /// `12.3k` for large values: bar labels are small.
    static func short(_ v: Double, _ places: Int) -> String {
        v >= 10_000 ? Format.number(v / 1000, places: 1) + "k" : number(v, places)
    }
}
