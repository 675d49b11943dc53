import Foundation
import HealthAggregate
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
        guard let weekStart = PeriodRollup.weekStartIndex(options.config.weekStart) else {
            throw HealthETLError.usage("weekStart '\(options.config.weekStart ?? "")' is not a day name (monday … sunday)")
        }
        let source = try ExportSource(path: options.export)
        let folder = OutputFolder(path: options.out)
        let files = try OutputFiles(folder: folder, outputs: options.config.outputs ?? PipelineConfig.allOutputs)
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
        let indexed = Date()
        progress.phase("analytics")
        let analytics = try buildAnalytics(in: sink.database, weekStart: weekStart, recordedAt: started)
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
        summary.days = analytics.days.count
        summary.sleepNights = analytics.nights.count
        summary.phaseSeconds = ["load": loaded.timeIntervalSince(started), "dedupe_index": indexed.timeIntervalSince(loaded),
                                "analytics": finished.timeIntervalSince(indexed)]
        try RunLog.record(summary, in: sink.database, started: started)
        defer { files.discard() }
        summary.outputRows = try files.write(from: sink.database) { progress.phase("writing \($0)") }
        let written = Date()
        summary.phaseSeconds["outputs"] = written.timeIntervalSince(finished)
        progress.done()
        try folder.publish(staged, as: folder.databasePath)
        try files.publish()
        return summary
    }

    /// Merge, aggregate and store the analytics of everything loaded.
    private func buildAnalytics(in database: Database, weekStart: Int, recordedAt: Date) throws -> AnalyticsWriter.Content {
        let config = options.config
        let builder = AnalyticsBuilder(reader: SeriesReader(database: database),
                                       calendar: LocalCalendar(timeZone: options.timeZone),
                                       priority: SourcePriority(patterns: config.sourcePriority),
                                       sleepDayStartHour: config.sleepDayStartHour ?? 18,
                                       heartbeatMaxGapMinutes: config.heartbeatMaxGapMinutes ?? 30, weekStart: weekStart)
        let content = try builder.build()
        try AnalyticsWriter(database: database)
            .replaceAll(with: content, recordedAt: Timestamp(secondsSince1970: recordedAt.timeIntervalSince1970))
        return content
    }
}
