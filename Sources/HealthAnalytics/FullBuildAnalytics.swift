import HealthCore
import HealthStore
import SQLite

/// A full build's analytics, computed from the sorted runs of the loaded samples while SQLite
/// builds the (type, start) index, instead of read back through that index after it. The
/// pipeline runs `prepare`'s work on a thread beside the index build and hands the result to
/// `StoreAnalytics.rebuild`.
package enum FullBuildAnalytics {
    /// Every day's analytics computed already, with what the quality and vitals tables need
    /// from the same series (`SeriesTallies`) and the run's zone timeline.
    package struct Computed: Sendable {
        var content: AnalyticsWriter.Content
        var quality: QualityTally
        var workouts: WorkoutHeartRates
        var zones: ZoneUpdate
    }

    /// Reads what the analytics need besides the series from the loaded store (on the
    /// caller's thread) and returns the work for the thread beside the index build, which
    /// gives its result to `done`. The zone timeline comes first (`sleepZones`: the sleep
    /// samples' evidence the sink gathered; the workouts' is read here), and the series' rows
    /// of the days it moves are dated again. `samples` starts the tap every batch read goes
    /// through, given the store's sources (the samples output), if there is one.
    package static func prepare(_ database: Database, _ runs: SampleRuns, sleepZones: [ZoneEvidence],
                                settings: AnalyticsSettings, samples: ([SeriesReader.Source]) throws -> SeriesTap?,
                                done: @escaping @Sendable (Computed) -> Void) throws -> @Sendable () throws -> Void {
        let zones = try ZoneUpdate(database, settings: settings,
                                   evidence: sleepZones + ZoneStore(database: database).workoutEvidence())
        let settings = zones.settings
        let reader = SeriesReader(database: database)
        let sources = try reader.sources()
        let identifiers = Dictionary(try reader.allTypes().map { ($0.id, $0.identifier) }, uniquingKeysWith: { a, _ in a })
        let store = try AnalyticsBuilder.StoreContext(reader: reader, sources: sources, priority: settings.priority,
                                                      types: runs.typeIDs.map { ($0, identifiers[$0] ?? "") })
        let tap = try samples(sources)
        // The quality and vitals tallies ride along the same series.
        let tallies = try SeriesTallies(database: database, calendar: settings.calendar())
        let builder = settings.builder(tap: tallies.tap(then: tap))
        let (instants, calendar) = (zones.instants, settings.calendar())
        return {
            let series = RedatedSeries(base: try SampleRunMerger(runs), instants: instants, calendar: calendar)
            let content = try builder.buildAll(store, series: series)
            let gathered = tallies.finish()
            done(Computed(content: content, quality: gathered.quality, workouts: gathered.workouts, zones: zones))
        }
    }
}
