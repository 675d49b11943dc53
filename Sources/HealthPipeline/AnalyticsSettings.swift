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
    var priority: SourcePriority
    var heartbeatMaxGapMinutes: Double
    var weekStart: Int
    /// The maximum heart rate of the workouts' zones (`maxHeartRate`); nil: from the birth date.
    var maxHeartRate: Double?

    init(_ config: PipelineConfig, timeZone: TimeZone) throws {
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
    }

    /// These settings as the store saves them.
    var stored: StoreSettings {
        StoreSettings(zone: timeZone.identifier, priority: priority.patterns,
                      heartbeatMaxGapMinutes: heartbeatMaxGapMinutes, weekStart: weekStart,
                      maxHeartRate: maxHeartRate)
    }

    /// One line that changes whenever the analytics would.
    var fingerprint: String { stored.line }

    /// The analytics stage under these settings.
    func builder(tap: (@Sendable (String, [SeriesReader.Row]) throws -> Void)? = nil) -> AnalyticsBuilder {
        AnalyticsBuilder(calendar: LocalCalendar(timeZone: timeZone), priority: priority,
                         heartbeatMaxGapMinutes: heartbeatMaxGapMinutes, tap: tap)
    }

    func save(in database: Database) throws { try stored.save(in: database) }
}
