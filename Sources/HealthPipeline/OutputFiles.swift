import Foundation
import HealthCore
import HealthEmit
import SQLite
import HealthStore
import PrivateFiles

/// The outputs of a run besides the store (`Output`s: the pipeline knows none by format).
/// They are written from the finished store into a private staging folder
/// (`.healthetl/staging-PID/<output>/`) and moved into place only after every file is
/// complete, one atomic rename each, with the store: a reader never sees half a file, and a
/// run killed while writing leaves the previous outputs as they were.
struct OutputFiles {
    let folder: OutputFolder
    let outputs: [any Output]
    let staging: String

    init(folder: OutputFolder, outputs: [any Output]) {
        self.folder = folder
        self.outputs = outputs
        staging = (folder.stateFolder as NSString).appendingPathComponent("staging-\(getpid())")
    }

    private func stagingFolder(_ output: any Output) -> String {
        (staging as NSString).appendingPathComponent(output.name)
    }

    /// Stages every output that is due (all of them when the store `changed` or an earlier
    /// publication was cut short; else those missing a file), skipping the tables `written`
    /// already. Returns the moves of the publication and the rows per table, in the order of
    /// `outputs` whatever the order they were staged in.
    ///
    /// The outputs that use no other's files are staged first, and side by side when the store
    /// is committed (a full build: `OutputLanes`); then those that do, each with every file
    /// staged before it.
    func stage(from database: Database, changed: Bool, written: Set<String> = [],
               progress: (String) throws -> Void) throws -> (files: StagedFiles, names: [String]) {
        let due = outputs.filter { changed || $0.isMissing(in: folder.path) }
        for output in due { try OutputFolders.makePrivate(stagingFolder(output)) }
        let independent = due.indices.filter { !due[$0].usesOtherOutputs }
        @Sendable func stage(_ index: Int, _ database: Database, _ run: StagingRun,
                             _ progress: (String) throws -> Void) throws -> StagedFiles {
            try due[index].stage(from: database, in: stagingFolder(due[index]), folder: folder.path, run: run, progress: progress)
        }
        var staged = try OutputLanes.run(independent, from: database, progress: progress) {
            try stage($0, $1, StagingRun(written: written), $2)
        }
        var all = StagedFiles()
        for index in independent { all.parquetTables.merge(staged[index]!.parquetTables) { a, _ in a } }
        for index in due.indices where staged[index] == nil {
            let files = try stage(index, database, StagingRun(written: written, parquetTables: all.parquetTables), progress)
            all.parquetTables.merge(files.parquetTables) { a, _ in a }
            staged[index] = files
        }
        for index in due.indices {
            all.moves += staged[index]!.moves
            all.rows.merge(staged[index]!.rows) { a, _ in a }
        }
        return (all, due.map(\.summaryName))
    }

    /// Starts writing the samples (nearly all the rows) on a thread of their own, from the
    /// batches the full build's analytics read and `SamplesExport.send` passes on: the store
    /// is read once, and the Parquet encoding and compression run beside the analytics, on
    /// the other core. Nil if no output writes a table from the series.
    func startSamples(sources: [SeriesReader.Source], alongsideIndex: Bool) throws -> SamplesExport? {
        for case let output as any SeriesOutput in outputs {
            let into = stagingFolder(output)
            guard let (table, path) = output.seriesFile(in: into) else { continue }
            try OutputFolders.makePrivate(into)
            let export = SamplesExport(alongsideIndex: alongsideIndex)
            export.threads.spawn("samples") {
                let writer = try SeriesSamplesWriter(path: path, sources: sources, durability: .syncedWhenPublished)
                do {
                    while let batch = try export.batches.receive() { try writer.append(type: batch.type, batch.rows) }
                    try writer.close()
                } catch {
                    writer.abort()
                    throw error
                }
                export.rows.set([table.name: writer.rows])
            }
            return export
        }
        return nil
    }

    /// Moves the staged files into place, as part of `publication` (which undoes them all if
    /// one fails); their folders are made first, private.
    func publish(_ moves: [StagedOutput], into publication: Publication) throws {
        try publication.syncAhead(moves)
        for move in moves {
            try folder.refuseLinks(onTheWayTo: move.final)   // before the folder is made (or chmod'ed through a link)
            try OutputFolders.makePrivate(PathText.parent(of: move.final))
            try publication.move(move.staged, to: move.final)
        }
    }

    func discard() { try? FileManager.default.removeItem(atPath: staging) }
}
/// The samples output being written on its own thread (`OutputFiles.startSamples`).
final class SamplesExport: Sendable {
    struct Batch: Sendable { var type: String; var rows: [SeriesReader.Row] }

    let threads = StageThreads()
    let batches: Channel<Batch>
    let rows = Handoff<[String: Int]>()

    /// `alongsideIndex`: the analytics run beside the index build, which takes longer; 8 batches
    /// of 8 k rows (9 MB) keep the peak memory of that phase down (32 added some 25 MB at 4 years).
    /// Otherwise the analytics read the store on the job's critical path: up to 32 batches
    /// (35 MB) let it run ahead when a type costs the writer more per row than it costs the
    /// read (with 8, the read waited about a second in all at 4 years).
    init(alongsideIndex: Bool) {
        batches = Channel<Batch>(capacity: alongsideIndex ? 8 : 32)
        threads.onFailure { [batches] in batches.cancel() }
    }

    /// Passes a batch on; if the thread failed, throws its error.
    func send(type: String, _ rows: [SeriesReader.Row]) throws {
        do {
            try batches.send(Batch(type: type, rows: rows))
        } catch let cancelled as ChannelCancelled {
            try threads.wait()
            throw cancelled
        }
    }

    /// Ends the input and joins the thread; rethrows its error. Returns rows per file.
    func finish() throws -> [String: Int] {
        batches.finish()
        try threads.wait()
        return rows.value ?? [:]
    }

    /// Stops the thread (its unfinished file is removed) after a failure elsewhere.
    func cancel() {
        batches.cancel()
        _ = try? threads.wait()
    }
}
