import Foundation

extension ZoneTimeline {
    /// One stretch of the timeline as a person reads it: the zone and the local dates (in that
    /// zone) of its first and last instant; nil where it runs from the beginning or to the end.
    public struct Span: Sendable, Equatable {
        public var zone: String
        public var from: CivilDate?
        public var through: CivilDate?

        /// "Asia/Tokyo 2024-02-01 – 2024-02-10", an open end as "…".
        public var text: String { "\(zone) \(from?.iso8601 ?? "…") – \(through?.iso8601 ?? "…")" }
    }

    /// The stretches in order, with their dates: what the run summary and `people show` list.
    public var spans: [Span] {
        stretches.indices.map { i in
            var calendar = LocalCalendar(identifier: stretches[i].zone) ?? LocalCalendar(timeZone: TimeZone(identifier: "UTC")!)
            let from = stretches[i].start.map { calendar.localDate(of: $0) }
            let through = i + 1 < stretches.count
                ? stretches[i + 1].start.map { calendar.localDate(of: Timestamp(microseconds: $0.microseconds - 1)) }
                : nil
            return Span(zone: stretches[i].zone, from: from, through: through)
        }
    }

    /// "2 zones: America/Los_Angeles, Asia/Tokyo (2024-02-01 – 2024-02-10)": the zones in order
    /// of first appearance, and the dates of every stretch away from home; nil for one zone.
    public var summaryText: String? {
        guard !isSingleZone else { return nil }
        let away = spans.filter { $0.zone != home }.map(\.text)
        return "\(zones.count) zones: " + zones.joined(separator: ", ") + " (" + away.joined(separator: "; ") + ")"
    }
}
