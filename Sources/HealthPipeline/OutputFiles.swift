import CSV
import Foundation
import HealthCore
import HealthEmit
import HealthReport
import HealthWorkbook
import SQLite
import HealthStore

/// The file outputs of a run (CSV, Parquet, the report). They are written from the finished store into a
/// private staging folder (`.healthetl/staging-PID/`), and moved into `csv/` and `parquet/`
/// only after every file is complete, one atomic rename each: a reader never sees half a
/// file, and a run killed while writing leaves the previous outputs as they were.
struct OutputFiles {
    let folder: OutputFolder
    let csv: Bool
    let parquet: Bool
    /// `report/index.html`, with these goals (nil: no report).
    let report: ReportGoals?
    /// `health.xlsx`.
    let workbook: Bool
    /// What CSV, the workbook and the report show (the store and Parquet stay canonical).
    let units: UnitSystem
    let dialect: CSVDialect
    let staging: String

    init(folder: OutputFolder, outputs: [String], goals: ReportGoals? = nil, units: UnitSystem = .metric,
         dialect: CSVDialect = .rfc4180) throws {
        let known: Set = ["sqlite", "csv", "parquet", "report", "xlsx"]
        if let unknown = outputs.first(where: { !known.contains($0) }) {
            throw HealthETLError.usage("unknown output '\(unknown)' (expected sqlite, csv, parquet, report or xlsx)")
        }
        self.folder = folder
        csv = outputs.contains("csv")
        parquet = outputs.contains("parquet")
        report = outputs.contains("report") ? goals ?? ReportGoals() : nil
        workbook = outputs.contains("xlsx")
        self.units = units
        self.dialect = dialect
        staging = (folder.stateFolder as NSString).appendingPathComponent("staging-\(getpid())")
    }

    var isEmpty: Bool { !csv && !parquet && report == nil && !workbook }

    /// Whether this run writes `table` in some format.
    func writes(_ table: OutputTable) -> Bool { csv && table.inCSV || parquet && table.inParquet }

    /// Whether a file this run should have is not published (so an unchanged store still
    /// gets its outputs, e.g. after `csv` was added to the pipeline).
    var missing: Bool {
        report != nil && !exists("report", "index.html") || workbook && !exists(".", Self.workbookName)
            || OutputTable.all.contains { table in
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
               progress: (String) throws -> Void) throws -> [String: Int] {
        guard !isEmpty else { return [:] }
        for sub in ["csv", "parquet"] { try OutputFolder.makePrivateFolder((staging as NSString).appendingPathComponent(sub)) }
        let exporter = TableExporter(database: database)
        var rows: [String: Int] = [:]
        for table in tables where writes(table) {
            let csvPath = csv && table.inCSV ? staged("csv", table.name + ".csv") : nil
            let parquetPath = parquet && table.inParquet ? staged("parquet", table.name + ".parquet") : nil
            try progress(table.name)
            rows[table.name] = try exporter.export(table, csv: csvPath, parquet: parquetPath, units: units, dialect: dialect)
        }
        if workbook {
            try progress("workbook")
            try HealthWorkbook.write(from: database, to: (staging as NSString).appendingPathComponent(Self.workbookName), units: units)
        }
        if let goals = report {
            try progress("report")
            try OutputFolder.makePrivateFolder((staging as NSString).appendingPathComponent("report"))
            try ReportWriter.write(from: database, to: staged("report", "index.html"), goals: goals, units: units)
        }
        return rows
    }

    /// Starts writing the samples (nearly all the rows) on a thread of their own, from the
    /// batches the full build's analytics read and `SamplesExport.send` passes on: the store
    /// is read once, and the Parquet encoding and compression run beside the analytics, on
    /// the other core. Nil if no output holds the samples.
    func startSamples(sources: [SeriesReader.Source], alongsideIndex: Bool) throws -> SamplesExport? {
        guard writes(.samples) else { return nil }
        guard parquet, OutputTable.samples.inParquet, !OutputTable.samples.inCSV else {
            throw HealthETLError.internal("the samples are written to Parquet only")
        }
        let path = staged("parquet", OutputTable.samples.name + ".parquet")
        try OutputFolder.makePrivateFolder((staging as NSString).appendingPathComponent("parquet"))
        let export = SamplesExport(alongsideIndex: alongsideIndex)
        export.threads.spawn("samples") {
            let writer = try SeriesSamplesWriter(path: path, sources: sources)
            do {
                while let batch = try export.batches.receive() { try writer.append(type: batch.type, batch.rows) }
                try writer.close()
            } catch {
                writer.abort()
                throw error
            }
            export.rows.set([OutputTable.samples.name: writer.rows])
        }
        return export
    }

    /// Moves the staged files into place, as part of `publication` (which undoes them all if
    /// one fails).
    func publish(into publication: Publication) throws {
        guard !isEmpty else { return }
        let fm = FileManager.default
        let stagedWorkbook = (staging as NSString).appendingPathComponent(Self.workbookName)
        if fm.fileExists(atPath: stagedWorkbook) {
            try publication.move(stagedWorkbook, to: (folder.path as NSString).appendingPathComponent(Self.workbookName))
        }
        for sub in ["csv", "parquet", "report"] {
            let from = (staging as NSString).appendingPathComponent(sub)
            let names = (try? fm.contentsOfDirectory(atPath: from))?.filter { !$0.hasPrefix(".") } ?? []
            guard !names.isEmpty else { continue }
            let to = (folder.path as NSString).appendingPathComponent(sub)
            try OutputFolder.makePrivateFolder(to)
            for name in names.sorted() {
                try publication.move((from as NSString).appendingPathComponent(name), to: (to as NSString).appendingPathComponent(name))
            }
        }
    }

    func discard() { try? FileManager.default.removeItem(atPath: staging) }

    static let workbookName = "health.xlsx"

    private func staged(_ sub: String, _ name: String) -> String {
        ((staging as NSString).appendingPathComponent(sub) as NSString).appendingPathComponent(name)
    }
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
