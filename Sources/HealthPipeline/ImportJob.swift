import Foundation
import HealthCore
import HealthDedupe
import HealthEmit
import HealthIngest
import HealthNormalize

/// The import job: ingest → normalize → dedupe → SQLite, each on its own thread, joined by
/// bounded channels of batches; then the store is published atomically.
public struct ImportJob: Sendable {
    public struct Options: Sendable {
        public var export: String
        public var out: String
        public var timeZone: TimeZone
        public var config: PipelineConfig
        public var progress: ProgressReporter.Style
        public init(export: String, out: String, timeZone: TimeZone, config: PipelineConfig = PipelineConfig(),
                    progress: ProgressReporter.Style = .none) {
            self.export = export; self.out = out; self.timeZone = timeZone; self.config = config
            self.progress = progress
        }
    }

    public let options: Options
    public init(options: Options) { self.options = options }

    public func run() throws -> RunSummary {
        let started = Date()
        let source = try ExportSource(path: options.export)
        let folder = OutputFolder(path: options.out)
        try folder.prepare()
        let lock = try RunLock(folder: folder)
        defer { withExtendedLifetime(lock) {} }
        folder.removeStaleStaging()

        let staged = folder.stagingPath(for: folder.databasePath)
        defer { unlink(staged) }
        unlink(staged)
        let sink = try SQLiteSink(path: staged)
        let progress = ProgressReporter(style: options.progress, totalBytes: source.totalBytes)

        let ingested = Channel<IngestBatch>(capacity: 4)
        let normalized = Channel<NormalizedBatch>(capacity: 4)
        let threads = StageThreads()
        threads.onFailure { ingested.cancel(); normalized.cancel() }
        let readerSummary = Handoff<ExportReader.Summary>()

        let reader = ExportReader(source: source)
        threads.spawn("ingest") {
            readerSummary.set(try reader.run(emit: ingested.send))
            ingested.finish()
        }
        let calendar = LocalCalendar(timeZone: options.timeZone)
        threads.spawn("normalize") {
            var stages = Normalizer(calendar: calendar).then(IdentityStamper())
            try stages.pump(from: ingested, to: normalized)
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
        let finished = Date()
        let summaryOfReader = readerSummary.value ?? ExportReader.Summary()
        let seconds = finished.timeIntervalSince(started)
        var summary = RunSummary(status: "ok", input: options.export, inputKind: "\(source.kind)",
                                 xml: source.xmlName, inputBytes: source.totalBytes, seconds: seconds,
                                 elements: summaryOfReader.elements, recordsRead: recordsRead, counts: counts,
                                 unknownElements: unknownElements, removedDoctype: summaryOfReader.removedDoctype,
                                 repairedBytes: summaryOfReader.repairedBytes,
                                 routeFilesMissing: summaryOfReader.routeFilesMissing,
                                 timeZone: options.timeZone.identifier, out: options.out)
        summary.phaseSeconds = ["load": loaded.timeIntervalSince(started), "dedupe_index": finished.timeIntervalSince(loaded)]
        try RunLog.record(summary, in: sink.database, started: started)
        progress.done()
        try folder.publish(staged, as: folder.databasePath)
        return summary
    }
}
