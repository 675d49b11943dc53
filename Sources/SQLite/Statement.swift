import CSQLite

/// A prepared statement, reused for every row of a bulk load: bind, step, reset.
public final class Statement {
    @usableFromInline let handle: OpaquePointer
    unowned let database: Database

    /// Texts bound by `bind(_:staged:)` for the next `run()`, copied here and bound by pointer.
    @usableFromInline let stage = UnsafeMutableRawPointer.allocate(byteCount: Statement.stageCapacity, alignment: 8)
    @usableFromInline static let stageCapacity = 32 << 10
    @usableFromInline var stageUsed = 0
    @usableFromInline var stagedIndexes: [Int32] = []

    init(handle: OpaquePointer, database: Database) {
        self.handle = handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
        stage.deallocate()
    }

    // Indexes are 1-based, as in SQLite.
    @inlinable public func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    @inlinable public func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    @inlinable public func bind(_ index: Int32, _ value: Double?) {
        if let value, value.isFinite { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    @inlinable public func bind(_ index: Int32, _ value: String?) {
        guard var value else { sqlite3_bind_null(handle, index); return }
        value.withUTF8 { buf in
            // SQLITE_TRANSIENT: SQLite copies the bytes before this returns.
            let bytes = UnsafeRawPointer(buf.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
            _ = sqlite3_bind_text(handle, index, bytes, Int32(buf.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    /// Text given as UTF-8 bytes (copied by SQLite before this returns).
    @inlinable public func bind(_ index: Int32, utf8 bytes: UnsafeRawBufferPointer) {
        let start = (bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
        _ = sqlite3_bind_text(handle, index, start, Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }

    /// Text for the next `run()` only: copied into the statement's own buffer and bound by
    /// pointer (SQLITE_STATIC), which costs a fraction of SQLite's own copy (SQLITE_TRANSIENT:
    /// an allocation per bind, for a bulk load's several short texts per row). `run()` unbinds
    /// it again before the buffer is reused (unless `rebindsEveryRun`). Not for `step()`.
    @inlinable public func bind(_ index: Int32, staged value: String?) {
        guard let value else { sqlite3_bind_null(handle, index); return }
        // Read in place: `withUTF8` is mutating, and its copy of the string cost a retain, a
        // release and a uniqueness check per text (issue 62). Every native string is contiguous.
        if value.utf8.withContiguousStorageIfAvailable({ bind(index, stagedUTF8: UnsafeRawBufferPointer($0)) }) != nil { return }
        var copy = value
        copy.withUTF8 { bind(index, stagedUTF8: UnsafeRawBufferPointer($0)) }
    }

    /// UTF-8 bytes for the next `run()` only, as `bind(_:staged:)`.
    @inlinable public func bind(_ index: Int32, stagedUTF8 bytes: UnsafeRawBufferPointer) {
        if !rebindsEveryRun { stagedIndexes.append(index) }
        guard let source = bytes.baseAddress, bytes.count <= Statement.stageCapacity - stageUsed else {
            return bind(index, utf8: bytes)   // empty, or no room left: SQLite copies it
        }
        let target = stage + stageUsed
        target.copyMemory(from: source, byteCount: bytes.count)
        stageUsed += bytes.count
        _ = sqlite3_bind_text(handle, index, target.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
    }

    /// Whether every run of this statement binds every parameter again first, as a bulk insert
    /// does row by row: `run()` then leaves staged texts bound instead of unbinding each one (up
    /// to five calls a row beside its fifteen binds, 0.4% of an import's instructions; issue 62).
    /// A parameter left as it was would read the stage's new bytes: never memory that is gone,
    /// since the stage lives as long as the statement, but the wrong text.
    public var rebindsEveryRun = false

    public func bind(_ values: [SQLValue]) throws {
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value {
            case .null: sqlite3_bind_null(handle, index)
            case .integer(let v): bind(index, v)
            case .real(let v): bind(index, v)
            case .text(let v): bind(index, v)
            }
        }
    }

    /// Runs a statement that returns no rows, then resets it for the next use.
    public func run() throws {
        let rc = sqlite3_step(handle)
        sqlite3_reset(handle)
        stageUsed = 0
        if !stagedIndexes.isEmpty {
            for index in stagedIndexes { sqlite3_bind_null(handle, index) }
            stagedIndexes.removeAll(keepingCapacity: true)
        }
        guard rc == SQLITE_DONE || rc == SQLITE_ROW else {
            throw database.error(rc, database.lastMessage, sql: sqlite3_sql(handle).map { String(cString: $0) })
        }
    }

    /// Steps a query: true while there is a row to read.
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        sqlite3_reset(handle)
        guard rc == SQLITE_DONE else { throw database.error(rc, database.lastMessage) }
        return false
    }

    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func columnName(_ i: Int32) -> String { String(cString: sqlite3_column_name(handle, i)) }

    public func value(_ i: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, i))
        case SQLITE_NULL: .null
        default: .text(String(cString: sqlite3_column_text(handle, i)))
        }
    }

    public func row() -> [SQLValue] { (0..<columnCount).map(value) }

    // Typed reads for hot loops: no enum boxing per cell.
    @inlinable public func int64(_ i: Int32) -> Int64 { sqlite3_column_int64(handle, i) }
    @inlinable public func double(_ i: Int32) -> Double { sqlite3_column_double(handle, i) }
    @inlinable public func isNull(_ i: Int32) -> Bool { sqlite3_column_type(handle, i) == SQLITE_NULL }
    @inlinable public func isInteger(_ i: Int32) -> Bool { sqlite3_column_type(handle, i) == SQLITE_INTEGER }
    /// The UTF-8 bytes of a text cell, valid only inside `body` (no String is made).
    @inlinable public func withText<T>(_ i: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let count = Int(sqlite3_column_bytes(handle, i))
        guard let p = sqlite3_column_text(handle, i) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: p, count: count))
    }
    public func text(_ i: Int32) -> String? {
        sqlite3_column_text(handle, i).map { String(cString: $0) }
    }
}
