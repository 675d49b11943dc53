import Foundation
import HealthAggregate
import HealthCore
import HealthStore
import SQLite

/// Recomputes the analytics of some days (or all) in a store, inside the caller's
/// transaction, in this order: the days themselves, data quality, then every week, month and
/// year holding one of them (re-summed from the stored days), vitals, the cycles (whole), each
/// day's zone.
struct Recompute {
    let database: Database
    let settings: AnalyticsSettings

    /// `tap` gets every batch of samples read, with its type: all samples if `days` is nil.
    /// `computed`: every day's analytics, computed already (`days` is then nil).
    func run(days: Set<CivilDate>?, recordedAt: Timestamp, progress: AnalyticsProgress,
             computed: FullBuildAnalytics.Computed? = nil, tap: SeriesTap? = nil) throws -> StoreAnalytics.Result {
        try progress("daily", 0)
        let content: AnalyticsWriter.Content
        var tallies = computed.map { (quality: $0.quality, workouts: $0.workouts) }
        if let computed {
            content = computed.content
        } else if days == nil {
            // Every sample passes through the builder: the tallies ride along.
            let gather = try SeriesTallies(database: database, calendar: settings.calendar())
            content = try settings.builder(tap: gather.tap(then: tap)).build(days: nil, from: SeriesReader(database: database))
            tallies = gather.finish()
        } else {
            content = try settings.builder(tap: tap).build(days: days, from: SeriesReader(database: database))
        }
        let writer = AnalyticsWriter(database: database)
        try writer.replace(days: days, with: content, recordedAt: recordedAt)
        try writer.markPartialDays(exportDay: Self.exportDay(in: database, calendar: settings.calendar()))
        try progress("data quality", 0.2)
        var quality = settings.qualityBuilder(database)
        try quality.update(days: days, tally: tallies?.quality)
        let stored = HealthStore(database: database)
        for (kind, within) in [(PeriodKind.week, 0.4), (.month, 0.65), (.year, 0.85)] {
            try progress(kind.rawValue + "ly", within)
            let starts = days.map { Set($0.map { PeriodRollup.bounds(kind, of: $0, weekStart: settings.weekStart).0 }) }
            let periodDays = try starts.map { starts in
                try starts.flatMap { start in
                    try stored.daily(from: start, through: PeriodRollup.bounds(kind, of: start, weekStart: settings.weekStart).1)
                }
            } ?? stored.allDaily()
            let periods = PeriodRollup.periods(kind, of: periodDays, weekStart: settings.weekStart)
            try writer.replacePeriods(kind, starts: starts, with: periods, recordedAt: recordedAt)
        }
        var vitals = VitalsBuilder(calendar: settings.calendar(), maxHeartRate: settings.maxHeartRate,
                                   sourcePriority: settings.priority)
        _ = try vitals.update(VitalsStore(database: database), days: days, heartRates: tallies?.workouts)
        // Issue 60: the cycles, rebuilt whole (few records; a new start changes the cycle before it).
        var cycles = CycleBuilder(calendar: settings.calendar())
        try cycles.update(CycleStore(database: database))
        // Issue 48: every day's zone and travel mark, and the timeline (`ZoneUpdate`) kept for
        // the next run, the summary, `people show` and every reader of the store.
        try writer.markZones(calendar: settings.calendar())
        let zones = ZoneStore(database: database)
        try zones.replace(with: try settings.timeline ?? ZoneTimeline.build(evidence: zones.evidence(), home: settings.zoneName))
        try progress("finish", 1)
        return StoreAnalytics.Result(days: content.days.count, nights: content.nights.count)
    }

    /// The local day of the stored export's `ExportDate` (the profile follows the newest
    /// export), nil when the export had none.
    static func exportDay(in database: Database, calendar: LocalCalendar) throws -> CivilDate? {
        guard let text = try HealthStore(database: database).exportDateText(),
              let instant = Timestamp(iso8601: text) else { return nil }
        var calendar = calendar
        return calendar.localDate(of: instant)
    }
}
