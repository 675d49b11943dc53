import Foundation
import HealthAnalytics
import HealthCore
import HealthStore
import SQLite

/// The step every build ends with, on its finished store inside the store's last transaction:
/// stage the outputs that are due (`changed`: the store changed; `written`: tables already
/// staged, rows per table) and log the run. The run then publishes.
typealias FinishStep = (_ database: Database, _ changed: Bool, _ written: [String: Int], _ summary: inout RunSummary) throws -> Void

/// One way of making a run's store from its load: the full build or the incremental one.
protocol StoreBuild {
    /// `full` or `incremental`, as the run log says.
    var mode: String { get }
    /// Builds the store, calling `finish` once on it, and returns the file published as
    /// `health.sqlite`.
    func build(_ load: inout Loader.Result, _ summary: inout RunSummary, finish: FinishStep) throws -> String
}

/// The first run (or `--full`): the loaded store is the new store; its analytics are computed
/// whole (beside the index build, when the load was not resumed), and the samples output is
/// written from the series they read, on its own thread.
struct FullBuild: StoreBuild {
    let settings: AnalyticsSettings
    let alongside: AnalyticsAlongsideIndex
    let files: OutputFiles
    let progress: ProgressReporter
    let recordedAt: Timestamp
    /// The loaded store's file.
    let staged: String

    var mode: String { "full" }

    func build(_ load: inout Loader.Result, _ summary: inout RunSummary, finish: FinishStep) throws -> String {
        let database = try load.database.orThrow("the loaded store is gone")
        try progress.phase(.analytics)
        let analyticsStart = PhaseMark()
        // The samples output is written from the series the analytics read, on its own thread:
        // alongside the index, or now (a resumed load) as they are read through it.
        let precomputed = alongside.content
        let samples = try alongside.samples
            ?? files.startSamples(sources: SeriesReader(database: database).sources(), alongsideIndex: false)
        do {
            try database.transaction {
                let tap = samples.map { export in { @Sendable in try export.send(type: $0, $1) } as SeriesTap }
                let result = try StoreAnalytics.rebuild(database, settings: settings, beside: precomputed,
                                                        recordedAt: recordedAt, progress: progress.analytics, tap: tap)
                summary.days = result.days
                summary.sleepNights = result.nights
            }
            summary.record("analytics", since: analyticsStart)
            let written = try samples?.finish() ?? [:]
            summary.record("analytics_and_samples", since: analyticsStart)
            try finish(database, true, written, &summary)
        } catch {
            samples?.cancel()   // never leave the thread behind, nor its unfinished file
            throw error
        }
        try HealthStore(database: database).clearLoadCheckpoint()
        return staged
    }
}

/// A later run: the delta loaded beside is applied to a private copy of the published store,
/// with the analytics of the days it touched, in one transaction.
struct IncrementalBuild: StoreBuild {
    let previous: PublishedStore
    let settings: AnalyticsSettings
    let progress: ProgressReporter
    let recordedAt: Timestamp
    /// The loaded delta's file.
    let delta: String

    var mode: String { "incremental" }

    func build(_ load: inout Loader.Result, _ summary: inout RunSummary, finish: FinishStep) throws -> String {
        load.database = nil   // closes the delta so the store can attach it
        try previous.apply(delta: delta, settings: settings, summary: &summary, recordedAt: recordedAt,
                           progress: progress) { changed, summary in
            try finish(previous.database, changed, [:], &summary)
        }
        return previous.workingCopy
    }
}
