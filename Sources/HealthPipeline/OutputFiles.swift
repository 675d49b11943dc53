import Foundation
import HealthCore
import HealthEmit

/// The CSV and Parquet outputs of a run. They are written from the finished store into a
/// private staging folder (`.healthetl/staging-PID/`), and moved into `csv/` and `parquet/`
/// only after every file is complete, one atomic rename each: a reader never sees half a
/// file, and a run killed while writing leaves the previous outputs as they were.
struct OutputFiles {
    let folder: OutputFolder
    let csv: Bool
    let parquet: Bool
    let staging: String

    init(folder: OutputFolder, outputs: [String]) throws {
        let known: Set = ["sqlite", "csv", "parquet"]
        if let unknown = outputs.first(where: { !known.contains($0) }) {
            throw HealthETLError.usage("unknown output '\(unknown)' (expected sqlite, csv or parquet)")
        }
        self.folder = folder
        csv = outputs.contains("csv")
        parquet = outputs.contains("parquet")
        staging = (folder.stateFolder as NSString).appendingPathComponent("staging-\(getpid())")
    }

    var isEmpty: Bool { !csv && !parquet }

    /// Whether this run writes `table` in some format.
    func writes(_ table: OutputTable) -> Bool { csv && table.inCSV || parquet && table.inParquet }

    /// Whether a file this run should have is not published (so an unchanged store still
    /// gets its outputs, e.g. after `csv` was added to the pipeline).
    var missing: Bool {
        OutputTable.all.contains { table in
            (csv && table.inCSV && !exists("csv", table.name + ".csv"))
                || (parquet && table.inParquet && !exists("parquet", table.name + ".parquet"))
        }
    }

    private func exists(_ sub: String, _ name: String) -> Bool {
        FileManager.default.fileExists(atPath: ((folder.path as NSString).appendingPathComponent(sub) as NSString)
            .appendingPathComponent(name))
    }

    /// Writes `tables` into the staging folder; returns rows per file.
    func write(_ tables: [OutputTable] = OutputTable.all, from database: Database,
               progress: (String) -> Void) throws -> [String: Int] {
        guard !isEmpty else { return [:] }
        for sub in ["csv", "parquet"] { try OutputFolder.makePrivateFolder((staging as NSString).appendingPathComponent(sub)) }
        let exporter = TableExporter(database: database)
        var rows: [String: Int] = [:]
        for table in tables where writes(table) {
            let csvPath = csv && table.inCSV ? staged("csv", table.name + ".csv") : nil
            let parquetPath = parquet && table.inParquet ? staged("parquet", table.name + ".parquet") : nil
            progress(table.name)
            rows[table.name] = try exporter.export(table, csv: csvPath, parquet: parquetPath)
        }
        return rows
    }

    /// Starts writing the samples (nearly all the rows) on a thread of their own, over a
    /// read-only connection to the finished store at `path`, so that the caller computes the
    /// analytics meanwhile and both cores work. `writer`, the caller's connection, gives up its
    /// exclusive lock and keeps its changes in memory until `SamplesExport.wait` (spilling them
    /// would need the lock the reader shares). Nil if no output holds the samples.
    func startSamples(storeAt path: String, writer: Database) throws -> SamplesExport? {
        guard writes(.samples) else { return nil }
        try writer.execute("PRAGMA locking_mode = NORMAL; PRAGMA cache_spill = OFF")
        _ = try writer.scalar("SELECT count(*) FROM types")   // the next access drops the exclusive lock
        let export = SamplesExport()
        export.threads.spawn("samples") { [self] in
            let reader = try Database(path: path, mode: .readOnly)
            export.rows.set(try write([.samples], from: reader, progress: { _ in }))
        }
        return export
    }

    /// Moves the staged files into place (after the store was published).
    func publish() throws {
        guard !isEmpty else { return }
        let fm = FileManager.default
        for sub in ["csv", "parquet"] {
            let from = (staging as NSString).appendingPathComponent(sub)
            let names = (try? fm.contentsOfDirectory(atPath: from))?.filter { !$0.hasPrefix(".") } ?? []
            guard !names.isEmpty else { continue }
            let to = (folder.path as NSString).appendingPathComponent(sub)
            try OutputFolder.makePrivateFolder(to)
            for name in names.sorted() {
                try folder.publish((from as NSString).appendingPathComponent(name), as: (to as NSString).appendingPathComponent(name))
            }
        }
        try? fm.removeItem(atPath: staging)
    }

    func discard() { try? FileManager.default.removeItem(atPath: staging) }

    private func staged(_ sub: String, _ name: String) -> String {
        ((staging as NSString).appendingPathComponent(sub) as NSString).appendingPathComponent(name)
    }
}

/// The samples output being written on its own thread (`OutputFiles.startSamples`).
final class SamplesExport: Sendable {
    let threads = StageThreads()
    let rows = Handoff<[String: Int]>()

    /// Joins the thread; rethrows its error. Returns rows per file.
    func wait() throws -> [String: Int] {
        try threads.wait()
        return rows.value ?? [:]
    }
}
