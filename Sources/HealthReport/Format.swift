import Foundation
import HealthCore

/// How numbers and dates read on the page: `12,345`, `+12%`, `4 Mar 2024`, `March 2024`.
enum Format {
    /// A pace in minutes as a runner reads it: `5:23` (minutes and seconds).
    static func pace(_ minutes: Double) -> String {
        guard minutes.isFinite, minutes > 0 else { return "–" }
        let seconds = Int((minutes * 60).rounded())
        return "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }

    static func count(_ v: Double) -> String {
        let n = Int((v.isFinite ? v : 0).rounded())
        let digits = String(abs(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    static func number(_ v: Double, places: Int) -> String { String(format: "%.\(places)f", v) }

    static func percent(_ v: Double) -> String {
        let r = Int(v.rounded())
        return (r > 0 ? "+" : r < 0 ? "−" : "±") + "\(abs(r))%"
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    static func day(_ d: CivilDate) -> String { "\(d.day) \(monthNames[d.month - 1].prefix(3)) \(d.year)" }
    /// `Tokyo` of `Asia/Tokyo`, `Los Angeles` of `America/Los_Angeles`: a zone as people name it.
    static func place(_ zone: String) -> String {
        String(zone.split(separator: "/").last ?? Substring(zone)).replacingOccurrences(of: "_", with: " ")
    }
    /// `, in Tokyo time` for a day away (issue 48), `, travel day` on a flight day, both, or nothing.
    static func whereDay(_ day: ReportDay?) -> String {
        guard let day else { return "" }
        return (day.away.map { ", in \(html(place($0))) time" } ?? "") + (day.travelDay ? ", travel day" : "")
    }
    /// `18 Apr`: a chart's date label (never `18/4`, which half the world reads as a month).
    static func shortDay(_ d: CivilDate) -> String { "\(d.day) \(monthNames[d.month - 1].prefix(3))" }
    static func month(_ d: CivilDate) -> String { "\(monthNames[d.month - 1]) \(d.year)" }

    /// `23:15` for minutes after midnight (negative: before it).
    static func clock(_ minutes: Double) -> String {
        let m = (Int(minutes.rounded()) % 1440 + 1440) % 1440
        return String(format: "%02d:%02d", m / 60, m % 60)
    }

    /// A table's start, up to its body: one header cell per column, each escaped; the
    /// `numeric` columns' headers right-aligned as their cells are (`class="num"`).
    static func tableStart(_ headers: [String], numeric: Set<Int> = [], class name: String? = nil) -> String {
        var s = name.map { #"<table class="\#($0)"><thead><tr>"# } ?? "<table><thead><tr>"
        for (i, header) in headers.enumerated() {
            s += (numeric.contains(i) ? #"<th class="num">"# : "<th>") + html(header) + "</th>"
        }
        return s + "</tr></thead><tbody>"
    }

    /// Text for HTML: `&`, `<`, `>` and quotes escaped.
    static func html(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
