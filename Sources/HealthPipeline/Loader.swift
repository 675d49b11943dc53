import Foundation
import HealthCore
import PrivateFiles
import HealthDedupe
import HealthEmit
import HealthIngest
import HealthNormalize
import SQLite
import HealthStore

/// The streaming half of an import: ingest on one thread (the input's reader, with the anchor
/// filter), normalize + identity on a second, the load (the store's sink) on the caller's,
/// joined by bounded channels.
///
/// Every `checkpointRecords` records the sink commits, together with a checkpoint of every
/// stage's state at the end of the last batch; a load started again on the same staged store
/// resumes right after it (`resume`), or skips the load altogether once it had finished.
struct Loader {
    let source: any HealthInput
    let staged: String
    /// The calendar the load dates rows with: the store's (one zone, or the timeline it was
    /// dated under); a changed timeline dates the moved days again later (`ZoneUpdate`).
    let calendar: LocalCalendar
    let anchors: Anchors
    /// The published store's workouts and correlations (an incremental run): not written again.
    var alreadyStored = StoredIdentities()
    let overlapSeconds: Double
    let runID: Int64
    let progress: ProgressReporter
    /// The state to start from: a fresh checkpoint, or the one a killed run committed.
    var checkpoint: LoadCheckpoint
    let checkpointRecords: Int
    /// Where the readable copy of each committed checkpoint goes.
    let checkpointCopy: String

    struct Result {
        /// The loaded store, finished and committed; nil once released.
        var database: Database?
        var state: LoadCheckpoint
        /// Wall and CPU seconds and peak RSS of the load and of the index build.
        var phases: [String: PhaseFigures]
        /// The run picked up a killed run's work (at this element of the XML).
        var resumedAt: Int64?
        var counts: SQLiteSink.Counts { state.counts }
        var reader: IngestSummary { state.reader ?? IngestSummary() }
    }

    /// Work to do while the loaded store is indexed: given the store (complete, not yet
    /// indexed; read what is needed here, on the loader's thread) and the sorted runs of its
    /// samples (and the zone evidence of its sleep samples), it returns what then runs on a
    /// thread of its own, alongside the index build.
    typealias AlongsideIndex = (Database, SampleRuns, [ZoneEvidence]) throws -> @Sendable () throws -> Void

    /// `alongsideIndex` runs only if this process loaded every sample itself (not a resumed
    /// load): the runs hold the samples it wrote, no others.
    func run(alongsideIndex: AlongsideIndex? = nil) throws -> Result {
        let resumedAt = checkpoint.sequence > 0 ? checkpoint.ingest?.elementOrdinal ?? 0 : nil
        if checkpoint.phase == .loaded {
            try progress.phase(.storing, "resuming after the load")
            // `finish` left the store with a rollback journal, ready to be renamed or attached.
            let database = try Database(path: staged, mode: .readWrite)
            // Loaded by an earlier version before the kill: give it the tables this one writes.
            try StoreSchema.upgrade(database)
            return Result(database: database, state: checkpoint, phases: [:], resumedAt: resumedAt)
        }
        if let resumedAt { try progress.phase(.reading, "resuming at element \(resumedAt)") }
        let started = PhaseMark()
        // A full load sizes its duplicate filter for the whole export; an incremental one
        // skips most records before they reach it.
        let sink = try SQLiteSink(path: staged, runID: runID, resuming: checkpoint.sequence > 0 ? checkpoint.counts : nil,
                                  expectedSamples: anchors.isEmpty ? source.estimatedRecords : 0, alreadyStored: alreadyStored)
        sink.platform = source.platform
        var state = checkpoint
        let fresh = state.sequence == 0 && state.phase == .loading
        if fresh, alongsideIndex != nil { sink.sampleRuns = SampleRunWriter(folder: PathText.parent(of: staged)) }
        if state.phase == .loading { try stream(into: sink, &state) }
        let loadFigures = started.figures()
        let loaded = PhaseMark()
        try progress.phase(.storing, "the last rows")
        try progress.phase(.indexing, "dedupe + index")
        let alongside = StageThreads()
        // Without runs (a resumed load, or a spill that failed) the analytics read the store later.
        let runs = try? sink.sampleRuns?.finish()
        sink.sampleRuns = nil
        if let runs, let alongsideIndex {
            alongside.spawn("analytics", try alongsideIndex(sink.database, runs, sink.sleepZoneEvidence))
        }
        state.phase = .finishing
        state.counts = sink.writtenCounts
        state.sequence += 1
        do {
            _ = try sink.finish(reading: state.encoded) { counts in
                state.phase = .loaded
                state.counts = counts
                state.sequence += 1
                return state.encoded
            }
        } catch {
            alongside.fail(error)
        }
        try alongside.wait()
        try? AtomicFile.write(state.encoded, to: checkpointCopy)
        return Result(database: sink.database, state: state,
                      phases: ["load": loadFigures, "dedupe_index": loaded.figures()],
                      resumedAt: resumedAt)
    }

    /// Ingest, normalize and the sink on three threads, committing a checkpoint every
    /// `checkpointRecords` records; returns once the whole input is in the (uncommitted) store.
    private func stream(into sink: SQLiteSink, _ state: inout LoadCheckpoint) throws {
        let ingested = Channel<IngestBatch>(capacity: 4)
        let normalized = Channel<NormalizedBatch>(capacity: 4)
        let threads = StageThreads()
        threads.onFailure { ingested.cancel(); normalized.cancel() }
        let readerSummary = Handoff<IngestSummary>()

        // The anchors run inside ingest: known records are dropped before they are read.
        let prefilter: (any RecordPrefilter)? = anchors.isEmpty ? nil
            : AnchorFilter(anchors: anchors, overlapSeconds: overlapSeconds, workouts: alreadyStored.workouts)
        let (source, resume, knownRoutes) = (source, state.ingest, try sink.routeFilePaths())
        threads.spawn("ingest") {
            readerSummary.set(try source.read(resumingAt: resume, knownRoutePaths: knownRoutes, prefilter: prefilter,
                                              emit: ingested.send))
            ingested.finish()
        }
        let calendar = calendar
        threads.spawn("normalize") {
            var stages = Normalizer(calendar: calendar).then(IdentityStamper())
            try stages.pump(from: ingested, to: normalized)
        }
        let skippedBefore = state.skippedByAnchor
        var sinceCommit = 0
        do {
            while let batch = try normalized.receive() {
                let records = batch.samples.count + batch.quarantine.count
                let (position, workouts) = (batch.position, batch.workouts.count)
                state.skippedByAnchor = skippedBefore + batch.rest.skippedByAnchorSoFar
                for (k, v) in batch.rest.unknownElements { state.unknownElements[k, default: 0] += v }
                try sink.write(consume batch)   // the sink's own: it moves the samples out
                state.recordsRead += records
                try progress.update(position: position, records: state.recordsRead)
                sinceCommit += records + workouts
                if sinceCommit >= checkpointRecords, let point = position.resume {
                    state.ingest = point
                    try commit(&state, sink)
                    sinceCommit = 0
                }
            }
        } catch {
            threads.fail(error)
        }
        try threads.wait()
        state.reader = readerSummary.value
    }

    private func commit(_ state: inout LoadCheckpoint, _ sink: SQLiteSink) throws {
        state.counts = sink.writtenCounts
        state.sequence += 1
        try sink.commit(checkpoint: state.encoded)
        // Best effort: the committed row is what counts; the copy is for people and `status`.
        try? AtomicFile.write(state.encoded, to: checkpointCopy)
    }
}
