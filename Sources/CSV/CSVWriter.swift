import PrivateFiles

/// How a CSV column renders its values.
public enum CSVFormat: Sendable, Hashable {
    /// Any text; quoted per RFC 4180 when it holds `,` `"` CR or LF. A text that could start a
    /// spreadsheet formula (`=`, `+`, `-`, `@`, tab or CR first) is written `'`-prefixed and
    /// quoted: `"'=1+1"` (see `CSVFormulaGuard`; `-5` and `+01:00` stay as they are).
    case text
    /// A whole number, `-12`. A Double given to an integer column is rounded like `.decimal(places: 0)`.
    case integer
    /// Plain decimal notation with exactly `places` (0…18) decimals, never an exponent:
    /// 1e-7 with 6 places is `0.000000`, 1e20 with 0 places `100000000000000000000`.
    /// The exact binary value of the Double is rounded, ties away from zero: 0.125 → `0.13`, but
    /// 2.675 → `2.67` because the Double nearest 2.675 is 2.67499999999999982…; this is Python's
    /// `Decimal(x).quantize(Decimal(10) ** -places, ROUND_HALF_UP)`. A result of zero has no
    /// sign (`-0.0` → `0.00`). NaN and ±infinity are empty cells. An integer given to a decimal
    /// column gets zero decimals (`5` → `5.00`).
    case decimal(places: Int)
    /// A calendar date as `YYYY-MM-DD`.
    case date
    /// An instant as ISO 8601 UTC: `2024-01-10T10:30:00Z`,
    /// `2024-01-10T10:30:00.25Z`.
    case timestamp
}

/// A column of a CSV file: its header name and format.
public struct CSVColumn: Sendable, Hashable {
    public var name: String
    public var format: CSVFormat

    public init(name: String, format: CSVFormat) {
        self.name = name
        self.format = format
    }

    public init(_ name: String, _ format: CSVFormat) {
        self.init(name: name, format: format)
    }
}

/// Writes a CSV file (RFC 4180: CRLF line endings, fields with `,` `"` CR or LF quoted with
/// quotes doubled; UTF-8 without BOM; a header row first), row by row, with bounded memory.
/// Text cells that could start a spreadsheet formula are neutralised (`CSVFormat.text`).
///
/// ```swift
/// let w = try CSVWriter(path: "out/csv/daily.csv", columns: [
///     CSVColumn(name: "date", format: .date),
///     CSVColumn(name: "steps", format: .integer),
///     CSVColumn(name: "walking_distance_m", format: .decimal(places: 1)),
/// ])
/// try w.appendRow { r in
///     r.date(0, day)
///     r.integer(1, steps)             // Int?/Int64? — nil is an empty cell
///     r.decimal(2, distance)          // Double? — nil, NaN and ±inf are empty cells
/// }
/// try w.close()
/// ```
///
/// The file is written as a hidden temporary beside `path` (`.daily.csv.tmp-<pid>`, mode 0600)
/// through a 256 KiB buffer; `close()` flushes, fsyncs and renames it over `path`, so readers
/// see the previous file or the whole new one. `abort()` (and a writer released without
/// `close()`) removes the temporary and leaves `path` untouched. Cells are formatted by hand
/// into reused buffers: nothing is allocated per row (except for dates outside years 0…9999).
///
/// Not thread-safe: use one writer from one thread at a time.
/// How cells are separated and numbers written: RFC 4180 (`,`, decimal point, no BOM; the
/// default, and what LibreOffice and pandas read everywhere) or the dialect Excel expects in
/// German, French, Spanish, Italian or Dutch settings (`;`, decimal comma, a UTF-8 BOM so that
/// it reads UTF-8).
public struct CSVDialect: Sendable, Hashable {
    public var separator: UInt8
    public var decimalComma: Bool
    public var byteOrderMark: Bool
    /// Instants as local wall-clock date-times `2024-03-20 00:09:18` (whole seconds, no zone),
    /// which Excel and LibreOffice read as date-times in any locale, instead of ISO 8601 UTC
    /// `2024-03-19T23:09:18Z`, which they read as text. Needs the writer's `localOffset`.
    public var localDateTimes: Bool

    public static let rfc4180 = CSVDialect(separator: 0x2C, decimalComma: false, byteOrderMark: false)
    public static let excelSemicolon = CSVDialect(separator: 0x3B, decimalComma: true, byteOrderMark: true, localDateTimes: true)

    /// The dialect of the pipeline key `csvDialect` (`rfc4180`, `excel-semicolon`).
    public init?(name: String) {
        switch name {
        case "rfc4180": self = .rfc4180
        case "excel-semicolon": self = .excelSemicolon
        default: return nil
        }
    }

    public init(separator: UInt8, decimalComma: Bool, byteOrderMark: Bool, localDateTimes: Bool = false) {
        self.separator = separator; self.decimalComma = decimalComma; self.byteOrderMark = byteOrderMark
        self.localDateTimes = localDateTimes
    }
}

public final class CSVWriter {
    public let path: String
    public let columns: [CSVColumn]
    /// Data rows appended so far (the header not counted).
    public private(set) var rowCount = 0

    private enum State { case open, closed, aborted }
    private var state = State.open
    /// Owned by the writer alone: released uncommitted (a throwing init, a dropped writer) it
    /// removes its temporary, so the writer needs no deinit of its own.
    private let file: AtomicOutputFile
    private let cells: CSVRowCells
    private var serial = 0
    private var inRow = false

    /// Creates the temporary file beside `path` and writes the header row.
    /// Throws `cannotCreateOutput` when the file can't be created, `internal` for a bad column list.
    /// `localOffset`: the zone's offset from UTC in seconds at an instant (seconds since 1970),
    /// for a dialect with `localDateTimes` (without it, instants stay ISO 8601 UTC).
    public init(path: String, columns: [CSVColumn], dialect: CSVDialect = .rfc4180, bufferSize: Int = 256 << 10,
                localOffset: (@Sendable (Int64) -> Int)? = nil, durability: Durability = .synced) throws {
        guard !columns.isEmpty else { throw CSVError("csv: \(path) has no columns") }
        for c in columns {
            if case .decimal(let places) = c.format, !(0...CSVCellEncoding.maxPlaces).contains(places) {
                throw CSVError(
                    "csv: column '\(c.name)' of \(path): places must be 0…\(CSVCellEncoding.maxPlaces), not \(places)")
            }
        }
        self.path = path
        self.columns = columns
        self.cells = CSVRowCells(columns: columns, dialect: dialect)
        if dialect.localDateTimes { cells.localOffset = localOffset }
        self.file = try AtomicOutputFile(path: path, bufferSize: bufferSize, durability: durability)
        if dialect.byteOrderMark { try file.write([0xEF, 0xBB, 0xBF]) }
        try appendRow { r in
            for i in columns.indices { r.header(i, columns[i].name) }
        }
        rowCount = 0
    }

    /// The index of the column called `name`.
    public func columnIndex(_ name: String) -> Int? {
        columns.firstIndex { $0.name == name }
    }

    /// Appends one row, set by `body` (see `CSVRow`); cells not set are empty. If `body`
    /// throws or misuses the row (unknown column, wrong type, a cell set twice), nothing of the
    /// row is written and the writer stays usable. An I/O error aborts the writer (see `abort()`).
    public func appendRow(_ body: (inout CSVRow) throws -> Void) throws {
        guard state == .open else { throw CSVError("csv: \(path) is already \(state == .closed ? "closed" : "aborted")") }
        guard !inRow else { throw CSVError("csv: appendRow called while a row is being built") }
        inRow = true
        defer { inRow = false }
        serial &+= 1
        cells.used = 0
        var row = CSVRow(cells: cells, serial: serial)
        try body(&row)
        guard state == .open else { throw CSVError("csv: \(path) was aborted") }
        if let message = row.error { throw CSVError("csv: \(path): \(message)") }
        do {
            try emitRow(serial)
        } catch {
            abort()
            throw error
        }
        rowCount += 1
    }

    /// Flushes, fsyncs, and renames the file over `path`. On failure the temporary file is
    /// removed, `path` is untouched, and the error (`io`, naming the path) is rethrown.
    public func close() throws {
        guard state == .open else { throw CSVError("csv: \(path) is already \(state == .closed ? "closed" : "aborted")") }
        guard !inRow else { throw CSVError("csv: close called while a row is being built") }
        do {
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
        file.discard()
    }

    /// Writes the cells of row `serial` in column order, with commas and CRLF.
    private func emitRow(_ serial: Int) throws {
        let count = cells.columnCount
        let bytes = cells.bytes
        var total = count + 1          // commas and CRLF
        for i in 0..<count where cells.serials[i] == serial {
            total += cells.ends[i] - cells.starts[i]
        }
        if count == 1 && total == 2 {
            // A lone empty cell would be a blank line, which readers skip: write "" instead.
            for b: UInt8 in [0x22, 0x22, 0x0D, 0x0A] { try file.writeByte(b) }
            return
        }
        if total <= file.capacity {
            let out = try file.reserve(total)
            var n = 0
            for i in 0..<count {
                if i > 0 { out[n] = cells.dialect.separator; n += 1 }
                if cells.serials[i] == serial {
                    let len = cells.ends[i] - cells.starts[i]
                    (out + n).update(from: bytes + cells.starts[i], count: len)
                    n += len
                }
            }
            out[n] = 0x0D
            out[n + 1] = 0x0A
            file.advance(by: n + 2)
        } else {
            for i in 0..<count {
                if i > 0 { try file.writeByte(cells.dialect.separator) }
                if cells.serials[i] == serial {
                    try file.write(UnsafeRawBufferPointer(start: bytes + cells.starts[i],
                                                          count: cells.ends[i] - cells.starts[i]))
                }
            }
            try file.writeByte(0x0D)
            try file.writeByte(0x0A)
        }
    }
}

/// The row being appended, handed to the closure of `CSVWriter.appendRow`.
///
/// Set each cell at most once by its column index; cells left unset are empty, and so are
/// nil values (`null` says so explicitly). Each setter must match the column's format, except
/// that `integer` also fills `.decimal` columns and `decimal` also fills `.integer` columns
/// (rounded half away from zero). A mismatch, an unknown index or a cell set twice makes
/// `appendRow` throw without writing the row. Setters format straight into a reused buffer.
///
/// (For a literal nil use `null(_:)`: `integer(i, nil)` is ambiguous between `Int?` and `Int64?`.)
public struct CSVRow: ~Copyable {
    private unowned(unsafe) let cells: CSVRowCells
    private let serial: Int
    private(set) var error: String?

    init(cells: CSVRowCells, serial: Int) {
        self.cells = cells
        self.serial = serial
    }

    public mutating func text(_ column: Int, _ value: String?) {
        guard let format = claim(column, "text") else { return }
        guard case .text = format else { return mismatch(column, "text") }
        guard let value else { return cells.setEmpty(column) }
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { cells.setField(column, $0) }
        if done == nil {
            var copy = value
            copy.withUTF8 { cells.setField(column, $0) }
        }
    }

    /// Text given as UTF-8 bytes (the caller guarantees they are valid UTF-8); copied.
    public mutating func text(_ column: Int, utf8 bytes: UnsafeRawBufferPointer) {
        guard let format = claim(column, "text") else { return }
        guard case .text = format else { return mismatch(column, "text") }
        cells.setField(column, UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                                   count: bytes.count))
    }

    public mutating func integer(_ column: Int, _ value: Int64?) {
        guard let format = claim(column, "integer") else { return }
        let places: Int
        switch format {
        case .integer: places = 0
        case .decimal(let p): places = p
        default: return mismatch(column, "integer")
        }
        guard let value else { return cells.setEmpty(column) }
        let out = cells.begin(column, reserving: CSVCellEncoding.maxIntegerBytes + 1 + places)
        cells.endNumber(column, CSVCellEncoding.writeInteger(value, places: places, to: out))
    }

    public mutating func integer(_ column: Int, _ value: Int?) {
        integer(column, value.map { Int64($0) })
    }

    /// A Double (nil, NaN and ±inf are empty cells); see `CSVFormat.decimal` for the rounding.
    public mutating func decimal(_ column: Int, _ value: Double?) {
        guard let format = claim(column, "decimal") else { return }
        let places: Int
        switch format {
        case .integer: places = 0
        case .decimal(let p): places = p
        default: return mismatch(column, "decimal")
        }
        guard let value else { return cells.setEmpty(column) }
        let out = cells.begin(column, reserving: CSVCellEncoding.maxDecimalBytes)
        cells.endNumber(column, CSVCellEncoding.writeDecimal(value, places: places, to: out))
    }

    /// A calendar date as `YYYY-MM-DD`; a year outside 0…9999 (or an impossible month or day)
    /// is written as the caller's own `text` (the library knows no date type).
    public mutating func date(_ column: Int, _ value: (year: Int, month: Int, day: Int)?,
                              otherwise text: @autoclosure () -> String) {
        guard let format = claim(column, "date") else { return }
        guard case .date = format else { return mismatch(column, "date") }
        guard let value else { return cells.setEmpty(column) }
        let out = cells.begin(column, reserving: CSVCellEncoding.dateBytes)
        if let n = CSVCellEncoding.writeDate(year: value.year, month: value.month, day: value.day, to: out) {
            cells.end(column, n)
        } else {
            cells.end(column, 0)
            cells.setSlow(column, text())
        }
    }

    /// An instant (microseconds since 1970 UTC) as ISO 8601 UTC, `2024-01-10T10:30:00Z` with
    /// `.f…` only for a fraction of a second; a year outside 0…9999 is the caller's `text`.
    public mutating func timestamp(_ column: Int, microseconds value: Int64?, otherwise text: @autoclosure () -> String) {
        guard let format = claim(column, "timestamp") else { return }
        guard case .timestamp = format else { return mismatch(column, "timestamp") }
        guard let value else { return cells.setEmpty(column) }
        let out = cells.begin(column, reserving: CSVCellEncoding.maxTimestampBytes)
        if cells.localOffset != nil {
            // Whole seconds of the local wall clock, `T` a space and no `Z`: a spreadsheet's date-time.
            let seconds = Self.floorSeconds(value)
            let local = (seconds + Int64(cells.offset(at: seconds))) * 1_000_000
            if let n = CSVCellEncoding.writeTimestamp(microseconds: local, to: out) {
                out[10] = UInt8(ascii: " ")
                return cells.end(column, n - 1)
            }
            cells.end(column, 0)
            return cells.setSlow(column, text())
        }
        if let n = CSVCellEncoding.writeTimestamp(microseconds: value, to: out) {
            cells.end(column, n)
        } else {
            cells.end(column, 0)
            cells.setSlow(column, text())
        }
    }

    private static func floorSeconds(_ microseconds: Int64) -> Int64 {
        microseconds >= 0 ? microseconds / 1_000_000 : -((-microseconds + 999_999) / 1_000_000)
    }

    /// An empty cell (the same as leaving it unset).
    public mutating func null(_ column: Int) {
        guard claim(column, "null") != nil else { return }
        cells.setEmpty(column)
    }

    /// A header cell: text in any column.
    mutating func header(_ column: Int, _ name: String) {
        guard claim(column, "header") != nil else { return }
        var copy = name
        copy.withUTF8 { cells.setField(column, $0) }
    }

    /// Marks `column` as set in this row and returns its format, or records why it can't be.
    private mutating func claim(_ column: Int, _ setter: StaticString) -> CSVFormat? {
        guard error == nil else { return nil }
        guard column >= 0 && column < cells.columnCount else {
            error = "\(setter)(\(column), …): no such column (there are \(cells.columnCount))"
            return nil
        }
        guard cells.serials[column] != serial else {
            error = "column '\(cells.columns[column].name)' was set twice in one row"
            return nil
        }
        cells.serials[column] = serial
        cells.starts[column] = cells.used
        cells.ends[column] = cells.used
        return cells.columns[column].format
    }

    private mutating func mismatch(_ column: Int, _ setter: StaticString) {
        error = "\(setter)(\(column), …) on column '\(cells.columns[column].name)', "
            + "whose format is \(cells.columns[column].format)"
    }
}

/// The cells of the row being built: their bytes, already formatted (and quoted), in one
/// growable buffer reused from row to row, with each column's span and the serial of the
/// row that last set it.
final class CSVRowCells {
    let columns: [CSVColumn]
    let columnCount: Int
    let serials: UnsafeMutablePointer<Int>
    let starts: UnsafeMutablePointer<Int>
    let ends: UnsafeMutablePointer<Int>
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    var used = 0

    let dialect: CSVDialect
    /// The zone's offset at an instant, for local date-times; the last answer is kept for its
    /// quarter hour (zones change offset on quarter hours at the finest), so a table of
    /// nearby instants asks the zone seldom.
    var localOffset: (@Sendable (Int64) -> Int)?
    private var offsetQuarter = Int64.min, offsetSeconds = 0

    func offset(at seconds: Int64) -> Int {
        let quarter = seconds >= 0 ? seconds / 900 : (seconds - 899) / 900
        if quarter != offsetQuarter, let localOffset { offsetQuarter = quarter; offsetSeconds = localOffset(seconds) }
        return offsetSeconds
    }

    init(columns: [CSVColumn], dialect: CSVDialect) {
        self.columns = columns
        self.dialect = dialect
        columnCount = columns.count
        serials = .allocate(capacity: columnCount)
        serials.initialize(repeating: 0, count: columnCount)
        starts = .allocate(capacity: columnCount)
        starts.initialize(repeating: 0, count: columnCount)
        ends = .allocate(capacity: columnCount)
        ends.initialize(repeating: 0, count: columnCount)
        capacity = 4096
        bytes = .allocate(capacity: capacity)
    }

    deinit {
        serials.deallocate()
        starts.deallocate()
        ends.deallocate()
        bytes.deallocate()
    }

    /// Room for `n` bytes of `column`'s cell at the returned pointer.
    @inline(__always)
    func begin(_ column: Int, reserving n: Int) -> UnsafeMutablePointer<UInt8> {
        if used + n > capacity { grow(to: used + n) }
        starts[column] = used
        return bytes + used
    }

    @inline(__always)
    func end(_ column: Int, _ n: Int) {
        used += n
        ends[column] = used
    }

    /// Ends a number's cell: in a decimal-comma dialect its point becomes a comma.
    @inline(__always)
    func endNumber(_ column: Int, _ n: Int) {
        if dialect.decimalComma {
            for i in used..<(used + n) where bytes[i] == UInt8(ascii: ".") { bytes[i] = UInt8(ascii: ",") }
        }
        end(column, n)
    }

    @inline(__always)
    func setEmpty(_ column: Int) {
        starts[column] = used
        ends[column] = used
    }

    func setField(_ column: Int, _ field: UnsafeBufferPointer<UInt8>) {
        let out = begin(column, reserving: CSVCellEncoding.maxFieldBytes(field.count))
        end(column, CSVCellEncoding.writeField(field, separator: dialect.separator, to: out))
    }

    /// A cell from a String made by a slow path (dates out of the fast range).
    func setSlow(_ column: Int, _ text: String) {
        var copy = text
        copy.withUTF8 { setField(column, $0) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBytes.update(from: bytes, count: used)
        bytes.deallocate()
        bytes = newBytes
        capacity = newCapacity
    }
}

/// A CSV file used against its own rules (a row wider than the header, a cell of the wrong
/// kind, a closed file): a program error, exit code 70. File errors are `FileError`s.
public struct CSVError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
    public var exitCode: Int32 { 70 }
}
