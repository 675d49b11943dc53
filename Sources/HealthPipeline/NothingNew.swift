import Foundation
import HealthAnalytics
import HealthCore
import HealthStore
import SQLite

/// The nightly run over a new export file whose records the store already holds: the anchors
/// skip nearly all of them, and the few the load keeps (records created within the overlap,
/// records without a `creationDate`, activity summaries, the profile) are all in the store.
/// Publishing the store would then change nothing but its run history, so the run neither
/// copies nor publishes it: it records the export like an `UnchangedExport` run and logs its
/// line in `runs.log` (mode `nothing-new`).
///
/// A change a reader would see — a new record, a summary that grew, another `ExportDate` (the
/// report shows the export's time, and the day it fell on is partial), a setting the store
/// must record, analytics to compute after `reset` — and the run copies the store and
/// publishes it as before.
enum NothingNew {
    /// Whether merging `delta` into `store` (read in place, not yet copied) and publishing it
    /// would change nothing but the store's run log.
    static func holds(store: PublishedStore, delta: String, settings: AnalyticsSettings,
                      outputs: OutputSettings) throws -> Bool {
        guard !store.isCopy else { return false }
        let database = store.database
        let store = HealthStore(database: database)
        guard try store.dayCount() > 0, try store.storedZoneName() == settings.zoneName,
              try outputs.changes(since: database)?.isEmpty == true else { return false }
        let merger = StoreMerger(database: database)
        try merger.attach(deltaPath: delta)
        defer { merger.detach() }
        return try merger.firstTableTheMergeWouldChange() == nil
    }
}
