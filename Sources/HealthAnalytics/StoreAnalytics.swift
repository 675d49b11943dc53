import Foundation
import HealthAggregate
import HealthCore
import HealthDedupe
import HealthStore
import SQLite

/// Where the analytics say they are: the part (`daily`, `weekly` …) and how far through the
/// analytics (0…1). The pipeline hands in its progress reporter (a cancellation point too).
package typealias AnalyticsProgress = (_ part: String, _ within: Double) throws -> Void

/// A tap on the series the analytics read: every batch of samples, with its type.
package typealias SeriesTap = @Sendable (String, [SeriesReader.Row]) throws -> Void

/// The analytics of a store, the one module that decides them (issue 57): which days are
/// computed again, in which order — the zone timeline and the rows it moves, the days, data
/// quality, weeks, months and years, vitals, each day's zone — and under which settings. The
/// pipeline calls it once a build, inside the build's transaction: `rebuild` after a full load,
/// `update` after a nightly merge.
package enum StoreAnalytics {
    package struct Result: Sendable { package var days = 0; package var nights = 0 }

    /// What a nightly update did: the days it found touched (nil: every day), and what it
    /// computed (nil: nothing was due).
    package struct Update: Sendable {
        package var touchedDays: Int?
        package var result: Result?
    }

    /// Every day of a full load's store. `beside`: what was computed beside the index build
    /// (`FullBuildAnalytics`), else every day is read back now, through `tap`. The settings
    /// (with the run's timeline) are saved with the store.
    package static func rebuild(_ database: Database, settings: AnalyticsSettings, beside: FullBuildAnalytics.Computed?,
                                recordedAt: Timestamp, progress: AnalyticsProgress, tap: SeriesTap?) throws -> Result {
        // The zone timeline, built beside the index or now; the rows it moves are dated again.
        let zones = try beside?.zones ?? ZoneUpdate(database, settings: settings)
        try zones.redate(database)
        var settings = zones.settings
        let platforms = try PlatformRanks.read(SeriesReader(database: database), priority: settings.priority.platforms)
        settings.platformStarts = platforms.starts
        let result = try Recompute(database: database, settings: settings)
            .run(days: nil, recordedAt: recordedAt, progress: progress, computed: beside, tap: beside == nil ? tap : nil)
        try settings.save(in: database)
        try StoreSettings.savePlatformOrder(platforms.order, in: database)
        return result
    }

    /// After a nightly merge (`merged`) into `database`: the zone timeline of everything stored
    /// now (the days it moved are dated again and recomputed with the rest: the delta was dated
    /// under the timeline the store had), the days the new samples and workouts touch, a day
    /// either side, and the partial days a later export completes. `exportBefore`: the stored
    /// export date before the merge; `upgradedFrom`: the store's version before this run.
    package static func update(_ database: Database, settings: AnalyticsSettings, merged: StoreMerger.Result,
                               exportBefore: String?, upgradedFrom: Int, recordedAt: Timestamp,
                               progress: AnalyticsProgress) throws -> Update {
        let store = HealthStore(database: database)
        let zones = try ZoneUpdate(database, settings: settings,
                                   previous: try ZoneStore(database: database).storedTimeline(home: settings.zoneName))
        try zones.redate(database)
        var settings = zones.settings
        // After `reset` the analytics are empty: every day is to be computed.
        let empty = try store.dayCount() == 0 || zones.moved == nil
        var days = empty ? nil : try touchedDays(database, since: merged.firstNewSampleID, workouts: merged.newWorkoutSpans,
                                                 calendar: settings.calendar()).union(zones.moved?.days ?? [])
        // The platforms' order of a person's two phones (`PlatformRanks`) decides every day both
        // recorded: a store that gains its second platform, or whose order changed, is recomputed whole.
        let platforms = try PlatformRanks.read(SeriesReader(database: database), priority: settings.priority.platforms)
        settings.platformStarts = platforms.starts
        if platforms.order != (try StoreSettings.platformOrder(in: database)) {
            days = nil
            try StoreSettings.savePlatformOrder(platforms.order, in: database)
        }
        // A later export completes the days that were partial (docs/days-and-averages.md):
        // they are recomputed, and every day's `partial_day` set again, even without new samples.
        let exportAfter = try store.exportDateText()
        if days != nil, exportAfter != exportBefore || upgradedFrom < StoreSchema.partialDayVersion {
            days!.formUnion(try AnalyticsWriter(database: database).partialDays())
            for text in [exportBefore, exportAfter] {
                guard let instant = text.flatMap(Timestamp.init(iso8601:)) else { continue }
                var calendar = settings.calendar()
                days!.insert(calendar.localDate(of: instant))
            }
            if let first = try store.firstAnalyticsDay() {
                days!.insert(first)
            }
        }
        // A store upgraded in place this run lacks the rows of the tables its new version
        // added: the update runs even without a day to recompute, and each table's writer
        // (quality, vitals) fills every day of a table it finds unfilled.
        let upgraded = upgradedFrom < StoreSchema.version
        guard days.map({ !$0.isEmpty }) ?? true || upgraded else { return Update(touchedDays: days?.count, result: nil) }
        let result = try Recompute(database: database, settings: settings)
            .run(days: days, recordedAt: recordedAt, progress: progress)
        return Update(touchedDays: days?.count, result: result)
    }

    /// Local days whose analytics new samples or workouts can change: each one's days, and a
    /// day either side (a heart-rate gap or a night reaching over midnight).
    private static func touchedDays(_ database: Database, since firstID: Int64, workouts: [(Int64, Int64)],
                                    calendar: LocalCalendar) throws -> Set<CivilDate> {
        var calendar = calendar
        var days: Set<CivilDate> = []
        func add(_ start: Int64, _ end: Int64) {
            let first = calendar.localDate(of: Timestamp(microseconds: start)).adding(days: -1)
            let last = calendar.localDate(of: Timestamp(microseconds: max(start, end))).adding(days: 1)
            var d = first
            while d <= last { days.insert(d); d = d.adding(days: 1) }
        }
        try HealthStore(database: database).sampleSpans(fromID: firstID, add)
        for (start, end) in workouts { add(start, end) }
        return days
    }
}
