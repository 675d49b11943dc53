import CSV
import Foundation
import HealthCore
import HealthStore
import Parquet
import PrivateFiles
import SQLite

/// The store's output tables as files of one format: `csv/<table>.csv` (in the person's
/// units and the pipeline's CSV dialect) or `parquet/<table>.parquet` (canonical units).
package struct TableFilesOutput: SeriesOutput {
    package enum Format: String, Sendable { case csv, parquet }

    package let format: Format
    package let units: UnitSystem
    package let dialect: CSVDialect

    package init(_ format: Format, units: UnitSystem = .metric, dialect: CSVDialect = .rfc4180) {
        self.format = format; self.units = units; self.dialect = dialect
    }

    package var name: String { format.rawValue }
    package var summaryName: String { name + "/" }
    package var published: [String] { [name] }

    /// CSV is for spreadsheets: it leaves bulk tables out; Parquet holds every table.
    func holds(_ table: OutputTable) -> Bool { format == .parquet || !table.isBulk }

    private func fileName(_ table: OutputTable) -> String { table.name + "." + format.rawValue }

    package func isMissing(in folder: String) -> Bool {
        OutputTable.all.contains { holds($0) && !OutputFolders.exists(folder, name, fileName($0)) }
    }

    package func stage(from database: Database, in staging: String, folder: String, run: StagingRun,
                      progress: (String) throws -> Void) throws -> StagedFiles {
        let exporter = TableExporter(database: database, durability: .syncedWhenPublished)
        // Local date-times (the excel-semicolon dialect) are the wall clock where each record was
        // made: the analytics' calendar (its zone, or a traveller's timeline).
        let clock = dialect.localDateTimes ? WallClock(try StoreSettings.calendar(in: database) ?? LocalCalendar(identifier: "UTC")!) : nil
        var rows: [String: Int] = [:]
        for table in OutputTable.all where holds(table) && !run.written.contains(table.name) {
            let path = (staging as NSString).appendingPathComponent(fileName(table))
            try progress(table.name)
            if table.name == OutputTable.samples.name, format == .parquet {
                rows[table.name] = try SeriesSamplesWriter.write(from: database, to: path,   // its one writer
                                                                 durability: .syncedWhenPublished)
                continue
            }
            rows[table.name] = try exporter.export(table, csv: format == .csv ? path : nil, parquet: format == .parquet ? path : nil,
                                                   units: units, dialect: dialect, clock: clock)
        }
        // Parquet files are the canonical tables, whatever the units: another output may link them.
        let parquet = format == .parquet
            ? Dictionary(uniqueKeysWithValues: OutputTable.all.filter(holds).map { ($0.name, (staging as NSString).appendingPathComponent(fileName($0))) })
            : [:]
        return StagedFiles(moves: OutputFolders.moves(from: staging, to: (folder as NSString).appendingPathComponent(name)),
                           rows: rows, parquetTables: parquet)
    }

    /// The samples (Parquet only) are written from the series the analytics read.
    package func seriesFile(in staging: String) -> (table: OutputTable, path: String)? {
        guard format == .parquet, holds(.samples) else { return nil }
        return (.samples, (staging as NSString).appendingPathComponent(fileName(.samples)))
    }
}
