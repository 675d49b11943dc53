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

/// The aggregate stage for sleep: merged pieces of both tracks → nights. A night is named
/// after its morning: a sample starting before `dayStartHour` (18:00) local time belongs to
/// that day, one starting later to the next day.
public struct SleepNights: StageHandler {
    public typealias InboundIn = [MergedPiece<SleepTag>]
    public typealias InboundOut = [SleepNight]

    private var calendar: LocalCalendar
    private let dayStartSecond: Int64
    private var nights: [CivilDate: SleepNight] = [:]

    public init(calendar: LocalCalendar, dayStartHour: Int = 18) {
        self.calendar = calendar
        self.dayStartSecond = Int64(dayStartHour) * 3600
    }

    public mutating func handle(_ input: [MergedPiece<SleepTag>], emit: (consuming [SleepNight]) throws -> Void) throws {
        for piece in input { add(piece) }
    }

    public mutating func finish(emit: (consuming [SleepNight]) throws -> Void) throws {
        try emit(nights.values.sorted { $0.date < $1.date })
        nights = [:]
    }

    /// The night (by its morning's date) that a sample starting at `start` belongs to.
    public mutating func night(ofSampleStartingAt start: Int64) -> CivilDate {
        let t = Timestamp(microseconds: start)
        let date = calendar.localDate(of: t)
        return calendar.secondOfDay(t) >= dayStartSecond ? date.adding(days: 1) : date
    }

    private mutating func add(_ piece: MergedPiece<SleepTag>) {
        let date = night(ofSampleStartingAt: piece.tag.sampleStart)
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
