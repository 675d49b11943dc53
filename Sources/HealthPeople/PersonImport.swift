import Foundation
import HealthCore
import HealthDataset
import HealthOutputs
import HealthPipeline
import SQLite
import HealthStore
import Synchronization

extension People {
    /// The pipeline as it applies to `id`: their settings (time zone, source priority) over the
    /// pipeline's, their folder as the output folder.
    public func config(for id: PersonID, pipeline: PipelineConfig) throws -> PipelineConfig {
        let settings = try self.settings(of: id)
        var config = pipeline
        if let zone = settings.timezone { config.timezone = zone }
        if let priority = settings.sourcePriority { config.sourcePriority = priority }
        if let platforms = settings.platformPriority { config.platformPriority = platforms }
        if let units = settings.units { config.units = units }
        if let maximum = settings.maxHeartRate { config.maxHeartRate = maximum }
        config.out = outputFolder(of: id).path
        return config
    }

    /// The import of `export` for `id` (created if new), as the command line runs it:
    /// `timezone` (the `--timezone` flag) wins over the person's and the pipeline's zone.
    package func importJob(_ export: String, for id: PersonID, pipeline: PipelineConfig = PipelineConfig(),
                          timezone: String? = nil, full: Bool = false, progress: ImportProgressHandler? = nil,
                          isCancelled: @escaping @Sendable () -> Bool = { false }, moreExports: [String] = [],
                          samePerson: Bool = false) throws -> ImportJob {
        if !exists(id) { try create(id) }
        let config = try self.config(for: id, pipeline: pipeline)
        let zone = try config.configuredTimeZone(override: timezone)
        // The person's dataset partitions are published with their store, all or nothing.
        let outputs = try OutputRegistry.standard.outputs(for: config)
            + [DatasetOutput(dataset: dataset, person: PersonKey(id.rawValue))]
        var options = ImportJob.Options(export: export, out: outputFolder(of: id).path, timeZone: zone, config: config,
                                        outputs: outputs, layout: OutputRegistry.standard.layout, progress: progress,
                                        isCancelled: isCancelled, full: full)
        (options.moreExports, options.samePerson) = (moreExports, samePerson)
        return ImportJob(options: options)
    }

    /// Imports `export` for `id` as `importJob` sets it up. A person this import created (no
    /// folder before it) is removed again when it fails with nothing to resume: a broken export
    /// leaves no one behind with no data (`people` would list them, `import-all` would count them).
    public func runImport(_ export: String, for id: PersonID, pipeline: PipelineConfig = PipelineConfig(),
                          timezone: String? = nil, full: Bool = false, progress: ImportProgressHandler? = nil,
                          isCancelled: @escaping @Sendable () -> Bool = { false }, moreExports: [String] = [],
                          samePerson: Bool = false) throws -> RunSummary {
        let isNew = !exists(id)
        do {
            return try importJob(export, for: id, pipeline: pipeline, timezone: timezone, full: full, progress: progress,
                                 isCancelled: isCancelled, moreExports: moreExports, samePerson: samePerson).run()
        } catch {
            // Unless the load got far enough to resume (its checkpoint is kept for the same command).
            let resumable = FileManager.default.fileExists(
                atPath: (outputFolder(of: id).stateFolder as NSString).appendingPathComponent("checkpoint.json"))
            if isNew && !resumable { try? remove(id) }
            throw error
        }
    }

    /// The cohort dataset of the folder (`OUT/dataset`).
    package var dataset: CohortDataset { CohortDataset(root: (root as NSString).appendingPathComponent("dataset")) }

    /// Imports `export` for `id`, full or incremental (as the person's folder decides, or
    /// `full`), on a thread of its own. `progress` is called on that thread (see
    /// `ImportProgressHandler`). Cancelling the calling task stops the import at its next
    /// report and throws `CancellationError`; the person's published store and files are then
    /// as they were before.
    public func importExport(_ export: String, for id: PersonID, pipeline: PipelineConfig = PipelineConfig(),
                             full: Bool = false, progress: ImportProgressHandler? = nil) async throws -> RunSummary {
        try Task.checkCancellation()
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RunSummary, Error>) in
                // A thread, not a task: the import blocks for minutes, which the cooperative
                // pool's few threads must not.
                let thread = Thread {
                    continuation.resume(with: Result {
                        try runImport(export, for: id, pipeline: pipeline, full: full, progress: progress,
                                      isCancelled: { cancelled.isSet })
                    })
                }
                thread.name = "healthetl import \(id)"
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// The person's published store, to read their daily, weekly, monthly and yearly analytics.
    public func store(of id: PersonID) throws -> HealthStore {
        let path = outputFolder(of: id).databasePath
        guard FileManager.default.fileExists(atPath: path) else {
            throw HealthETLError.inputMissing("\(path): no store for person '\(id)' yet (import an export first)")
        }
        return try HealthStore(path: path)
    }

    /// What `healthetl people` lists about `id`.
    public func facts(of id: PersonID) throws -> PersonFacts {
        guard exists(id) else { throw HealthETLError.inputMissing("no person '\(id)' in \(root)") }
        return try PersonFacts(id: id, in: self)
    }

    /// Everyone's facts, by id.
    public func list() throws -> [PersonFacts] {
        try ids().map { try PersonFacts(id: $0, in: self) }
    }
}

/// Set once from a task's cancellation handler, read by the import's thread.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
