/// A workout recorded twice (issue 44): the Watch and Strava both store the same ride, the
/// Health app lists both, but it was one ride. The copy is the one from the source of lower
/// priority (the order of `SourcePriority`, as for a day's totals); both rows stay in the store,
/// and every count, sum and summary takes the kept one only.
///
/// Two workouts are one when they are the same activity and overlap for at least half of the
/// shorter one (apps round the start and end differently, and one may stop a minute later).
///
/// Runs with the vitals (HealthAnalytics' `VitalsBuilder`), after the load: both workouts are
/// stored, so it needs the whole list of a person's workouts, which only the store has.
package enum WorkoutCopies {
    package struct Span: Sendable {
        package var id: Int64
        package var activity: String
        package var source: SourcePriority.Candidate
        package var start: Int64, end: Int64   // µs
        package init(id: Int64, activity: String, source: SourcePriority.Candidate, start: Int64, end: Int64) {
            self.id = id; self.activity = activity; self.source = source; self.start = start; self.end = end
        }
    }

    /// The share of the shorter workout two must overlap by to be one.
    package static let overlapShare = 0.5

    /// Each copy's id → the id of the workout it copies. Workouts are taken best source first
    /// (then by id, so the result does not depend on the order given); each either overlaps a
    /// workout already kept (a copy of it) or is kept.
    package static func find(_ spans: [Span], priority: SourcePriority) -> [Int64: Int64] {
        let ranks = priority.ranks(of: spans.map(\.source))
        let ordered = spans.sorted { (ranks[$0.source]!, $0.id) < (ranks[$1.source]!, $1.id) }
        var kept: [String: [Span]] = [:]
        var copies: [Int64: Int64] = [:]
        for span in ordered {
            if let original = kept[span.activity]?.first(where: { isSameWorkout($0, span) }) {
                copies[span.id] = original.id
            } else {
                kept[span.activity, default: []].append(span)
            }
        }
        return copies
    }

    static func isSameWorkout(_ a: Span, _ b: Span) -> Bool {
        let overlap = min(a.end, b.end) - max(a.start, b.start)
        let shorter = min(a.end - a.start, b.end - b.start)
        guard overlap > 0 else { return false }
        return shorter <= 0 || Double(overlap) >= overlapShare * Double(shorter)
    }
}
