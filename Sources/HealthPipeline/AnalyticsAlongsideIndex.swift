import HealthCore
import HealthAnalytics
import HealthEmit
import SQLite
import HealthStore

/// A full build's analytics, computed from the sorted runs of the loaded samples while SQLite
/// builds the (type, start) index (`Loader.AlongsideIndex`), instead of read back through that
/// index after it; the samples output is written from the same series on the way.
final class AnalyticsAlongsideIndex {
    private let files: OutputFiles
    private let settings: AnalyticsSettings
    private let computed = Handoff<AnalyticsUpdate.Computed>()
    /// The run's zone timeline, once `start` built it (the store's rows are dated again by the build).
    private(set) var zones: ZoneUpdate?
    /// The samples output, once started.
    private(set) var samples: SamplesExport?

    init(files: OutputFiles, settings: AnalyticsSettings) {
        self.files = files
        self.settings = settings
    }

    /// The analytics of every day and the tallies, if the load ran them alongside its
    /// index build (it does unless it was resumed).
    var content: AnalyticsUpdate.Computed? { computed.value }

    /// Reads what the analytics need besides the series from the loaded store (on the
    /// loader's thread) and returns the work for the thread beside the index build. The zone
    /// timeline comes first (`sleepZones`: the sleep samples' evidence the sink gathered; the
    /// workouts' is read here), and the series' rows of the days it moves are dated again.
    func start(_ database: Database, _ runs: SampleRuns, sleepZones: [ZoneEvidence]) throws -> @Sendable () throws -> Void {
        let zones = try ZoneUpdate(database, settings: settings,
                                   evidence: sleepZones + ZoneStore(database: database).workoutEvidence())
        let settings = zones.settings
        self.zones = zones
        let reader = SeriesReader(database: database)
        let sources = try reader.sources()
        let identifiers = Dictionary(try reader.allTypes().map { ($0.id, $0.identifier) }, uniquingKeysWith: { a, _ in a })
        let store = try AnalyticsBuilder.StoreContext(reader: reader, sources: sources, priority: settings.priority,
                                                      types: runs.typeIDs.map { ($0, identifiers[$0] ?? "") })
        let export = try files.startSamples(sources: sources, alongsideIndex: true)
        samples = export
        // The quality and vitals tallies ride along the same series.
        let tallies = try SeriesTallies(database: database, calendar: settings.calendar())
        let builder = settings.builder(tap: tallies.tap(then: export.map { e in { @Sendable in try e.send(type: $0, $1) } }))
        let computed = computed
        let (instants, calendar) = (zones.instants, settings.calendar())
        return {
            let series = RedatedSeries(base: try SampleRunMerger(runs), instants: instants, calendar: calendar)
            let content = try builder.buildAll(store, series: series)
            let gathered = tallies.finish()
            computed.set(AnalyticsUpdate.Computed(content: content, quality: gathered.quality, workouts: gathered.workouts))
        }
    }
}
