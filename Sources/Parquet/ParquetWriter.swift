import Dispatch
import PrivateFiles

/// Writes a flat Apache Parquet file, row by row, with bounded memory.
///
/// Rows are buffered per column in typed arrays; every `rowGroupRows` rows they become a
/// row group: per column an optional dictionary page and PLAIN or RLE_DICTIONARY data pages
/// (DataPage v1, ~1 MiB of values each), GZIP-compressed or not. `close()` writes the footer
/// (schema, row groups, statistics, `created_by`) and atomically replaces `path`.
///
/// ```swift
/// let w = try ParquetWriter(path: "samples.parquet", columns: [
///     ParquetColumn("start", .timestampMicrosUTC),
///     ParquetColumn("type", .string, dictionary: true),
///     ParquetColumn("value", .double, optional: true),
/// ])
/// try w.appendRow { r in
///     r.timestamp(0, microsecondsSinceEpoch: start)
///     r.string(1, type)
///     r.double(2, value)          // Double? — nil is null
/// }
/// try w.close()
/// ```
///
/// Not thread-safe: use one writer from one thread at a time. A writer that is discarded
/// without `close()` removes its temporary file. With `writesGroupsInBackground`, a full row
/// group is encoded, compressed and written on a thread of the writer's own while the caller
/// fills the next one.
public final class ParquetWriter {
    public let path: String
    public let columns: [ParquetColumn]
    public let rowGroupRows: Int
    public let compression: ParquetCompression
    /// Rows appended so far (including rows not yet flushed to a row group).
    public private(set) var rowCount = 0

    /// A dictionary column falls back to PLAIN beyond this many distinct values per row group…
    public static let maxDictionaryEntries = 1 << 16
    /// …or this many bytes of distinct values.
    public static let maxDictionaryBytes = 4 << 20
    /// A row group is also cut when one column's PLAIN strings exceed this many bytes.
    public static let maxStringBytesPerRowGroup = 256 << 20

    private enum State { case open, closed, aborted }
    private var state = State.open
    /// Owned by the writer alone: released uncommitted (a throwing init, a dropped writer) it
    /// removes its temporary, so the writer needs no deinit of its own.
    private let file: AtomicOutputFile
    /// The row group being filled.
    private var store: ParquetColumnStore
    /// The other set of buffers, while a full group is written from it in the background.
    private var spare: ParquetColumnStore?
    private let background: DispatchQueue?
    private let backgroundGroup = DispatchGroup()
    /// Set by the background job, read after waiting for it.
    private var backgroundError: (any Error)?
    private let stringColumns: [Int]
    private let chunkWriter: ParquetChunkWriter
    private let keyValueMetadata: [(String, String)]
    private let createdBy: String
    private var rowsInGroup = 0
    private var serial = 0
    private var inRow = false
    private var rowGroups: [RowGroupInfo] = []

    private struct RowGroupInfo {
        var chunks: [ParquetChunkInfo]
        var rows: Int64
        var fileOffset: Int64
    }

    /// Creates the hidden temporary `.name.tmp-<pid>` (mode 0600) beside `path`; `close()`
    /// renames it over `path` (see `AtomicOutputFile`).
    /// - Parameters:
    ///   - rowGroupRows: rows per row group (memory use is about this many rows of values:
    ///     some 5 MB for the samples at the default, which runs beside the analytics). The
    ///     last group is encoded and compressed alone once the rows end, when the rest of the
    ///     import is done: 64 k rows keep that tail short (256 k cost 0.1 s at one year of
    ///     data), for a file 0.5% larger. DuckDB's own groups are 122,880 rows.
    ///   - keyValueMetadata: written to the footer's `key_value_metadata`.
    ///   - createdBy: the footer's `created_by`: the application that wrote the file.
    ///   - writesGroupsInBackground: encode, compress and write each full row group on a
    ///     thread of its own while the next one fills (the samples: zlib is half the writer's
    ///     time). Memory: two row groups of values instead of one.
    public convenience init(path: String, createdBy: String, columns: [ParquetColumn], rowGroupRows: Int = 1 << 16,
                            compression: ParquetCompression = .gzip,
                            keyValueMetadata: [String: String] = [:],
                            writesGroupsInBackground: Bool = false, durability: Durability = .synced) throws {
        try self.init(path: path, createdBy: createdBy, columns: columns, rowGroupRows: rowGroupRows, compression: compression,
                      keyValueMetadata: keyValueMetadata, pageSizeTarget: 1 << 20,
                      maxDictionaryEntries: Self.maxDictionaryEntries, writesGroupsInBackground: writesGroupsInBackground,
                      durability: durability)
    }

    /// With the page size and dictionary limit adjustable (for tests).
    init(path: String, createdBy: String, columns: [ParquetColumn], rowGroupRows: Int, compression: ParquetCompression,
         keyValueMetadata: [String: String], pageSizeTarget: Int, maxDictionaryEntries: Int,
         writesGroupsInBackground: Bool = false, durability: Durability = .synced) throws {
        try validateParquetSchema(columns)
        guard rowGroupRows >= 1 else { throw ParquetError("parquet: rowGroupRows must be at least 1") }
        self.path = path
        self.columns = columns
        self.rowGroupRows = rowGroupRows
        self.compression = compression
        self.createdBy = createdBy
        self.keyValueMetadata = keyValueMetadata.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let buffers = columns.map {
            ParquetColumnBuffer(column: $0, maxDictionaryEntries: maxDictionaryEntries,
                                maxDictionaryBytes: Self.maxDictionaryBytes)
        }
        self.store = ParquetColumnStore(buffers)
        self.spare = writesGroupsInBackground ? ParquetColumnStore(buffers) : nil
        self.background = writesGroupsInBackground ? DispatchQueue(label: "parquet row groups") : nil
        self.stringColumns = buffers.indices.filter { buffers[$0].storage == .bytes }
        self.chunkWriter = try ParquetChunkWriter(compression: compression, pageSizeTarget: pageSizeTarget)
        self.file = try AtomicOutputFile(path: path, bufferSize: 1 << 20, durability: durability)
        try file.write(Self.magic)
    }

    /// The index of the column called `name`.
    public func columnIndex(_ name: String) -> Int? {
        columns.firstIndex { $0.name == name }
    }

    /// Appends one row, set by `body` (see `ParquetRow`). If `body` throws or leaves the row
    /// invalid, nothing of the row is kept and the writer stays usable.
    public func appendRow(_ body: (inout ParquetRow) throws -> Void) throws {
        guard state == .open else { throw ParquetError("parquet: \(path) is already closed") }
        guard !inRow else { throw ParquetError("parquet: appendRow called while a row is being built") }
        inRow = true
        defer { inRow = false }
        serial &+= 1
        let serial = self.serial
        var row = ParquetRow(store: store, serial: serial)
        do {
            try body(&row)
        } catch {
            if state == .open { rollBackRow(serial) }
            throw error
        }
        guard state == .open else { throw ParquetError("parquet: \(path) was aborted") }
        if let message = row.error {
            rollBackRow(serial)
            throw ParquetError(message)
        }
        for i in 0..<store.count {
            let c = store[i]
            if c.pointee.rowSerial == serial { continue }
            guard c.pointee.isOptional else {
                rollBackRow(serial)
                throw ParquetError("parquet: required column '\(c.pointee.column.name)' was not set")
            }
            c.pointee.rowSerial = serial
            c.pointee.lastWasNull = true
            c.pointee.appendNull()
        }
        rowsInGroup += 1
        rowCount += 1
        if rowsInGroup >= rowGroupRows || (rowsInGroup & 1023 == 0 && stringsAreLarge()) {
            try flushRowGroup()
        }
    }

    /// Appends one row given as one value per column, in schema order.
    public func appendRow(_ values: [ParquetValue]) throws {
        guard values.count == columns.count else {
            throw ParquetError("parquet: \(values.count) values for \(columns.count) columns")
        }
        try appendRow { r in
            for (i, v) in values.enumerated() {
                switch v {
                case .int32(let x): r.int32(i, x)
                case .int64(let x): r.int64(i, x)
                case .double(let x): r.double(i, x)
                case .boolean(let x): r.boolean(i, x)
                case .string(let x): r.string(i, x)
                case .date(let x): r.date(i, daysSinceEpoch: x)
                case .timestamp(let x): r.timestamp(i, microsecondsSinceEpoch: x)
                case .null: r.null(i)
                }
            }
        }
    }

    /// Writes the buffered rows and the footer, fsyncs, and renames the file over `path`.
    /// On failure the temporary file is removed and the error rethrown.
    public func close() throws {
        guard state == .open else { throw ParquetError("parquet: \(path) is already closed") }
        guard !inRow else { throw ParquetError("parquet: close called while a row is being built") }
        do {
            try waitForBackgroundGroup()
            if rowsInGroup > 0 { try writeGroup(store, rows: rowsInGroup) }
            rowsInGroup = 0
            let footer = makeFooter()
            try file.write(footer)
            var tail: [UInt8] = []
            tail.parquetAppendLE(UInt32(footer.count))
            tail.append(contentsOf: Self.magic)
            try file.write(tail)
            try file.commit()
            state = .closed
        } catch {
            abort()
            throw error
        }
    }

    /// Gives up: removes the temporary file and leaves `path` untouched.
    public func abort() {
        guard state == .open else { return }
        state = .aborted
        backgroundGroup.wait()
        file.discard()
        for i in 0..<store.count { store[i].pointee.removeAll() }
    }

    // MARK: Internals

    private static let magic: [UInt8] = Array("PAR1".utf8)

    private func rollBackRow(_ serial: Int) {
        for i in 0..<store.count where store[i].pointee.rowSerial == serial {
            store[i].pointee.undoLastRow()
            store[i].pointee.rowSerial = -1
        }
    }

    private func stringsAreLarge() -> Bool {
        stringColumns.contains { store[$0].pointee.plainStringByteCount > Self.maxStringBytesPerRowGroup }
    }

    private func flushRowGroup() throws {
        do {
            guard let background, let free = spare else {
                try writeGroup(store, rows: rowsInGroup)
                rowsInGroup = 0
                return
            }
            // The previous group is written (its buffers are empty again) before they are
            // filled anew: at most one group in flight.
            try waitForBackgroundGroup()
            let job = BackgroundGroup(writer: self, store: store, rows: rowsInGroup)
            spare = store
            store = free
            rowsInGroup = 0
            backgroundGroup.enter()
            background.async {
                do { try job.writer.writeGroup(job.store, rows: job.rows) } catch { job.writer.backgroundError = error }
                job.writer.backgroundGroup.leave()
            }
        } catch {
            abort()
            throw error
        }
    }

    /// What the background job gets. The writer's file, chunk writer and row-group list are
    /// touched by the job alone while it runs (the caller only fills `store`, and waits for
    /// the job before it writes, closes or aborts), hence unchecked.
    private struct BackgroundGroup: @unchecked Sendable {
        let writer: ParquetWriter
        let store: ParquetColumnStore
        let rows: Int
    }

    private func waitForBackgroundGroup() throws {
        guard background != nil else { return }
        backgroundGroup.wait()
        if let error = backgroundError { throw error }
    }

    /// Writes the group held in `group` as the next row group and empties its buffers.
    private func writeGroup(_ group: ParquetColumnStore, rows: Int) throws {
        let start = file.offset
        var chunks: [ParquetChunkInfo] = []
        chunks.reserveCapacity(group.count)
        for i in 0..<group.count {
            chunks.append(try chunkWriter.writeChunk(group[i].pointee, rows: rows, to: file))
            group[i].pointee.removeAll()
        }
        rowGroups.append(RowGroupInfo(chunks: chunks, rows: Int64(rows), fileOffset: start))
    }

    /// The `FileMetaData` struct (field ids from parquet.thrift).
    private func makeFooter() -> [UInt8] {
        var w = ThriftCompactWriter()
        w.writeStruct { m in
            m.field(1, i32: 1)                                                // version
            m.fieldList(2, of: .struct, count: columns.count + 1)             // schema
            m.writeStruct { root in
                root.field(4, string: "schema")                               // name
                root.field(5, i32: Int32(columns.count))                      // num_children
            }
            for c in columns { c.writeSchemaElement(&m) }
            m.field(3, i64: Int64(rowCount))                                  // num_rows
            m.fieldList(4, of: .struct, count: rowGroups.count)               // row_groups
            for (ordinal, g) in rowGroups.enumerated() {
                m.writeStruct { rg in
                    rg.fieldList(1, of: .struct, count: g.chunks.count)       // columns
                    for chunk in g.chunks { chunk.write(&rg) }
                    rg.field(2, i64: g.chunks.reduce(0) { $0 + $1.totalUncompressedSize })  // total_byte_size
                    rg.field(3, i64: g.rows)                                  // num_rows
                    rg.field(5, i64: g.fileOffset)                            // file_offset
                    rg.field(6, i64: g.chunks.reduce(0) { $0 + $1.totalCompressedSize })    // total_compressed_size
                    if ordinal <= Int(Int16.max) { rg.field(7, i16: Int16(ordinal)) }      // ordinal
                }
            }
            if !keyValueMetadata.isEmpty {
                m.fieldList(5, of: .struct, count: keyValueMetadata.count)    // key_value_metadata
                for (k, v) in keyValueMetadata {
                    m.writeStruct { kv in
                        kv.field(1, string: k)
                        kv.field(2, string: v)
                    }
                }
            }
            m.field(6, string: createdBy)                                     // created_by
            m.fieldList(7, of: .struct, count: columns.count)                 // column_orders
            for _ in columns {
                m.writeStruct { o in o.field(1, struct: { _ in }) }           // TYPE_ORDER
            }
        }
        return w.bytes
    }
}
