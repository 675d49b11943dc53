import HealthCore

/// What the report says about nights (docs/sleep-nights.md): a night with only an in-bed
/// sample (iPhone Bedtime without a watch) shows its time in bed, labelled as such, and is
/// never averaged as a night of 0 h asleep.
extension ReportPage {
    /// The dashboard's "Last night" card body.
    static func lastNight(_ night: ReportNight) -> String {
        let span = "\(Format.clock(night.bedtimeMinutes))–\(Format.clock(night.wakeMinutes))"
        let naps = night.napMinutes > 0 ? #"<p class="note">Naps that day: \#(Format.count(night.napMinutes)) min asleep (not in the night's total).</p>"# : ""
        if night.isInBedOnly {
            return #"<p class="big">\#(Format.number(night.inBed / 60, places: 1)) h in bed · \#(span)</p>"#
                + #"<p class="note">In bed only: no sleep stages recorded (no watch or sleep app that night).</p>"#
                + SVGCharts.stacked([("In bed", night.inBed, "inbed")], title: "Time in bed of the last night")
                + #"<div class="legend"><span><i class="inbed"></i>In bed \#(Format.count(night.inBed)) min</span></div>"# + naps
        }
        let parts = [("Deep", night.deep, "deep"), ("Core", night.core, "core"), ("REM", night.rem, "rem"),
                     ("Asleep", night.unspecified, "unspec"), ("Awake", night.awake, "awake")]
        return #"<p class="big">\#(Format.number(night.asleep / 60, places: 1)) h asleep · \#(span)</p>"#
            + SVGCharts.stacked(parts, title: "Sleep stages of the last night")
            + #"<div class="legend">"# + parts.filter { $0.1 > 0 }.map { #"<span><i class="\#($0.2)"></i>\#($0.0) \#(Format.count($0.1)) min</span>"# }.joined()
            + "</div>" + naps
    }

    /// The sleep section's average: asleep over the nights that recorded sleep; nights in bed
    /// only are counted apart (by their time in bed), never as 0 h asleep.
    static func sleepAverage(_ nights: [ReportNight]) -> String {
        let staged = nights.filter { !$0.isInBedOnly }, inBedOnly = nights.filter(\.isInBedOnly)
        let inBedText = inBedOnly.isEmpty ? "" : "\(inBedOnly.count) \(inBedOnly.count == 1 ? "night" : "nights") in bed only "
            + "(no sleep stages recorded): \(Format.number(Insights.mean(inBedOnly.map(\.inBed)) / 60, places: 1)) h in bed on average."
        guard !staged.isEmpty else { return "Last " + inBedText }
        var text = "Last \(staged.count) \(staged.count == 1 ? "night" : "nights") with sleep recorded: "
            + "\(Format.number(Insights.mean(staged.map(\.asleep)) / 60, places: 1)) h asleep on average."
        if !inBedOnly.isEmpty { text += " Besides, " + inBedText }
        return text
    }

    /// What a goal bar says without a value: a night in bed only says so, with its time in bed.
    static func noValue(_ metric: ReportMetric, _ day: ReportDay) -> String {
        guard metric == .sleep, let inBed = day.inBedMinutes, inBed > 0 else { return "no data" }
        return "\(Format.number(inBed / 60, places: 1)) h in bed, no sleep stages recorded"
    }
}
