import HealthCore


/// Sleep stages of `HKCategoryTypeIdentifierSleepAnalysis` (pre-iOS 16 `Asleep` is Unspecified).
public enum SleepStage: Sendable, Equatable {
    case inBed, awake, core, deep, rem, unspecified

    public init?(categoryValue: String) {
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
    public var isInBedTrack: Bool { self == .inBed }
}

/// What a merged sleep piece carries: its stage, the start of the sample it came from (the
/// whole sample belongs to the night of its start) and its source.
public struct SleepTag: Sendable {
    public var stage: SleepStage
    public var sampleStart: Int64
    public var source: String
    public init(stage: SleepStage, sampleStart: Int64, source: String) {
        self.stage = stage; self.sampleStart = sampleStart; self.source = source
    }
}

/// The aggregate stage for sleep: merged pieces of both tracks → sessions → nights.
///
/// Pieces are first grouped into sessions by their gaps: a piece that starts within
/// `sessionGapMinutes` (60) of the end of the pieces before it continues their session. Then
/// each whole session goes to one night, named after its morning: a session starting before
/// `dayStartHour` (18:00) local time belongs to that day, one starting later to the next day.
/// A session is never cut at the cutoff: in a zone where a night straddles 18:00 (a phone in
/// Seoul read in UTC) it stays one night. Memory: the sleep pieces (a few per night) are held
/// until `finish`, so that both tracks, which arrive interleaved, are grouped in time order.
public struct SleepNights: StageHandler {
    public typealias InboundIn = [MergedPiece<SleepTag>]
    public typealias InboundOut = [SleepNight]

    private var calendar: LocalCalendar
    private let dayStartSecond: Int64
    private let sessionGap: Int64
    private var pieces: [MergedPiece<SleepTag>] = []

    public static let sessionGapMinutes = 60

    public init(calendar: LocalCalendar, dayStartHour: Int = 18, sessionGapMinutes: Int = SleepNights.sessionGapMinutes) {
        self.calendar = calendar
        self.dayStartSecond = Int64(dayStartHour) * 3600
        self.sessionGap = Int64(sessionGapMinutes) * 60_000_000
    }

    public mutating func handle(_ input: [MergedPiece<SleepTag>], emit: (consuming [SleepNight]) throws -> Void) throws {
        pieces.append(contentsOf: input)
    }

    public mutating func finish(emit: (consuming [SleepNight]) throws -> Void) throws {
        pieces.sort { $0.start < $1.start }
        var nights: [CivilDate: SleepNight] = [:]
        var session: (end: Int64, night: CivilDate)?
        for piece in pieces {
            if let current = session, piece.start - current.end <= sessionGap {
                session = (max(current.end, piece.end), current.night)
            } else {
                session = (piece.end, night(ofSessionStartingAt: piece.start))
            }
            if let night = session?.night { add(piece, to: night, in: &nights) }
        }
        pieces = []
        try emit(nights.values.sorted { $0.date < $1.date })
    }

    /// The night (by its morning's date) that a session starting at `start` belongs to.
    public mutating func night(ofSessionStartingAt start: Int64) -> CivilDate {
        let t = Timestamp(microseconds: start)
        let date = calendar.localDate(of: t)
        return calendar.secondOfDay(t) >= dayStartSecond ? date.adding(days: 1) : date
    }

    private func add(_ piece: MergedPiece<SleepTag>, to date: CivilDate, in nights: inout [CivilDate: SleepNight]) {
        let start = Timestamp(microseconds: piece.start), end = Timestamp(microseconds: piece.end)
        var n = nights[date] ?? SleepNight(date: date, start: start, end: end)
        n.start = min(n.start, start)
        n.end = max(n.end, end)
        let minutes = Double(piece.end - piece.start) / 60_000_000
        switch piece.tag.stage {
        case .inBed: n.inBedMinutes += minutes
        case .awake: n.awakeMinutes += minutes
        case .core: n.coreMinutes += minutes
        case .deep: n.deepMinutes += minutes
        case .rem: n.remMinutes += minutes
        case .unspecified: n.unspecifiedMinutes += minutes
        }
        if !n.sources.contains(piece.tag.source) { n.sources.append(piece.tag.source) }
        nights[date] = n
    }
}
