import Foundation
import HealthAggregate
import HealthAnalytics
import HealthCore
import HealthDedupe

/// The analytics' settings as a pipeline file gives them, each checked (a mistake is a usage
/// error naming the key).
extension AnalyticsSettings {
    /// `localDays`: the mode when the pipeline's `localDays` is unset (`TimeZoneChoice.localDays`:
    /// a configured zone keeps its meaning, one zone).
    init(_ config: PipelineConfig, timeZone: TimeZone, zoneName: String? = nil, localDays unset: LocalDays = .zone) throws {
        var localDays = unset
        if let name = config.localDays {
            guard let mode = LocalDays(rawValue: name) else {
                throw HealthETLError.usage("localDays '\(name)' is neither where-recorded nor zone")
            }
            localDays = mode
        }
        guard let weekStart = PeriodRollup.weekStartIndex(config.weekStart) else {
            throw HealthETLError.usage("weekStart '\(config.weekStart ?? "")' is not a day name (monday … sunday)")
        }
        if let m = config.maxHeartRate, !(m >= 100 && m <= 250) {
            throw HealthETLError.usage("maxHeartRate \(m) is not a heart rate between 100 and 250 bpm")
        }
        let minHours = config.validDayMinWatchHours ?? QualityBuilder.defaultValidDayMinWatchHours
        guard minHours.isFinite, (0...24).contains(minHours) else {
            throw HealthETLError.usage("validDayMinWatchHours \(minHours) is not a number of hours from 0 to 24")
        }
        self.init(timeZone: timeZone, zoneName: zoneName ?? timeZone.identifier,
                  priority: SourcePriority(patterns: config.sourcePriority),
                  heartbeatMaxGapMinutes: config.heartbeatMaxGapMinutes ?? 30, weekStart: weekStart,
                  maxHeartRate: config.maxHeartRate, quality: QualityBuilder.Settings(validDayMinWatchHours: minHours),
                  localDays: localDays)
        priority.platforms = try PlatformPriority(config.platformPriority ?? [:])
    }
}
