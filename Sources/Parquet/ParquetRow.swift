
/// The row being appended, handed to the closure of `ParquetWriter.appendRow`.
///
/// Set each column at most once by its index (its position in the writer's schema).
/// Optional columns left unset are null; a required column left unset, a type mismatch or a
/// column set twice makes `appendRow` throw and leaves the file as it was before the row.
/// Setters write straight into the column buffers: nothing is allocated per row.
///
/// `int32` also sets date columns (days since 1970-01-01) and `int64` also sets timestamp
/// columns (microseconds since 1970-01-01T00:00:00Z).
public struct ParquetRow: ~Copyable {
    private let columns: UnsafeMutablePointer<ParquetColumnBuffer>
    private let columnCount: Int
    let serial: Int
    private(set) var error: String?

    /// `store` must outlive the row (the writer holds it).
    init(store: ParquetColumnStore, serial: Int) {
        self.columns = store.base
        self.columnCount = store.count
        self.serial = serial
    }

    // MARK: Values

    public mutating func int32(_ column: Int, _ value: Int32) {
        guard let c = claim(column, .int32) else { return }
        c.pointee.int32s.append(value)
        c.pointee.appendDefinedLevel()
    }

    public mutating func int64(_ column: Int, _ value: Int64) {
        guard let c = claim(column, .int64) else { return }
        c.pointee.int64s.append(value)
        c.pointee.appendDefinedLevel()
    }

    public mutating func double(_ column: Int, _ value: Double) {
        guard let c = claim(column, .double) else { return }
        c.pointee.doubles.append(value)
        c.pointee.appendDefinedLevel()
    }

    public mutating func boolean(_ column: Int, _ value: Bool) {
        guard let c = claim(column, .boolean) else { return }
        c.pointee.booleans.append(value ? 1 : 0)
        c.pointee.appendDefinedLevel()
    }

    public mutating func string(_ column: Int, _ value: String) {
        guard let c = claim(column, .bytes) else { return }
        Self.append(value, to: c)
    }

    /// `value`, which the caller knows to equal the last value set in this column: the
    /// dictionary index is repeated without hashing or comparing bytes when it can be.
    public mutating func repeatedString(_ column: Int, _ value: String) {
        guard let c = claim(column, .bytes) else { return }
        if c.pointee.appendRepeatedString() {
            c.pointee.appendDefinedLevel()
        } else {
            Self.append(value, to: c)
        }
    }

    @inline(__always) private static func append(_ value: String, to c: UnsafeMutablePointer<ParquetColumnBuffer>) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable {
            c.pointee.appendString(UnsafeRawBufferPointer($0))
        }
        if done == nil {
            var copy = value
            copy.withUTF8 { c.pointee.appendString(UnsafeRawBufferPointer($0)) }
        }
        c.pointee.appendDefinedLevel()
    }

    /// A string given as UTF-8 bytes (the caller guarantees they are valid UTF-8); the bytes
    /// are copied.
    public mutating func string(_ column: Int, utf8 bytes: UnsafeRawBufferPointer) {
        guard let c = claim(column, .bytes) else { return }
        c.pointee.appendString(bytes)
        c.pointee.appendDefinedLevel()
    }

    /// A DATE: days since 1970-01-01.
    public mutating func date(_ column: Int, daysSinceEpoch value: Int32) {
        int32(column, value)
    }

    /// A TIMESTAMP(MICROS, UTC): microseconds since 1970-01-01T00:00:00Z.
    public mutating func timestamp(_ column: Int, microsecondsSinceEpoch value: Int64) {
        int64(column, value)
    }

    /// Null in an optional column (the same as leaving it unset).
    public mutating func null(_ column: Int) {
        guard column >= 0 && column < columnCount else { return fail("no column \(column)") }
        let c = columns + column
        guard c.pointee.isOptional else {
            return fail("column '\(c.pointee.column.name)' is required and cannot be null")
        }
        guard c.pointee.rowSerial != serial else {
            return fail("column '\(c.pointee.column.name)' is set twice in one row")
        }
        c.pointee.rowSerial = serial
        c.pointee.lastWasNull = true
        c.pointee.appendNull()
    }

    // MARK: Optionals (nil is null)

    public mutating func int32(_ column: Int, _ value: Int32?) {
        if let value { int32(column, value) } else { null(column) }
    }

    public mutating func int64(_ column: Int, _ value: Int64?) {
        if let value { int64(column, value) } else { null(column) }
    }

    public mutating func double(_ column: Int, _ value: Double?) {
        if let value { double(column, value) } else { null(column) }
    }

    public mutating func boolean(_ column: Int, _ value: Bool?) {
        if let value { boolean(column, value) } else { null(column) }
    }

    public mutating func string(_ column: Int, _ value: String?) {
        if let value { string(column, value) } else { null(column) }
    }

    public mutating func date(_ column: Int, daysSinceEpoch value: Int32?) {
        if let value { date(column, daysSinceEpoch: value) } else { null(column) }
    }

    public mutating func timestamp(_ column: Int, microsecondsSinceEpoch value: Int64?) {
        if let value { timestamp(column, microsecondsSinceEpoch: value) } else { null(column) }
    }

    // MARK: Checks

    @inline(__always)
    private mutating func claim(_ column: Int,
                                _ storage: ParquetStorage) -> UnsafeMutablePointer<ParquetColumnBuffer>? {
        guard column >= 0 && column < columnCount else {
            fail("no column \(column)")
            return nil
        }
        let c = columns + column
        guard c.pointee.storage == storage && c.pointee.rowSerial != serial else {
            if c.pointee.storage != storage {
                fail("column '\(c.pointee.column.name)' is \(c.pointee.column.type), not \(storage)")
            } else {
                fail("column '\(c.pointee.column.name)' is set twice in one row")
            }
            return nil
        }
        c.pointee.rowSerial = serial
        c.pointee.lastWasNull = false
        return c
    }

    private mutating func fail(_ message: String) {
        if error == nil { error = "parquet: " + message }
    }
}

/// One value of a row, for `ParquetWriter.appendRow(_:)` with an array (convenient for
/// small tables; the closure form allocates nothing per row).
public enum ParquetValue: Sendable, Hashable {
    case int32(Int32)
    case int64(Int64)
    case double(Double)
    case boolean(Bool)
    case string(String)
    case date(daysSinceEpoch: Int32)
    case timestamp(microsecondsSinceEpoch: Int64)
    case null
}
