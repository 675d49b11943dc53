import Foundation
import HealthAggregate
import HealthCore
import HealthDedupe
import HealthStore
import SQLite

/// The settings the stored analytics depend on (the pipeline reads them from its
/// configuration: `AnalyticsSettings+Pipeline`). They are saved with the store: an
/// incremental run under other settings (another zone moves every local day) would mix two
/// ways of counting, so it rebuilds instead.
package struct AnalyticsSettings: Sendable, Equatable {
    package var timeZone: TimeZone
    /// The zone's name as the person gave it (`UTC`: Foundation's identifier is `GMT`).
    package var zoneName: String
    package var priority: SourcePriority
    package var heartbeatMaxGapMinutes: Double
    package var weekStart: Int
    /// The maximum heart rate of the workouts' zones (`maxHeartRate`); nil: from the birth date.
    package var maxHeartRate: Double?
    /// In the stored fingerprint when not the default: another rule rebuilds the store.
    package var quality: QualityBuilder.Settings
    /// Whether the days follow the person's zone timeline (`timeZone` is then home) or one zone.
    package var localDays: LocalDays
    /// The person's zone timeline for this run, once known (`ZoneUpdate`): the days follow it
    /// when `localDays` says so. Not a setting: it comes from the data, and is kept in the store.
    package var timeline: ZoneTimeline?
    /// Where each platform's samples begin in a store of one person's two phones, once read
    /// (`StoreAnalytics`, one pass over the samples a run): nil, the analytics read it. Not a
    /// setting either.
    package var platformStarts: [InputPlatform: Int64]?

    package init(timeZone: TimeZone, zoneName: String, priority: SourcePriority, heartbeatMaxGapMinutes: Double,
                 weekStart: Int, maxHeartRate: Double?, quality: QualityBuilder.Settings, localDays: LocalDays) {
        self.timeZone = timeZone; self.zoneName = zoneName; self.priority = priority
        self.heartbeatMaxGapMinutes = heartbeatMaxGapMinutes; self.weekStart = weekStart; self.maxHeartRate = maxHeartRate
        self.quality = quality; self.localDays = localDays
    }

    /// The data-quality tables' builder under these settings, ranking sources as the merge does.
    package func qualityBuilder(_ database: Database) -> QualityBuilder {
        let priority = priority
        // As `AnalyticsBuilder.RankTable`: every source as recorded and as typed in, ranked together.
        return QualityBuilder(database: database, calendar: calendar(), settings: quality) { sources in
            // An export's own list (the steps' list of a Health Connect export: its activity
            // priority) is the order its sources are shown in; a source it leaves out has no place.
            if let list = DailyMetric.steps.sourceType.flatMap({ priority.listed[$0] }) {
                return Dictionary(sources.compactMap { s in list.firstIndex(of: s.name).map { (s, $0 + 1) } }, uniquingKeysWith: min)
            }
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
    package var stored: StoreSettings {
        StoreSettings(zone: timeZone.identifier, priority: priority.patterns,
                      heartbeatMaxGapMinutes: heartbeatMaxGapMinutes, weekStart: weekStart,
                      maxHeartRate: maxHeartRate,
                      validDayMinWatchHours: quality.validDayMinWatchHours == QualityBuilder.defaultValidDayMinWatchHours
                          ? nil : quality.validDayMinWatchHours, localDays: localDays)
            .with(listedPriority: priority.listedDigest, platformPriority: priority.platforms.line)
    }

    /// The calendar of every local day the analytics count: the one place that decides it.
    /// Along the timeline when the days follow it and it is known; else the one zone (home).
    package func calendar() -> LocalCalendar {
        if localDays == .whereRecorded, let timeline { return LocalCalendar(timeline: timeline) }
        return LocalCalendar(timeZone: timeZone)
    }

    /// These settings with the run's timeline.
    package func with(_ timeline: ZoneTimeline) -> AnalyticsSettings {
        var settings = self
        settings.timeline = timeline
        return settings
    }

    /// One line that changes whenever the analytics would.
    package var fingerprint: String { stored.line }

    /// The analytics stage under these settings.
    package func builder(tap: (@Sendable (String, [SeriesReader.Row]) throws -> Void)? = nil) -> AnalyticsBuilder {
        var builder = AnalyticsBuilder(calendar: calendar(), priority: priority,
                                       heartbeatMaxGapMinutes: heartbeatMaxGapMinutes, tap: tap)
        builder.platformStarts = platformStarts
        return builder
    }

    package func save(in database: Database) throws { try stored.save(in: database) }
}
