import HealthCore


/// Sleep stages of `HKCategoryTypeIdentifierSleepAnalysis` (pre-iOS 16 `Asleep` is Unspecified).
package enum SleepStage: Sendable, Equatable {
    case inBed, awake, core, deep, rem, unspecified

    package init?(categoryValue: String) {
        switch categoryValue {
        case "HKCategoryValueSleepAnalysisInBed": self = .inBed
        case "HKCategoryValueSleepAnalysisAwake": self = .awake
        case "HKCategoryValueSleepAnalysisAsleepCore": self = .core
        case "HKCategoryValueSleepAnalysisAsleepDeep": self = .deep
        case "HKCategoryValueSleepAnalysisAsleepREM": self = .rem
        case "HKCategoryValueSleepAnalysisAsleepUnspecified", "HKCategoryValueSleepAnalysisAsleep": self = .unspecified
        default: return nil
        }
    }

    /// In-bed samples form their own track; asleep and awake samples form the other.
    package var isInBedTrack: Bool { self == .inBed }
}

/// What a merged sleep piece carries: its stage, the start of the sample it came from and its
/// source. (A piece goes to the night of its session, whatever sample it came from.)
package struct SleepTag: Sendable {
    package var stage: SleepStage
    package var sampleStart: Int64
    package var source: String
    package init(stage: SleepStage, sampleStart: Int64, source: String) {
        self.stage = stage; self.sampleStart = sampleStart; self.source = source
    }
}

/// The aggregate stage for sleep: merged pieces of both tracks → sessions → nights (the rule,
/// with a worked example, is docs/sleep-nights.md).
///
/// 1. Sessions: pieces of both tracks, in time order, form one session while each starts within
///    `sessionGapMinutes` (60) of the end of the pieces before it.
/// 2. Each session is dated by its wake-up: the local day of its end (SPEC: the night that ends
///    on this day). A bedtime's clock time plays no part, so an early sleeper (17:30), a shift
///    worker (asleep 09:00–16:00) and an export read in another zone get one night a day.
/// 3. Of the sessions that end on the same day, the longest (time in bed or asleep) is the
///    night; the others are naps: their asleep minutes are the night's `napMinutes`, never its
///    asleep total, and they do not stretch its span. Two nights never share a date.
/// 4. In bed is the time covered by either track: an iPhone's in-bed sample that starts after
///    the watch's first asleep sample does not leave asleep minutes above in-bed minutes.
///
/// Memory: the sleep pieces (a few per night) are held until `finish`, so that both tracks,
/// which arrive interleaved, are grouped in time order.
package struct SleepNights: StageHandler {
    package typealias InboundIn = [MergedPiece<SleepTag>]
    package typealias InboundOut = [SleepNight]

    private var calendar: LocalCalendar
    private let sessionGap: Int64
    private var pieces: [MergedPiece<SleepTag>] = []

    package static let sessionGapMinutes = 60

    package init(calendar: LocalCalendar, sessionGapMinutes: Int = SleepNights.sessionGapMinutes) {
        self.calendar = calendar
        self.sessionGap = Int64(sessionGapMinutes) * 60_000_000
    }

    package mutating func handle(_ input: [MergedPiece<SleepTag>], emit: (consuming [SleepNight]) throws -> Void) throws {
        pieces.append(contentsOf: input)
    }

    package mutating func finish(emit: (consuming [SleepNight]) throws -> Void) throws {
        pieces.sort { $0.start < $1.start }
        var byWakeDay: [CivilDate: [SleepNight]] = [:]
        var session: SleepNight?
        var covered: Int64 = .min   // end of the time the session's pieces cover so far
        for piece in pieces {
            if var current = session, piece.start - covered <= sessionGap {
                add(piece, to: &current, coveredUntil: &covered)
                session = current
            } else {
                if let done = session { byWakeDay[wakeDay(of: done), default: []].append(done) }
                // Dated once the session's end, and so its wake-up day, is known.
                var fresh = SleepNight(date: CivilDate(year: 1970, month: 1, day: 1),
                                       start: Timestamp(microseconds: piece.start), end: Timestamp(microseconds: piece.end))
                covered = piece.start
                add(piece, to: &fresh, coveredUntil: &covered)
                session = fresh
            }
        }
        if let done = session { byWakeDay[wakeDay(of: done), default: []].append(done) }
        pieces = []
        try emit(byWakeDay.map { Self.night(of: $0.key, sessions: $0.value) }.sorted { $0.date < $1.date })
    }

    /// The local day a session ends on (an end at midnight sharp is the day before's).
    package mutating func wakeDay(of session: SleepNight) -> CivilDate {
        calendar.localDate(of: Timestamp(microseconds: max(session.start.microseconds, session.end.microseconds - 1)))
    }

    /// The night of `date`: the longest of the sessions ending that day, with the others as naps.
    static func night(of date: CivilDate, sessions: [SleepNight]) -> SleepNight {
        // Longest by time in bed or asleep; a tie goes to the later session (the one ending
        // nearer the morning it names), so the choice never depends on input order.
        let main = sessions.indices.max { a, b in
            (sessions[a].inBedMinutes, sessions[a].end.microseconds) < (sessions[b].inBedMinutes, sessions[b].end.microseconds)
        }!
        var night = sessions[main]
        night.date = date
        for (i, nap) in sessions.enumerated() where i != main {
            night.napMinutes += nap.asleepMinutes
            night.naps += 1
            for s in nap.sources where !night.sources.contains(s) { night.sources.append(s) }
        }
        return night
    }

    private func add(_ piece: MergedPiece<SleepTag>, to n: inout SleepNight, coveredUntil covered: inout Int64) {
        n.start = min(n.start, Timestamp(microseconds: piece.start))
        n.end = max(n.end, Timestamp(microseconds: piece.end))
        // Pieces come by start, so the union of both tracks grows only past what is covered.
        if piece.end > covered {
            n.inBedMinutes += Double(piece.end - max(piece.start, covered)) / 60_000_000
            covered = piece.end
        }
        let minutes = Double(piece.end - piece.start) / 60_000_000
        switch piece.tag.stage {
        case .inBed: break   // counted in the union above
        case .awake: n.awakeMinutes += minutes
        case .core: n.coreMinutes += minutes
        case .deep: n.deepMinutes += minutes
        case .rem: n.remMinutes += minutes
        case .unspecified: n.unspecifiedMinutes += minutes
        }
        if !n.sources.contains(piece.tag.source) { n.sources.append(piece.tag.source) }
    }
}
