import Foundation
import HealthAggregate
import HealthAnalytics
import HealthCore
import HealthDedupe
import HealthEmit
import SQLite
import HealthStore

/// The pipeline settings the stored analytics depend on. They are saved with the store: an
/// incremental run under other settings (another zone moves every local day) would mix two
/// ways of counting, so it rebuilds instead.
struct AnalyticsSettings: Sendable, Equatable {
    var timeZone: TimeZone
    /// The zone's name as the person gave it (`UTC`: Foundation's identifier is `GMT`).
    var zoneName: String
    var priority: SourcePriority
    var heartbeatMaxGapMinutes: Double
    var weekStart: Int
    /// The maximum heart rate of the workouts' zones (`maxHeartRate`); nil: from the birth date.
    var maxHeartRate: Double?
    /// In the stored fingerprint when not the default: another rule rebuilds the store.
    var quality: QualityBuilder.Settings
    /// Whether the days follow the person's zone timeline (`timeZone` is then home) or one zone.
    var localDays: LocalDays
    /// The person's zone timeline for this run, once known (`ZoneUpdate`): the days follow it
    /// when `localDays` says so. Not a setting: it comes from the data, and is kept in the store.
    var timeline: ZoneTimeline?

    /// `localDays`: the mode when the pipeline's `localDays` is unset (`TimeZoneChoice.localDays`:
    /// a configured zone keeps its meaning, one zone).
    init(_ config: PipelineConfig, timeZone: TimeZone, zoneName: String? = nil, localDays unset: LocalDays = .zone) throws {
        self.zoneName = zoneName ?? timeZone.identifier
        if let name = config.localDays {
            guard let mode = LocalDays(rawValue: name) else {
                throw HealthETLError.usage("localDays '\(name)' is neither where-recorded nor zone")
            }
            localDays = mode
        } else {
            localDays = unset
        }
        guard let weekStart = PeriodRollup.weekStartIndex(config.weekStart) else {
            throw HealthETLError.usage("weekStart '\(config.weekStart ?? "")' is not a day name (monday … sunday)")
        }
        self.timeZone = timeZone
        priority = SourcePriority(patterns: config.sourcePriority)
        heartbeatMaxGapMinutes = config.heartbeatMaxGapMinutes ?? 30
        self.weekStart = weekStart
        if let m = config.maxHeartRate, !(m >= 100 && m <= 250) {
            throw HealthETLError.usage("maxHeartRate \(m) is not a heart rate between 100 and 250 bpm")
        }
        maxHeartRate = config.maxHeartRate
        let minHours = config.validDayMinWatchHours ?? QualityBuilder.defaultValidDayMinWatchHours
        guard minHours.isFinite, (0...24).contains(minHours) else {
            throw HealthETLError.usage("validDayMinWatchHours \(minHours) is not a number of hours from 0 to 24")
        }
        quality = QualityBuilder.Settings(validDayMinWatchHours: minHours)
    }

    /// The data-quality tables' builder under these settings, ranking sources as the merge does.
    func qualityBuilder(_ database: Database) -> QualityBuilder {
        let priority = priority
        // As `AnalyticsBuilder.RankTable`: every source as recorded and as typed in, ranked together.
        return QualityBuilder(database: database, calendar: calendar(), settings: quality) { sources in
            func candidate(_ s: QualityBuilder.Source, _ typedIn: Bool) -> SourcePriority.Candidate {
                .init(name: s.name, deviceModel: s.model.isEmpty ? nil : s.model, userEntered: typedIn)
            }
            let ranked = priority.ranks(of: sources.flatMap { [candidate($0, false), candidate($0, true)] })
            // Shown as 1, 2, 3 … among the sources as recorded (the typed-in ranks sit between).
            let recorded = sources.compactMap { s in ranked[candidate(s, false)].map { (s, $0) } }
            let order = Set(recorded.map(\.1)).sorted()
            let place = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0 + 1) })
            return Dictionary(uniqueKeysWithValues: recorded.map { ($0.0, place[$0.1]!) })
        }
    }

    /// These settings as the store saves them.
    var stored: StoreSettings {
        StoreSettings(zone: timeZone.identifier, priority: priority.patterns,
                      heartbeatMaxGapMinutes: heartbeatMaxGapMinutes, weekStart: weekStart,
                      maxHeartRate: maxHeartRate,
                      validDayMinWatchHours: quality.validDayMinWatchHours == QualityBuilder.defaultValidDayMinWatchHours
                          ? nil : quality.validDayMinWatchHours, localDays: localDays)
    }

    /// The calendar of every local day the analytics count: the one place that decides it.
    /// Along the timeline when the days follow it and it is known; else the one zone (home).
    func calendar() -> LocalCalendar {
        if localDays == .whereRecorded, let timeline { return LocalCalendar(timeline: timeline) }
        return LocalCalendar(timeZone: timeZone)
    }

    /// These settings with the run's timeline.
    func with(_ timeline: ZoneTimeline) -> AnalyticsSettings {
        var settings = self
        settings.timeline = timeline
        return settings
    }

    /// One line that changes whenever the analytics would.
    var fingerprint: String { stored.line }

    /// The analytics stage under these settings.
    func builder(tap: (@Sendable (String, [SeriesReader.Row]) throws -> Void)? = nil) -> AnalyticsBuilder {
        AnalyticsBuilder(calendar: calendar(), priority: priority,
                         heartbeatMaxGapMinutes: heartbeatMaxGapMinutes, tap: tap)
    }

    func save(in database: Database) throws { try stored.save(in: database) }
}
