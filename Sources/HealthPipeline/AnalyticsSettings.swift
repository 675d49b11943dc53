import Foundation
import HealthAggregate
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

    init(_ config: PipelineConfig, timeZone: TimeZone) throws {
        guard let weekStart = PeriodRollup.weekStartIndex(config.weekStart) else {
            throw HealthETLError.usage("weekStart '\(config.weekStart ?? "")' is not a day name (monday … sunday)")
        }
        self.timeZone = timeZone
        priority = SourcePriority(patterns: config.sourcePriority)
        heartbeatMaxGapMinutes = config.heartbeatMaxGapMinutes ?? 30
        self.weekStart = weekStart
    }

    /// One line that changes whenever the analytics would.
    var fingerprint: String {
        "schema=\(StoreSchema.analyticsVersion);zone=\(timeZone.identifier);priority=\(priority.patterns.joined(separator: "|"));"
            + "heartbeatGap=\(heartbeatMaxGapMinutes);weekStart=\(weekStart)"
    }

    /// The analytics stage under these settings.
    func builder(tap: (@Sendable (String, [SeriesReader.Row]) throws -> Void)? = nil) -> AnalyticsBuilder {
        AnalyticsBuilder(calendar: LocalCalendar(timeZone: timeZone), priority: priority,
                         heartbeatMaxGapMinutes: heartbeatMaxGapMinutes, tap: tap)
    }

    func save(in database: Database) throws {
        try database.rows("INSERT OR REPLACE INTO settings (key, value) VALUES ('analytics', ?)", [.text(fingerprint)])
    }

    static func stored(in database: Database) throws -> String? {
        try database.rows("SELECT value FROM settings WHERE key = 'analytics'").first?.first?.string
    }
}
