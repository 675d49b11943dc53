import HealthAnalytics
import HealthCore
import HealthStore
import SQLite

/// The wiring of a full build's analytics beside the index build (`Loader.AlongsideIndex`):
/// `FullBuildAnalytics` computes them on the loader's second thread, and the samples output is
/// written from the same series on the way, on a thread of its own.
final class AnalyticsAlongsideIndex {
    private let files: OutputFiles
    private let settings: AnalyticsSettings
    private let computed = Handoff<FullBuildAnalytics.Computed>()
    private let export = Handoff<SamplesExport>()

    init(files: OutputFiles, settings: AnalyticsSettings) {
        self.files = files
        self.settings = settings
    }

    /// The analytics of every day, if the load ran them alongside its index build (it does
    /// unless it was resumed).
    var content: FullBuildAnalytics.Computed? { computed.value }
    /// The samples output, once started.
    var samples: SamplesExport? { export.value }

    /// The work for the thread beside the index build (see `FullBuildAnalytics.prepare`).
    func start(_ database: Database, _ runs: SampleRuns, sleepZones: [ZoneEvidence]) throws -> @Sendable () throws -> Void {
        let (files, export, computed) = (files, export, computed)
        return try FullBuildAnalytics.prepare(database, runs, sleepZones: sleepZones, settings: settings, samples: { sources in
            guard let started = try files.startSamples(sources: sources, alongsideIndex: true) else { return nil }
            export.set(started)
            return { @Sendable in try started.send(type: $0, $1) }
        }, done: { computed.set($0) })
    }
}
