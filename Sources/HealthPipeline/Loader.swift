import Foundation
import HealthCore
import HealthDedupe
import HealthEmit
import HealthIngest
import HealthNormalize

/// The streaming half of an import: ingest on one thread, anchor filter + normalize +
/// identity on a second, the SQLite sink on the caller's, joined by bounded channels.
struct Loader {
    let source: ExportSource
    let staged: String
    let timeZone: TimeZone
    let anchors: Anchors
    let overlapSeconds: Double
    let runID: Int64
    let progress: ProgressReporter

    struct Result {
        /// The loaded store, finished and committed; nil once released.
        var sink: SQLiteSink?
        var counts: SQLiteSink.Counts
        var recordsRead: Int
        var skippedByAnchor: Int
        var unknownElements: [String: Int]
        var reader: ExportReader.Summary
        var phaseSeconds: [String: Double]
        var database: Database? { sink?.database }
    }

    func run() throws -> Result {
        let started = Date()
        let sink = try SQLiteSink(path: staged, runID: runID)
        let ingested = Channel<IngestBatch>(capacity: 4)
        let normalized = Channel<NormalizedBatch>(capacity: 4)
        let threads = StageThreads()
        threads.onFailure { ingested.cancel(); normalized.cancel() }
        let readerSummary = Handoff<ExportReader.Summary>()
        let skipped = Handoff<Int>()

        let reader = ExportReader(source: source)
        threads.spawn("ingest") {
            readerSummary.set(try reader.run(emit: ingested.send))
            ingested.finish()
        }
        let calendar = LocalCalendar(timeZone: timeZone)
        let (anchors, overlap) = (self.anchors, overlapSeconds)
        threads.spawn("normalize") {
            var stages = AnchorFilter(anchors: anchors, overlapSeconds: overlap)
                .then(Normalizer(calendar: calendar)).then(IdentityStamper())
            try stages.pump(from: ingested, to: normalized)
            skipped.set(stages.first.first.skipped)
        }
        var recordsRead = 0
        var unknownElements: [String: Int] = [:]
        do {
            while let batch = try normalized.receive() {
                try sink.write(batch)
                recordsRead += batch.samples.count + batch.quarantine.count
                for (k, v) in batch.rest.unknownElements { unknownElements[k, default: 0] += v }
                progress.update(position: batch.position, records: recordsRead)
            }
        } catch {
            threads.fail(error)
        }
        try threads.wait()
        let loaded = Date()
        progress.phase("dedupe + index")
        let counts = try sink.finish()
        return Result(sink: sink, counts: counts, recordsRead: recordsRead, skippedByAnchor: skipped.value ?? 0,
                      unknownElements: unknownElements, reader: readerSummary.value ?? ExportReader.Summary(),
                      phaseSeconds: ["load": loaded.timeIntervalSince(started), "dedupe_index": Date().timeIntervalSince(loaded)])
    }
}
