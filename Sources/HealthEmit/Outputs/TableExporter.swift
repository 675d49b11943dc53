import Foundation
import CSV
import HealthCore
import HealthPresentation
import HealthStore
import SQLite
import Parquet
import PrivateFiles

/// Streams one `OutputTable` from the store into a CSV file, a Parquet file, or both, in a
/// single pass over the query: rows go straight from SQLite's buffers into the writers'
/// (text cells as bytes, no String per cell), so memory is one row group, not the table.
package struct TableExporter {
    let database: Database
    /// Staged files (an `Output`'s) are synced by the publication that moves them into place.
    let durability: Durability
    package init(database: Database, durability: Durability = .synced) {
        self.database = database; self.durability = durability
    }

    /// The application our Parquet files name as their writer (`created_by`).
    package static let parquetCreator = "healthetl"

    /// Writes the table; the files appear at their paths only when complete (each writer
    /// renames its temporary on close). Returns the row count. The CSV file is in `units`
    /// (its headers name them) and `dialect`; Parquet keeps the store's units, for analysis.
    @discardableResult
    package func export(_ table: OutputTable, csv csvPath: String?, parquet parquetPath: String?,
                       parquetCompression: ParquetCompression = .gzip, units: UnitSystem = .metric,
                       dialect: CSVDialect = .rfc4180, clock: WallClock? = nil) throws -> Int {
        let shown = table.columns.map { units.show($0.name, spreadsheet: false) }
        // Metric CSV is the store's own units: no conversion at all (today's files, byte for byte).
        let conversions = units == .metric ? nil : shown
        let localOffset = clock.map { clock in { @Sendable (seconds: Int64) in clock.offset(atSecond: seconds) } }
        let csv = try csvPath.map {
            try CSVWriter(path: $0, columns: zip(table.columns, shown).map { Self.csvColumn($0, $1, local: localOffset != nil) },
                          dialect: dialect, localOffset: localOffset, durability: durability)
        }
        let parquet = try parquetPath.map {
            try ParquetWriter(path: $0, createdBy: Self.parquetCreator, columns: table.columns.map(Self.parquetColumn), compression: parquetCompression,
                              durability: durability)
        }
        do {
            let stmt = try database.prepare(table.sql)
            var rows = 0
            while try stmt.step() {
                if let csv { try csv.appendRow { r in Self.fill(&r, from: stmt, table.columns, conversions) } }
                if let parquet { try parquet.appendRow { r in Self.fill(&r, from: stmt, table.columns, nil) } }
                rows += 1
            }
            try csv?.close()
            try parquet?.close()
            return rows
        } catch {
            csv?.abort()
            parquet?.abort()
            throw error
        }
    }

    /// `local`: instants are written as local date-times, so `start_utc` is named `start_local`.
    static func csvColumn(_ c: OutputTable.Column, _ shown: ShownColumn, local: Bool = false) -> CSVColumn {
        if local, case .timestamp = c.kind, shown.csvName.hasSuffix("_utc") {
            return CSVColumn(shown.csvName.dropLast(4) + "_local", .timestamp)
        }
        return switch c.kind {
        case .text: CSVColumn(shown.csvName, .text)
        case .integer: CSVColumn(shown.csvName, .integer)
        case .real(let places): CSVColumn(shown.csvName, .decimal(places: max(places, shown.places ?? 0)))
        case .date: CSVColumn(shown.csvName, .date)
        case .timestamp: CSVColumn(shown.csvName, .timestamp)
        }
    }

    static func parquetColumn(_ c: OutputTable.Column) -> ParquetColumn {
        switch c.kind {
        case .text(let dictionary): ParquetColumn(c.name, .string, optional: c.optional, dictionary: dictionary)
        case .integer: ParquetColumn(c.name, .int64, optional: c.optional)
        case .real: ParquetColumn(c.name, .double, optional: c.optional)
        case .date: ParquetColumn(c.name, .date, optional: c.optional)
        case .timestamp: ParquetColumn(c.name, .timestampMicrosUTC, optional: c.optional)
        }
    }

    private static func date(_ stmt: Statement, _ i: Int32) -> CivilDate? {
        if stmt.isNull(i) { return nil }
        if stmt.isInteger(i) { return CivilDate(daysSinceEpoch: Int(stmt.int64(i))) }
        return stmt.text(i).flatMap { CivilDate(iso: $0) }
    }

    private static func timestamp(_ stmt: Statement, _ i: Int32) -> Timestamp? {
        if stmt.isNull(i) { return nil }
        if stmt.isInteger(i) { return Timestamp(microseconds: stmt.int64(i)) }
        return stmt.text(i).flatMap(Timestamp.init(iso8601:))
    }

    /// One row of the query into either writer's row: both formats get the same cells.
    private static func fill<Row: OutputRow & ~Copyable>(_ r: inout Row, from stmt: Statement, _ columns: [OutputTable.Column],
                                                        _ conversions: [ShownColumn]?) {
        for (index, column) in columns.enumerated() {
            let i = Int32(index)
            if stmt.isNull(i) { r.setNull(index); continue }
            switch column.kind {
            case .text: stmt.withText(i) { r.setText(index, $0) }
            case .integer: r.setInteger(index, stmt.int64(i))
            case .real: r.setReal(index, conversions.map { $0[index].convert(stmt.double(i)) } ?? stmt.double(i))
            case .date: r.setDate(index, date(stmt, i))
            case .timestamp: r.setTimestamp(index, timestamp(stmt, i))
            }
        }
    }
}

/// The cells a table row sets, in the vocabulary of `OutputTable.Kind`, for both formats.
protocol OutputRow: ~Copyable {
    mutating func setNull(_ column: Int)
    mutating func setText(_ column: Int, _ utf8: UnsafeRawBufferPointer)
    mutating func setInteger(_ column: Int, _ value: Int64)
    mutating func setReal(_ column: Int, _ value: Double)
    mutating func setDate(_ column: Int, _ value: CivilDate?)
    mutating func setTimestamp(_ column: Int, _ value: Timestamp?)
}

extension CSVRow: OutputRow {
    mutating func setNull(_ column: Int) { null(column) }
    mutating func setText(_ column: Int, _ utf8: UnsafeRawBufferPointer) { text(column, utf8: utf8) }
    mutating func setInteger(_ column: Int, _ value: Int64) { integer(column, value) }
    mutating func setReal(_ column: Int, _ value: Double) { decimal(column, value) }
    mutating func setDate(_ column: Int, _ value: CivilDate?) { date(column, value) }
    mutating func setTimestamp(_ column: Int, _ value: Timestamp?) { timestamp(column, value) }
}

extension ParquetRow: OutputRow {
    mutating func setNull(_ column: Int) { null(column) }
    mutating func setText(_ column: Int, _ utf8: UnsafeRawBufferPointer) { string(column, utf8: utf8) }
    mutating func setInteger(_ column: Int, _ value: Int64) { int64(column, value) }
    mutating func setReal(_ column: Int, _ value: Double) { double(column, value) }
    mutating func setDate(_ column: Int, _ value: CivilDate?) { date(column, value) }
    mutating func setTimestamp(_ column: Int, _ value: Timestamp?) { timestamp(column, value) }
}
