import HealthCore
import Parquet
import PrivateFiles
import HealthStore
import SQLite

/// `samples.parquet` written from the series the analytics read anyway (type by type, in
/// start order, which is the order of `OutputTable.samples`), so that a full import reads
/// the stored samples once instead of twice. Columns and cells are the ones `TableExporter`
/// writes from `OutputTable.samples.sql`; only the type and source names come from lookups
/// instead of SQL joins.
package final class SeriesSamplesWriter {
    private let writer: ParquetWriter
    private let sources: [Int64: SeriesReader.Source]
    package private(set) var rows = 0

    package init(path: String, sources: [SeriesReader.Source], compression: ParquetCompression = .gzip,
                durability: Durability = .synced) throws {
        writer = try ParquetWriter(path: path, createdBy: TableExporter.parquetCreator, columns: OutputTable.samples.columns.map(TableExporter.parquetColumn),
                                   compression: compression, writesGroupsInBackground: true, durability: durability)
        self.sources = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Writes the samples of `database` (those of the local days `localDays`, days since
    /// 1970, when given: a dataset's year) to `path`, type by type in start order: the one
    /// writer of every samples file, whether its rows come from the analytics' reads or from here.
    /// Returns the rows written.
    @discardableResult
    package static func write(from database: Database, to path: String, localDays: Range<Int>? = nil,
                             durability: Durability = .synced) throws -> Int {
        let reader = SeriesReader(database: database)
        let writer = try SeriesSamplesWriter(path: path, sources: try reader.sources(), durability: durability)
        do {
            for (typeID, identifier) in try reader.types() {
                try reader.forEachBatch(typeID: typeID) { rows in
                    if let localDays {
                        let kept = rows.filter { localDays.contains($0.localDay) }
                        if !kept.isEmpty { try writer.append(type: identifier, kept) }
                    } else {
                        try writer.append(type: identifier, rows)
                    }
                }
            }
            try writer.close()
        } catch {
            writer.abort()
            throw error
        }
        return writer.rows
    }

    /// Appends a batch of one type's rows, in the order read.
    ///
    /// Type, source and units repeat from row to row: a value known to equal the previous
    /// row's (the same type, the same source id, the same unit String) is appended as a
    /// repeat, without looking at its bytes.
    package func append(type: String, _ batch: [SeriesReader.Row]) throws {
        // Rows are read in place (`row.pointee`) and the source is looked up once per stretch
        // of rows that share it (rows come in long runs of one source): copies per row
        // (`let row = rows[k]`, a source read inside the row's closure) retained and released
        // their texts for every row (issue 62).
        try batch.withUnsafeBufferPointer { rows in
            guard let first = rows.baseAddress else { return }
            var k = 0
            while k < rows.count {
                let id = first[k].sourceID
                guard let source = sources[id] else { throw HealthETLError.internal("samples: no source \(id)") }
                var end = k + 1
                while end < rows.count && first[end].sourceID == id { end += 1 }
                for i in k..<end {
                    try writer.appendRow { r in
                        Self.fill(&r, first + i, type: type, repeats: i > 0, source: source, sameSource: i > k)
                    }
                }
                k = end
            }
        }
        rows += batch.count
    }

    /// One row's cells. `repeats`: a previous row of this batch (same type) exists at
    /// `row[-1]`; `sameSource`: that row has `source` too.
    @inline(__always)
    private static func fill(_ r: inout ParquetRow, _ row: UnsafePointer<SeriesReader.Row>, type: String, repeats: Bool,
                             source: borrowing SeriesReader.Source, sameSource: Bool) {
        repeats ? r.repeatedString(0, type) : r.string(0, type)
        sameSource ? r.repeatedString(1, source.name) : r.string(1, source.name)
        if let version = source.version { sameSource ? r.repeatedString(2, version) : r.string(2, version) }
        if let model = source.deviceModel { sameSource ? r.repeatedString(3, model) : r.string(3, model) }
        r.int64(4, row.pointee.start)
        r.int64(5, row.pointee.end)
        if let created = row.pointee.created { r.int64(6, created) }
        r.int32(7, Int32(truncatingIfNeeded: row.pointee.localDay))
        if let value = row.pointee.value { r.double(8, value) }
        if let unit = row.pointee.unit { repeats && row[-1].unit == unit ? r.repeatedString(9, unit) : r.string(9, unit) }
        if let raw = row.pointee.rawValue { r.string(10, raw) }
        if let rawUnit = row.pointee.rawUnit {
            repeats && row[-1].rawUnit == rawUnit ? r.repeatedString(11, rawUnit) : r.string(11, rawUnit)
        }
        if let category = row.pointee.categoryValue { r.string(12, category) }
    }

    /// Completes the file (it appears at its path only now).
    package func close() throws { try writer.close() }

    /// Removes the unfinished file.
    package func abort() { writer.abort() }
}
