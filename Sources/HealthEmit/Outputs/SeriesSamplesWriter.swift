import HealthCore

/// `samples.parquet` written from the series the analytics read anyway (type by type, in
/// start order, which is the order of `OutputTable.samples`), so that a full import reads
/// the stored samples once instead of twice. Columns and cells are the ones `TableExporter`
/// writes from `OutputTable.samples.sql`; only the type and source names come from lookups
/// instead of SQL joins.
public final class SeriesSamplesWriter {
    private let writer: ParquetWriter
    private let sources: [Int64: SeriesReader.Source]
    private var lastSource: SeriesReader.Source?
    public private(set) var rows = 0

    public init(path: String, sources: [SeriesReader.Source], compression: ParquetCompression = .gzip) throws {
        writer = try ParquetWriter(path: path, columns: OutputTable.samples.columns.map(TableExporter.parquetColumn),
                                   compression: compression)
        self.sources = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Appends a batch of one type's rows, in the order read.
    public func append(type: String, _ batch: [SeriesReader.Row]) throws {
        for row in batch {
            let source = try source(row.sourceID)
            try writer.appendRow { r in
                r.string(0, type)
                r.string(1, source.name)
                if let version = source.version { r.string(2, version) }
                if let model = source.deviceModel { r.string(3, model) }
                r.int64(4, row.start)
                r.int64(5, row.end)
                if let created = row.created { r.int64(6, created) }
                r.int32(7, Int32(truncatingIfNeeded: row.localDay))
                if let value = row.value { r.double(8, value) }
                if let unit = row.unit { r.string(9, unit) }
                if let raw = row.rawValue { r.string(10, raw) }
                if let rawUnit = row.rawUnit { r.string(11, rawUnit) }
                if let category = row.categoryValue { r.string(12, category) }
            }
        }
        rows += batch.count
    }

    /// Completes the file (it appears at its path only now).
    public func close() throws { try writer.close() }

    /// Removes the unfinished file.
    public func abort() { writer.abort() }

    /// Rows come in long runs of one source: the last one is checked before hashing.
    private func source(_ id: Int64) throws -> SeriesReader.Source {
        if let lastSource, lastSource.id == id { return lastSource }
        guard let found = sources[id] else { throw HealthETLError.internal("samples: no source \(id)") }
        lastSource = found
        return found
    }
}
