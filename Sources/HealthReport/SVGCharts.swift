import Foundation

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
    /// line, each bar's value above it.
    static func bars(_ bars: [Bar], goal: Double? = nil, unit: String, places: Int = 0, width: Int = 360, height: Int = 170,
                     title: String) -> String {
        let top = 20.0, bottom = 22.0
        let plot = Double(height) - top - bottom
        let maxValue = max(bars.compactMap(\.value).max() ?? 0, bars.compactMap(\.previous).max() ?? 0, goal ?? 0, 1e-9)
        let slot = Double(width) / Double(max(bars.count, 1))
        let barWidth = min(slot * 0.6, 40)
        var s = svgOpen(width, height, title)
        if let goal {
            let y = top + plot * (1 - goal / maxValue)
            s += #"<line class="goal" x1="0" x2="\#(width)" y1="\#(f(y))" y2="\#(f(y))"/>"#
        }
        for (i, bar) in bars.enumerated() {
            let x = slot * Double(i) + (slot - barWidth) / 2
            if let p = bar.previous {
                let h = plot * p / maxValue
                s += #"<rect class="prev" x="\#(f(x - 4))" y="\#(f(top + plot - h))" width="\#(f(barWidth))" height="\#(f(h))"><title>\#(Format.html(bar.label)) before: \#(number(p, places)) \#(unit)</title></rect>"#
            }
            if let v = bar.value {
                let h = plot * v / maxValue
                s += #"<rect class="bar\#(bar.reached ? " met" : "")\#(bar.highlight ? " hi" : "")" x="\#(f(x))" y="\#(f(top + plot - h))" width="\#(f(barWidth))" height="\#(f(h))" rx="3"><title>\#(Format.html(bar.label)): \#(number(v, places)) \#(unit)</title></rect>"#
                s += #"<text class="val" x="\#(f(x + barWidth / 2))" y="\#(f(top + plot - h - 4))">\#(short(v, places))</text>"#
            }
            s += #"<text class="lbl" x="\#(f(x + barWidth / 2))" y="\#(height - 6)">\#(Format.html(bar.label))</text>"#
        }
        return s + "</svg>"
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
        return s + "</svg>"
    }

    /// Horizontal stacked bar of parts (sleep stages), each with its class and minutes.
    static func stacked(_ parts: [(name: String, minutes: Double, cls: String)], width: Int = 360, title: String) -> String {
        let total = max(parts.map(\.minutes).reduce(0, +), 1e-9)
        var s = svgOpen(width, 26, title)
        var x = 0.0
        for part in parts where part.minutes > 0 {
            let w = Double(width) * part.minutes / total
            s += #"<rect class="\#(part.cls)" x="\#(f(x))" y="0" width="\#(f(w))" height="26"><title>\#(part.name): \#(Format.count(part.minutes)) min</title></rect>"#
            x += w
        }
        return s + "</svg>"
    }

    /// Nights as stacked columns of stages (minutes); a night in bed only as one pale column
    /// of its time in bed, so it is neither missing nor drawn as sleep.
    static func nights(_ nights: [ReportNight], width: Int = 720, height: Int = 180) -> String {
        let top = 10.0, bottom = 20.0, plot = Double(height) - top - bottom
        let maxMinutes = max(nights.map { $0.isInBedOnly ? $0.inBed : $0.asleep + $0.awake }.max() ?? 0, 60)
        let slot = Double(width) / Double(max(nights.count, 1))
        var s = svgOpen(width, height, "Sleep stages of the last \(nights.count) nights")
        for (i, n) in nights.enumerated() {
            var y = top + plot
            let x = slot * Double(i) + slot * 0.15
            let parts = n.isInBedOnly ? [("In bed, no stages recorded", n.inBed, "inbed")]
                : [("Deep", n.deep, "deep"), ("Core", n.core, "core"), ("REM", n.rem, "rem"),
                   ("Asleep", n.unspecified, "unspec"), ("Awake", n.awake, "awake")]
            for (name, minutes, cls) in parts where minutes > 0 {
                let h = plot * minutes / maxMinutes
                y -= h
                s += #"<rect class="\#(cls)" x="\#(f(x))" y="\#(f(y))" width="\#(f(slot * 0.7))" height="\#(f(h))"><title>\#(Format.day(n.date)) \#(name): \#(Format.count(minutes)) min</title></rect>"#
            }
            if nights.count <= 31, i % max(nights.count / 8, 1) == 0 {
                s += #"<text class="lbl" x="\#(f(x + slot * 0.35))" y="\#(height - 5)">\#(n.date.day)/\#(n.date.month)</text>"#
            }
        }
        return s + "</svg>"
    }

    /// Bedtime and wake time of each night as a vertical span on a clock axis from 20:00 to 12:00.
    static func bedAndWake(_ nights: [ReportNight], width: Int = 720, height: Int = 170) -> String {
        let top = 10.0, bottom = 10.0, plot = Double(height) - top - bottom
        let from = -240.0, to = 720.0   // 20:00 the evening before … 12:00
        func y(_ minutes: Double) -> Double { top + plot * (min(max(minutes, from), to) - from) / (to - from) }
        let gutter = 44.0   // the clock labels' own column: spans never run over them
        let slot = (Double(width) - gutter) / Double(max(nights.count, 1))
        var s = svgOpen(width, height, "Bedtime and wake time of the last \(nights.count) nights")
        for hour in stride(from: -240.0, through: 720, by: 240) {
            s += #"<line class="grid" x1="0" x2="\#(width)" y1="\#(f(y(hour)))" y2="\#(f(y(hour)))"/><text class="axis" x="2" y="\#(f(y(hour) - 2))">\#(Format.clock(hour))</text>"#
        }
        for (i, n) in nights.enumerated() {
            let x = gutter + slot * Double(i) + slot / 2
            s += #"<line class="span" x1="\#(f(x))" x2="\#(f(x))" y1="\#(f(y(n.bedtimeMinutes)))" y2="\#(f(y(n.wakeMinutes)))"><title>\#(Format.day(n.date)): \#(Format.clock(n.bedtimeMinutes))–\#(Format.clock(n.wakeMinutes))</title></line>"#
        }
        return s + "</svg>"
    }

    /// A line through daily values, with its minimum and maximum labelled.
    static func line(_ points: [(label: String, value: Double)], unit: String, width: Int = 720, height: Int = 160,
                     title: String) -> String {
        guard let lo = points.map(\.value).min(), let hi = points.map(\.value).max() else { return "" }
        let top = 16.0, bottom = 16.0, plot = Double(height) - top - bottom
        let span = max(hi - lo, 1e-9)
        let step = Double(width - 40) / Double(max(points.count - 1, 1))
        func xy(_ i: Int, _ v: Double) -> (Double, Double) { (20 + step * Double(i), top + plot * (1 - (v - lo) / span)) }
        var s = svgOpen(width, height, title)
        let path = points.enumerated().map { i, p in let (x, y) = xy(i, p.value); return "\(i == 0 ? "M" : "L")\(f(x)) \(f(y))" }
        s += #"<path class="line" d="\#(path.joined(separator: " "))"/>"#
        s += #"<text class="axis" x="0" y="12">max \#(Format.number(hi, places: 0)) \#(unit)</text>"#
        s += #"<text class="axis" x="0" y="\#(height - 2)">min \#(Format.number(lo, places: 0)) \#(unit)</text>"#
        if points.count <= 120 {
            for (i, p) in points.enumerated() {
                let (x, y) = xy(i, p.value)
                s += #"<circle class="dot" cx="\#(f(x))" cy="\#(f(y))" r="2.5"><title>\#(p.label): \#(Format.number(p.value, places: 1)) \#(unit)</title></circle>"#
            }
        }
        return s + "</svg>"
    }

    // MARK: helpers

    static func svgOpen(_ width: Int, _ height: Int, _ title: String) -> String {
        #"<svg viewBox="0 0 \#(width) \#(height)" role="img" aria-label="\#(Format.html(title))" preserveAspectRatio="xMidYMid meet"><title>\#(Format.html(title))</title>"#
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
