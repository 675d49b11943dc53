import Foundation
import HealthAggregate
import HealthAnalytics
import HealthCore
import HealthDedupe
import HealthEmit
import HealthIngest
import HealthNormalize
import HealthStore
import SQLite

/// The import job: ingest (the input's reader) → normalize → dedupe → load, each on its own
/// thread, joined by bounded channels of batches; then merge and aggregate into analytics,
/// then the outputs.
///
/// The first run (or `--full`) builds a new store and publishes it by rename. Later runs are
/// incremental: records older than their anchor are dropped at once, the rest load into a
/// small delta store, which is applied to the published store in one transaction together
/// with the analytics of the days it touched. Either way, a reader sees the old outputs or the
/// new ones, never a mix. The load is checkpointed in its staged store (`.healthetl/`): the same
/// command after a kill resumes it (`Loader`, `LoadCheckpoint`).
package struct ImportJob: Sendable {
    package struct Options: Sendable {
        package var export: String
        package var out: String
        /// The zone for local days and why it was chosen; nil: the export's own (`TimeZoneChoice`).
        package var timeZone: TimeZoneChoice?
        package var config: PipelineConfig
        /// Receives the run's progress (see `ImportProgressHandler`: on the thread that runs the job).
        package var progress: ImportProgressHandler?
        /// Asked at every report before the outputs are published: true stops the run with
        /// `CancellationError`, leaving the published outputs as they were.
        package var isCancelled: @Sendable () -> Bool
        package var full: Bool
        /// The outputs besides the store, staged in this order and published with it (made of the
        /// pipeline's `outputs` by `OutputRegistry`, above the pipeline; a person's import adds
        /// their dataset partitions).
        package var outputs: [any Output]
        /// What every output the registry knows publishes in `out` (the planted-link check and
        /// the stale-staging sweep look at all of them, chosen by this pipeline or not).
        package var layout: OutputLayout
        /// The kinds of input `export` may be, asked in order (`InputFormats.all`).
        package var inputs: [any HealthInputFormat.Type]
        /// The person's exports of other platforms, read with `export` into one store built
        /// from all of them (issue 60: `import --full iphone.zip android.zip`).
        package var moreExports: [String] = []
        /// The person says an export of a platform the store does not hold yet is theirs
        /// (`--same-person`), where its data cannot tell (`SamePerson.checkAcross`).
        package var samePerson = false
        package init(export: String, out: String, timeZone: TimeZoneChoice?, config: PipelineConfig = PipelineConfig(),
                    outputs: [any Output], layout: OutputLayout, progress: ImportProgressHandler? = nil,
                    isCancelled: @escaping @Sendable () -> Bool = { false }, full: Bool = false,
                    inputs: [any HealthInputFormat.Type] = InputFormats.all) {
            self.export = export; self.out = out; self.timeZone = timeZone; self.config = config; self.outputs = outputs
            self.layout = layout; self.inputs = inputs
            self.progress = progress; self.isCancelled = isCancelled; self.full = full
        }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    package func run() throws -> RunSummary {
        let started = Date()
        let folder = OutputFolder(path: options.out, layout: options.layout)
        let source = try PersonExports.open([options.export] + options.moreExports, scratch: folder.stateFolder,
                                            trying: options.inputs)
        let zone = try options.timeZone
            ?? TimeZoneChoice.unconfigured(source: source, publishedStore: options.full ? nil : folder.databasePath)
        var settings = try AnalyticsSettings(options.config, timeZone: zone.zone, zoneName: zone.name,
                                             localDays: zone.localDays(configured: options.timeZone != nil))
        // The store's exports of other platforms (a person who switched phones), kept with it.
        let stored = options.full || source.parts.count > 1 ? StoreExports() : PersonExports.stored(in: folder.databasePath)
        // The export's own priority lists (set by the person on the phone, in Health Connect's
        // settings) decide the types they list; the pipeline's patterns decide the rest. An
        // export without lists (an iPhone's) keeps those the store's other export brought.
        settings.priority.listed = source.sourcePriority.isEmpty && !source.parts.contains { $0.platform == .healthConnect }
            ? stored.lists : source.sourcePriority
        let files = OutputFiles(folder: folder, outputs: options.outputs)
        try folder.prepare()
        try SQLiteTemporaryFiles.keep(in: folder)
        let lock = try RunLock(folder: folder)
        defer { withExtendedLifetime(lock) {} }
        do {
            var summary = try runLocked(started: started, settings: settings, zone: zone, source: source, stored: stored,
                                        folder: folder, files: files)
            summary.outputsUnchanged = options.outputs
                .filter { !summary.outputsWritten.contains($0.summaryName) && !$0.published.isEmpty && !$0.isMissing(in: folder.path) }
                .map(\.summaryName)
            folder.appendToRunLog(summary.json)
            return summary
        } catch {
            folder.appendToRunLog(RunSummary.failureJSON(error, input: options.export))
            throw error
        }
    }

    /// The run itself, once this process holds the output folder's lock.
    private func runLocked(started: Date, settings: AnalyticsSettings, zone: TimeZoneChoice, source given: any HealthInput,
                           stored: StoreExports, folder: OutputFolder,
                           files: OutputFiles) throws -> RunSummary {
        var source = given
        folder.removeStaleStaging()
        // `--full` starts over: whatever an interrupted run left is not resumed.
        if options.full { CheckpointFiles.clear(in: folder) }
        defer { files.discard() }
        let exportSeen = try UnchangedExport(
            source: source, job: UnchangedExport.job(settings: settings, outputs: OutputSettings(options.config),
                                                     names: options.outputs.map(\.name)))
        let storeTrusted = StoreFingerprint.unchangedSincePublished(folder)
        if !options.full, UnchangedExport.outputsAsPublished(folder, storeTrusted: storeTrusted, outputs: options.outputs),
           let last = UnchangedExport.recorded(exportSeen, in: folder) {
            var summary = RunSummary(unchanged: source, input: options.export, timeZone: zone, out: options.out, published: last)
            summary.localDays = settings.localDays.rawValue
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        }
        // Another person's export is refused before anything is read or written (issue 44). A
        // store that cannot be read is left to the checks below, which name its damage.
        let storedProfile = options.full || !FileManager.default.fileExists(atPath: folder.databasePath) ? nil
            : (try? HealthStore(path: folder.databasePath).profile()) ?? nil
        let person = try SamePerson.check(export: storedProfile == nil ? nil : try source.person(),
                                          store: storedProfile, input: options.export, out: options.out)
        let progress = ProgressReporter(totalBytes: source.progressTotal, handler: options.progress, isCancelled: options.isCancelled)
        // An export that changed what the store holds (an app edited or deleted a Health Connect
        // record since the last export) cannot be added to it: the store is rebuilt from it.
        let rewritten = options.full ? nil : try InputRewrite.reason(source, stored: stored, publishedStore: folder.databasePath,
                                                                       input: options.export, out: options.out)
        let full = options.full || rewritten != nil || source.parts.count > 1
        // An export of a platform the store lacks: one person's two phones, once its data or the
        // person says so (after the load, `SamePerson.checkAcross`).
        let addsPlatform = !stored.platforms.isEmpty && !stored.platforms.contains(source.platform)

        let workingCopy = (folder.stateFolder as NSString).appendingPathComponent("next-store-\(getpid()).sqlite")
        // The copy, its journal, and the super-journal (`-mj…`) SQLite leaves beside it when a
        // transaction over it and an attached store fails part way (found by fault injection).
        defer {
            let name = (workingCopy as NSString).lastPathComponent
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.stateFolder)) ?? [] where file.hasPrefix(name) {
                unlink((folder.stateFolder as NSString).appendingPathComponent(file))
            }
        }
        // The copy waits until the run knows it adds something (`NothingNew`) when the store and
        // the outputs are as published: otherwise the run rewrites something in any case.
        let deferCopy = storeTrusted && !Publication.wasCutShort(in: folder)
            && !options.outputs.contains { $0.isMissing(in: folder.path) }
        let previous = full ? nil
            : try PublishedStore.openIfCompatible(folder.databasePath, settings: settings, workingCopy: workingCopy,
                                                  trusted: storeTrusted, deferCopy: deferCopy, addingPlatform: addsPlatform)
        // A store of two platforms is only ever rebuilt from both: the other's export is read
        // again from where it was imported (`--full` alone replaces the store with this export).
        if previous == nil, !options.full, source.parts.count == 1 {
            source = try PersonExports.withOthers(source, stored: stored, scratch: folder.stateFolder, trying: options.inputs,
                                                  why: rewritten ?? "the store is rebuilt", out: options.out)
        }
        let checkpoints = CheckpointFiles(folder: folder, incremental: previous != nil)
        let job = "\(previous.map { "incremental after run \($0.nextRunID - 1)" } ?? "full");\(settings.fingerprint)"
        let input = exportSeen.input
        var notes = person.notes + (rewritten.map { [$0] } ?? [])
        if previous == nil, !full, let why = RebuildReason.explain(publishedStore: folder.databasePath, settings: settings) {
            notes.append(why)
        }
        let resumed = checkpoints.resumable(input: input, job: job) { notes.append($0) }
        // A full build computes its analytics while the loaded store is indexed.
        let alongside = AnalyticsAlongsideIndex(files: files, settings: settings)
        var load: Loader.Result
        do {
            // Dated as the published store's rows are (its timeline); a full load: at home.
            let calendar = try previous.flatMap { try StoreSettings.calendar(in: $0.database) } ?? settings.calendar()
            load = try Loader(source: source, staged: checkpoints.staged, calendar: calendar,
                              anchors: try previous.map { try Self.anchors(of: $0, for: source.platform) } ?? Anchors(),
                              alreadyStored: previous?.stored ?? StoredIdentities(),
                              overlapSeconds: options.config.anchorOverlapSeconds ?? 20,
                              runID: previous?.nextRunID ?? 1, progress: progress,
                              checkpoint: resumed ?? LoadCheckpoint(input: input, job: job),
                              checkpointRecords: max(1, options.config.checkpointRecords ?? 250_000),
                              checkpointCopy: checkpoints.copy)
                .run(alongsideIndex: previous == nil ? { try alongside.start($0, $1, sleepZones: $2) } : nil)
        } catch {
            alongside.samples?.cancel()
            // A load that committed no checkpoint has nothing to resume: no staged store is left behind.
            if !FileManager.default.fileExists(atPath: checkpoints.copy) { checkpoints.discard() }
            throw error
        }
        // Another platform's export: is it this person's? (A store built from the person's exports
        // of two platforms at once asks the same of the two.)
        if addsPlatform || given.parts.count > 1, let delta = load.database {
            do {
                let platforms = source.parts.map(\.platform)
                let (against, platform) = previous.map { (HealthStore(database: $0.database), given.platform) }
                    ?? (HealthStore(database: delta), platforms.last!)
                let before = previous == nil ? Array(platforms.dropLast()) : stored.platforms
                notes.append(try SamePerson.checkAcross(stored: against, storedPlatforms: before, exported: HealthStore(database: delta),
                                                        platform: platform, confirmed: options.samePerson,
                                                        input: given.parts.last!.path, out: options.out))
            } catch let refusal as HealthETLError {
                load.database = nil
                checkpoints.discard()
                throw refusal
            }
        }
        if let previous, !person.decided, let delta = load.database {
            do {
                try SamePerson.checkDevices(stored: try HealthStore(database: previous.database).appleDeviceNames(),
                                            exported: try HealthStore(database: delta).appleDeviceNames(),
                                            input: options.export, out: options.out)
            } catch let refusal as HealthETLError {
                load.database = nil
                checkpoints.discard()   // a refused export leaves nothing to resume
                throw refusal
            }
        }
        var summary = RunSummary(input: options.export, source: source, load: load, timeZone: zone.name,
                                 out: options.out)
        summary.timeZoneReason = zone.reason
        summary.localDays = settings.localDays.rawValue
        summary.resumedAtElement = load.resumedAt
        let recordedAt = Timestamp(secondsSince1970: started.timeIntervalSince1970)
        summary.notes += notes
        var store = previous
        if let inPlace = previous, !inPlace.isCopy {
            load.database = nil   // closes the delta so the store can attach it
            if try NothingNew.holds(store: inPlace, delta: checkpoints.staged, settings: settings,
                                    outputs: OutputSettings(options.config)) {
                return try finishWithNothingNew(inPlace, summary: summary, started: started, exportSeen: exportSeen,
                                                folder: folder, checkpoints: checkpoints, progress: progress)
            }
            store = try inPlace.copied()
        }
        // An earlier run's publication cut short (killed between two moves): every output is
        // rewritten, whether this export brings anything new or not.
        let cutShort = Publication.wasCutShort(in: folder)
        if cutShort { summary.notes.append("an earlier run was stopped while publishing: every output is rewritten") }
        var moves: [StagedOutput] = []
        let digest = RunDigest(before: HealthStore.digestDays(atPath: folder.databasePath), config: options.config)
        // Shared by both builds: stages the outputs that are due from the finished store (the
        // rest, if `written` holds some tables), and logs the run into it.
        func finish(_ database: Database, changed: Bool, written: [String: Int], _ summary: inout RunSummary) throws {
            // Before the outputs, which name the zone: every run, so that a store built before the
            // name was kept gets it too.
            try StoreSettings.saveZoneName(settings.zoneName, in: database)
            try PersonExports.record(source, replacing: full && (options.full || given.parts.count > 1) ? StoreExports() : stored,
                                     in: database)
            // The store's first platform: the one a source stored before version 12 came from.
            if stored.platforms.count < 2 && !addsPlatform { try StoreSettings.savePlatform(source.platform.rawValue, in: database) }
            let outputSettings = OutputSettings(options.config)
            let settingsChanged = try RunOutcome.noteOutputSettings(outputSettings, in: database, changed: changed,
                                                                    files: files, summary: &summary)
            if changed || cutShort { try digest.note(in: database, into: &summary) }
            let outputsStart = PhaseMark()
            let staged = try files.stage(from: database, changed: changed || cutShort || settingsChanged,
                                         written: Set(written.keys)) {
                try progress.phase(.writingFiles, $0)
            }
            moves = staged.files.moves
            if !staged.names.isEmpty || !written.isEmpty {
                summary.outputsWritten = ["health.sqlite"] + staged.names
                summary.outputRows = staged.files.rows.merging(written) { a, _ in a }
                summary.record("outputs", since: outputsStart)
            }
            try outputSettings.save(in: database)
            try RunOutcome.countStore(database, into: &summary)
            summary.zoneTimeline = try ZoneStore(database: database).storedTimeline(home: settings.zoneName)?.summaryText
            summary.finish(started: started)
            try RunLog.record(summary, in: database, started: started)
            // The last point at which a cancelled run stops: from here on it publishes.
            try progress.phase(.writingFiles, "publishing")
        }
        let build: any StoreBuild = store.map {
            IncrementalBuild(previous: $0, settings: settings, progress: progress, recordedAt: recordedAt, delta: checkpoints.staged)
        } ?? FullBuild(settings: settings, alongside: alongside, files: files, progress: progress, recordedAt: recordedAt,
                       staged: checkpoints.staged)
        summary.mode = build.mode
        // Every output moves into place as one step, the store last; a failure anywhere undoes every move.
        let publication = Publication(folder: folder)
        // Until this run has recorded its own export, none is on record: a record of the last one
        // must not outlive a store that this run replaces.
        UnchangedExport.forget(folder)
        do {
            let store = try build.build(&load, &summary, finish: finish)
            try files.publish(moves, into: publication)
            try publication.move(store, to: folder.databasePath)
            try publication.syncFolders()
            checkpoints.discard()
        } catch {
            publication.rollBack()
            throw error
        }
        publication.commit()
        StoreFingerprint.record(folder)
        exportSeen.record(folder, holding: summary)
        progress.done()
        return summary
    }

    /// The published store's anchors that are this platform's: in a store of one person's two
    /// phones, those of source names only its sources bear (the others' records are then
    /// dropped as exact copies at the load, or kept).
    private static func anchors(of store: PublishedStore, for platform: InputPlatform) throws -> Anchors {
        guard let names = try HealthStore(database: store.database).sourceNames(onlyOf: platform) else { return store.anchors }
        return Anchors(store.anchors.newestCreation.filter { names.contains($0.key.source) })
    }

    /// The end of a run whose export brought nothing the store lacks (`NothingNew`): the store
    /// and every output stay as published; the export is recorded as the one they hold, and
    /// the run's line goes to the run log (by `run`).
    private func finishWithNothingNew(_ store: PublishedStore, summary: RunSummary, started: Date, exportSeen: UnchangedExport,
                                      folder: OutputFolder, checkpoints: CheckpointFiles,
                                      progress: ProgressReporter) throws -> RunSummary {
        var summary = summary
        summary.mode = "nothing-new"
        (summary.newSamples, summary.newWorkouts, summary.touchedDays, summary.newECGRecordings) = (0, 0, 0, 0)
        summary.samples = try HealthStore(database: store.database).sampleCount()
        try RunOutcome.countStore(store.database, into: &summary)
        // The last point at which a cancelled run stops, as before publishing.
        try progress.phase(.writingFiles, "nothing new: the store and outputs stay as published")
        summary.finish(started: started)
        checkpoints.discard()
        exportSeen.record(folder, holding: summary)
        progress.done()
        return summary
    }
}
