/// The buffered values of one column for the row group being built.
///
/// Values are kept dense (nulls take no value slot) in one typed array chosen by the
/// column's storage; optional columns also keep one definition level (0 = null, 1 = value)
/// per row. Strings are either dictionary indices or PLAIN lengths plus bytes.
///
/// A struct reached through `ParquetColumnStore`'s pointer, so appends need neither
/// reference counting nor dynamic exclusivity checks (which cost a third of the time
/// when this was a class).
struct ParquetColumnBuffer {
    let column: ParquetColumn
    let storage: ParquetStorage
    let isOptional: Bool

    // Row bookkeeping (see ParquetRow): the serial of the last row that set this column and
    // whether that was a null.
    var rowSerial: Int = -1
    var lastWasNull = false
    /// The current row added a dictionary entry.
    private var lastAddedEntry = false

    var int32s: [Int32] = []
    var int64s: [Int64] = []
    var doubles: [Double] = []
    var booleans: [UInt8] = []
    /// PLAIN strings.
    var stringLengths: [UInt32] = []
    var stringBytes: [UInt8] = []
    /// Dictionary-encoded strings (while `usesDictionary`).
    var dictionaryIndices: [UInt32] = []
    var dictionary = ByteStringDictionary()
    private(set) var usesDictionary: Bool
    let maxDictionaryEntries: Int
    let maxDictionaryBytes: Int

    var definitionLevels: [UInt8] = []

    init(column: ParquetColumn, maxDictionaryEntries: Int, maxDictionaryBytes: Int) {
        self.column = column
        self.storage = ParquetStorage(column.type)
        self.isOptional = column.optional
        self.usesDictionary = column.dictionary
        self.maxDictionaryEntries = maxDictionaryEntries
        self.maxDictionaryBytes = maxDictionaryBytes
    }

    /// Number of non-null values buffered.
    var valueCount: Int {
        switch storage {
        case .int32: int32s.count
        case .int64: int64s.count
        case .double: doubles.count
        case .boolean: booleans.count
        case .bytes: usesDictionary ? dictionaryIndices.count : stringLengths.count
        }
    }

    /// Bytes held by PLAIN strings (a row group is flushed early if this gets large).
    var plainStringByteCount: Int { stringBytes.count }

    // MARK: Appending (ParquetRow has checked the type)

    @inline(__always) mutating func appendDefinedLevel() {
        if isOptional { definitionLevels.append(1) }
    }

    @inline(__always) mutating func appendNull() {
        definitionLevels.append(0)
    }

    mutating func appendString(_ bytes: UnsafeRawBufferPointer) {
        if usesDictionary {
            let before = dictionary.count
            if let i = dictionary.index(of: bytes, maxEntries: maxDictionaryEntries, maxBytes: maxDictionaryBytes) {
                dictionaryIndices.append(i)
                lastAddedEntry = dictionary.count != before
                return
            }
            fallBackToPlain()
        }
        stringLengths.append(UInt32(bytes.count))
        stringBytes.append(contentsOf: bytes)
    }

    /// Appends this column's last value again, without looking at bytes; false if there is
    /// none to repeat (nothing since the row group began, or not dictionary-encoded).
    mutating func appendRepeatedString() -> Bool {
        guard usesDictionary, let last = dictionaryIndices.last else { return false }
        dictionaryIndices.append(last)
        lastAddedEntry = false
        return true
    }

    /// Converts the buffered dictionary indices to PLAIN strings; the column stays PLAIN for
    /// the rest of the file (a column this varied would overflow the next dictionary too).
    private mutating func fallBackToPlain() {
        stringLengths.reserveCapacity(dictionaryIndices.count)
        for i in dictionaryIndices {
            dictionary.withEntry(Int(i)) { e in
                stringLengths.append(UInt32(e.count))
                stringBytes.append(contentsOf: e)
            }
        }
        dictionaryIndices = []
        dictionary = ByteStringDictionary()
        usesDictionary = false
    }

    /// Takes back what the current row appended (the row failed).
    mutating func undoLastRow() {
        if isOptional { definitionLevels.removeLast() }
        if lastWasNull { return }
        switch storage {
        case .int32: int32s.removeLast()
        case .int64: int64s.removeLast()
        case .double: doubles.removeLast()
        case .boolean: booleans.removeLast()
        case .bytes:
            if usesDictionary {
                dictionaryIndices.removeLast()
                if lastAddedEntry { dictionary.removeLastEntry() }
            } else {
                let n = Int(stringLengths.removeLast())
                stringBytes.removeLast(n)
            }
        }
    }

    /// Empties the buffers after a row group was written, keeping their capacity.
    mutating func removeAll() {
        int32s.removeAll(keepingCapacity: true)
        int64s.removeAll(keepingCapacity: true)
        doubles.removeAll(keepingCapacity: true)
        booleans.removeAll(keepingCapacity: true)
        stringLengths.removeAll(keepingCapacity: true)
        stringBytes.removeAll(keepingCapacity: true)
        dictionaryIndices.removeAll(keepingCapacity: true)
        if usesDictionary { dictionary.removeAll() }
        definitionLevels.removeAll(keepingCapacity: true)
    }
}

/// Owns the column buffers of a writer, at a stable address.
final class ParquetColumnStore {
    let base: UnsafeMutablePointer<ParquetColumnBuffer>
    let count: Int

    init(_ buffers: [ParquetColumnBuffer]) {
        count = buffers.count
        base = .allocate(capacity: max(1, buffers.count))
        base.initialize(from: buffers, count: buffers.count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inline(__always) subscript(i: Int) -> UnsafeMutablePointer<ParquetColumnBuffer> { base + i }
}
