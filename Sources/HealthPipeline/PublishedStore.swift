import Foundation
import HealthAnalytics
import HealthCore
import HealthDedupe
import HealthEmit
import SQLite
import HealthStore
import PrivateFiles

/// The store of earlier runs, when an incremental run can build on it: same schema, same
/// analytics settings, at least one finished run.
///
/// The published file is never written: the run works on a private copy (`workingCopy`, made
/// with SQLite's backup, a fraction of a second for a year of data), which is then published
/// by rename together with the other outputs, all or nothing. A run that fails or is killed
/// leaves the published store exactly as it was, byte for byte.
struct PublishedStore {
    /// The working copy; or, until `copied()` (`isCopy` false), the published store itself, read only.
    let database: Database
    let workingCopy: String
    let anchors: Anchors
    /// Its workouts and correlations, which the run's sink then does not write again.
    let stored: StoredIdentities
    let nextRunID: Int64
    /// The schema version of the published store (below `StoreSchema.version`: upgraded in the copy).
    var upgradedFrom = StoreSchema.version
    /// Whether `database` is the private working copy (false: the copy is not made yet).
    var isCopy = true
    /// The published store's path.
    var publishedPath = ""

    /// `trusted`: the store is as this program published it (`StoreFingerprint`), so the
    /// whole-file check is skipped.
    ///
    /// `deferCopy`: when the copy would be the published bytes as they are (no write-ahead log,
    /// no upgrade, no anchor to repair), it is not made yet: the store is read in place, and
    /// `copied()` makes it once the run knows it has something to add (`NothingNew`).
    static func openIfCompatible(_ path: String, settings: AnalyticsSettings, workingCopy: String,
                                 trusted: Bool = false, deferCopy: Bool = false,
                                 addingPlatform: Bool = false) throws -> PublishedStore? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        // Not through a link: a `health.sqlite` replaced by one is refused, naming it.
        guard (info.st_mode & S_IFMT) != S_IFLNK else {
            throw HealthETLError.cannotCreateOutput("\(path) is a symbolic link; refusing to write through it")
        }
        let published = try Database(path: path, mode: .readOnly, followLinks: false)
        // Checked before anything is built on it: a damaged store is named, with the way out,
        // instead of failing half-way (or, worse, not at all).
        if !trusted, let problem = StoreCheck.problem(in: published) { throw StoreCheck.damaged(path, problem) }
        guard case let version = try HealthStore(database: published).schemaVersion(),
              (StoreSchema.oldestUpgradable...StoreSchema.version).contains(version),
              try settings.stored.match(published, addingPlatform: addingPlatform),
              let lastRun = try HealthStore(database: published).lastRunID() else { return nil }
        unlink(workingCopy)   // a killed run's leftover, whether this run copies or not
        let hasLog = FileManager.default.fileExists(atPath: path + "-wal")
        if deferCopy, !hasLog, version == StoreSchema.version,
           try HealthStore(database: published).anchorCount(newerThan: try AnchorCeiling.of(store: published)) == 0 {
            var store = PublishedStore(database: published, workingCopy: workingCopy, anchors: try readAnchors(published),
                                       stored: try StoredIdentities.read(from: published), nextRunID: lastRun + 1)
            (store.isCopy, store.publishedPath) = (false, path)
            return store
        }
        let database = try makeWorkingCopy(workingCopy, of: path, backingUp: hasLog ? published : nil)
        // A store of an earlier version gets the newer tables in the copy, published with the
        // rest of this run (the published file is never written).
        if version < StoreSchema.version { try StoreSchema.upgrade(database) }
        try AnchorCeiling.repairAnchors(in: database, ceiling: try AnchorCeiling.of(store: database))
        var store = PublishedStore(database: database, workingCopy: workingCopy, anchors: try readAnchors(database),
                                   stored: try StoredIdentities.read(from: database), nextRunID: lastRun + 1)
        (store.upgradedFrom, store.publishedPath) = (Int(version), path)
        return store
    }

    /// The store read in place (`deferCopy`), now with its private working copy: what
    /// `openIfCompatible` returns without deferring (the anchors are the same: none needed repair).
    func copied() throws -> PublishedStore {
        guard !isCopy else { return self }
        let database = try Self.makeWorkingCopy(workingCopy, of: publishedPath, backingUp: nil)
        var store = PublishedStore(database: database, workingCopy: workingCopy, anchors: anchors, stored: stored,
                                   nextRunID: nextRunID)
        store.publishedPath = publishedPath
        return store
    }

    /// The private copy of the published store at `path`, open: by SQLite's backup of
    /// `published` when the store holds part of its data in a write-ahead log (a store of an
    /// earlier version), else by copying the file (in the kernel: a third of the backup's time).
    private static func makeWorkingCopy(_ workingCopy: String, of path: String, backingUp published: Database?) throws -> Database {
        unlink(workingCopy)
        if let published {
            try published.backup(to: workingCopy)
        } else {
            try copyPrivateFile(from: path, to: workingCopy)
        }
        let database = try Database(path: workingCopy, mode: .readWrite)
        // Private until it is published: a rollback journal (a store of an earlier version may
        // carry a write-ahead log's mode), committed once.
        try HealthStore(database: database).useRollbackJournal()
        return database
    }

    private static func readAnchors(_ database: Database) throws -> Anchors {
        var newest: [Anchors.Key: Timestamp] = [:]
        for anchor in try HealthStore(database: database).anchors() {
            newest[Anchors.Key(type: anchor.type, source: anchor.source)] = Timestamp(microseconds: anchor.newestCreation)
        }
        return Anchors(newest)
    }

    /// Applies the delta and recomputes the analytics of the days it touched, then calls
    /// `finishing` (whether anything changed) to stage the outputs and log the run, all in one
    /// transaction of the working copy.
    func apply(delta: String, settings: AnalyticsSettings, summary: inout RunSummary, recordedAt: Timestamp,
               progress: ProgressReporter, finishing: (Bool, inout RunSummary) throws -> Void) throws {
        let started = PhaseMark()
        let merger = StoreMerger(database: database)
        try merger.attach(deltaPath: delta)
        defer { merger.detach() }
        try database.transaction {
            try progress.phase(.storing, "merging the new records")
            let store = HealthStore(database: database)
            let exportBefore = try store.exportDateText()
            let merged = try merger.merge()
            summary.newSamples = merged.newSamples
            summary.newWorkouts = merged.newWorkouts
            summary.newECGRecordings = merged.newECGRecordings
            let update = try StoreAnalytics.update(database, settings: settings, merged: merged, exportBefore: exportBefore,
                                                   upgradedFrom: upgradedFrom, recordedAt: recordedAt,
                                                   progress: progress.analytics)
            summary.touchedDays = update.touchedDays
            summary.samples = try store.sampleCount()
            guard let result = update.result else {
                summary.record("merge_analytics", since: started)
                // New recordings or clinical records change no day, but their files are to be rewritten.
                return try finishing(merged.newECGRecordings > 0 || merged.changedClinicalResources > 0, &summary)
            }
            summary.days = result.days
            summary.sleepNights = result.nights
            try store.recordAnchors(fromSampleID: merged.firstNewSampleID, ceiling: try AnchorCeiling.of(store: database))
            try store.countRoutePoints()
            summary.record("merge_analytics", since: started)
            try finishing(true, &summary)
        }
    }
}
