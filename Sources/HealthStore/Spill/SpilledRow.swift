/// The byte layout of a row in a sample run: a fixed header, then the texts it has, as UTF-8.
/// Runs live only as long as the process that wrote them, so numbers are in native byte order.
///
///     0 start  8 row id  16 end  24 created  32 value (bits)  40 type  44 source  48 local day
///     52 flags  56, 60, 64, 68: lengths of category value, unit, raw value, raw unit
enum SpilledRow {
    static let headerSize = 72

    struct Flags: OptionSet {
        let rawValue: UInt32
        static let created = Flags(rawValue: 1)
        static let value = Flags(rawValue: 2)
        static let userEntered = Flags(rawValue: 4)
        static let categoryValue = Flags(rawValue: 8)
        static let unit = Flags(rawValue: 16)
        static let raw = Flags(rawValue: 32)
        static let rawUnit = Flags(rawValue: 64)
    }

    /// The length of a row with these texts.
    @inline(__always)
    static func length(unit: String?, rawValue: String?, rawUnit: String?, categoryValue: String?) -> Int {
        headerSize + (categoryValue?.utf8.count ?? 0) + (unit?.utf8.count ?? 0) + (rawValue?.utf8.count ?? 0)
            + (rawUnit?.utf8.count ?? 0)
    }

    /// Writes a row at `p`, which has room for its `length`.
    @inline(__always)
    static func write(to p: UnsafeMutableRawPointer, type: Int32, rowID: Int64, source: Int32, start: Int64, end: Int64,
                      created: Int64?, localDay: Int32, value: Double?, unit: String?, rawValue: String?,
                      rawUnit: String?, categoryValue: String?, userEntered: Bool) {
        var flags: Flags = []
        if created != nil { flags.insert(.created) }
        // The store keeps a value that is not finite as NULL; so does the spill.
        let storedValue = value.flatMap { $0.isFinite ? $0 : nil }
        if storedValue != nil { flags.insert(.value) }
        if userEntered { flags.insert(.userEntered) }
        if categoryValue != nil { flags.insert(.categoryValue) }
        if unit != nil { flags.insert(.unit) }
        if rawValue != nil { flags.insert(.raw) }
        if rawUnit != nil { flags.insert(.rawUnit) }
        p.storeBytes(of: start, as: Int64.self)
        p.storeBytes(of: rowID, toByteOffset: 8, as: Int64.self)
        p.storeBytes(of: end, toByteOffset: 16, as: Int64.self)
        p.storeBytes(of: created ?? 0, toByteOffset: 24, as: Int64.self)
        p.storeBytes(of: (storedValue ?? 0).bitPattern, toByteOffset: 32, as: UInt64.self)
        p.storeBytes(of: type, toByteOffset: 40, as: Int32.self)
        p.storeBytes(of: source, toByteOffset: 44, as: Int32.self)
        p.storeBytes(of: localDay, toByteOffset: 48, as: Int32.self)
        p.storeBytes(of: flags.rawValue, toByteOffset: 52, as: UInt32.self)
        var cursor = headerSize
        writeText(categoryValue, to: p, at: &cursor, lengthAt: 56)
        writeText(unit, to: p, at: &cursor, lengthAt: 60)
        writeText(rawValue, to: p, at: &cursor, lengthAt: 64)
        writeText(rawUnit, to: p, at: &cursor, lengthAt: 68)
    }

    @inline(__always)
    private static func writeText(_ text: String?, to p: UnsafeMutableRawPointer, at cursor: inout Int, lengthAt offset: Int) {
        let count = text?.utf8.count ?? 0
        p.storeBytes(of: UInt32(count), toByteOffset: offset, as: UInt32.self)
        guard let text, count > 0 else { return }
        let target = p + cursor
        if text.utf8.withContiguousStorageIfAvailable({ target.copyMemory(from: $0.baseAddress!, byteCount: count) }) == nil {
            for (i, byte) in text.utf8.enumerated() { target.storeBytes(of: byte, toByteOffset: i, as: UInt8.self) }
        }
        cursor += count
    }

    /// Appends a row to `bytes`: `write` into an array, for tests that build rows one by one.
    static func append(to bytes: inout [UInt8], type: Int32, rowID: Int64, source: Int32, start: Int64, end: Int64,
                       created: Int64?, localDay: Int32, value: Double?, unit: String?, rawValue: String?,
                       rawUnit: String?, categoryValue: String?, userEntered: Bool) {
        let base = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: length(unit: unit, rawValue: rawValue, rawUnit: rawUnit,
                                                                 categoryValue: categoryValue)))
        bytes.withUnsafeMutableBytes {
            write(to: $0.baseAddress! + base, type: type, rowID: rowID, source: source, start: start, end: end,
                  created: created, localDay: localDay, value: value, unit: unit, rawValue: rawValue, rawUnit: rawUnit,
                  categoryValue: categoryValue, userEntered: userEntered)
        }
    }

    /// The texts of the row at `row` (nil where it has none), in their slots' order.
    struct Texts {
        var categoryValue, unit, rawValue, rawUnit: UnsafeRawBufferPointer?
        let totalCount: Int

        init(_ row: UnsafeRawPointer) {
            let flags = Flags(rawValue: row.loadUnaligned(fromByteOffset: 52, as: UInt32.self))
            var cursor = headerSize
            func text(_ slot: Int, _ flag: Flags) -> UnsafeRawBufferPointer? {
                let length = Int(row.loadUnaligned(fromByteOffset: 56 + 4 * slot, as: UInt32.self))
                defer { cursor += length }
                return flags.contains(flag) ? UnsafeRawBufferPointer(start: row + cursor, count: length) : nil
            }
            categoryValue = text(0, .categoryValue)
            unit = text(1, .unit)
            rawValue = text(2, .raw)
            rawUnit = text(3, .rawUnit)
            totalCount = cursor - headerSize
        }
    }

    /// A row's sort key, read from its header.
    struct Key: Comparable {
        var type: Int32
        var start: Int64
        var rowID: Int64

        init(type: Int32, start: Int64, rowID: Int64) {
            self.type = type; self.start = start; self.rowID = rowID
        }

        init(_ row: UnsafeRawPointer) {
            start = row.loadUnaligned(as: Int64.self)
            rowID = row.loadUnaligned(fromByteOffset: 8, as: Int64.self)
            type = row.loadUnaligned(fromByteOffset: 40, as: Int32.self)
        }

        static func < (a: Key, b: Key) -> Bool { (a.type, a.start, a.rowID) < (b.type, b.start, b.rowID) }
    }

    /// The whole length of the row whose header starts at `row`.
    static func length(_ row: UnsafeRawPointer) -> Int {
        var total = headerSize
        for i in 0..<4 { total += Int(row.loadUnaligned(fromByteOffset: 56 + 4 * i, as: UInt32.self)) }
        return total
    }

    /// Decodes a row; repeated texts (units, category values) come from `texts`.
    static func decode(_ row: UnsafeRawPointer, texts: inout RepeatedRowTexts) -> SeriesReader.Row {
        let flags = Flags(rawValue: row.loadUnaligned(fromByteOffset: 52, as: UInt32.self))
        var cursor = headerSize
        /// The bytes of the text in `slot`, if the row has it; texts follow each other.
        func bytes(_ slot: Int, _ flag: Flags) -> UnsafeRawBufferPointer? {
            let length = Int(row.loadUnaligned(fromByteOffset: 56 + 4 * slot, as: UInt32.self))
            defer { cursor += length }
            return flags.contains(flag) ? UnsafeRawBufferPointer(start: row + cursor, count: length) : nil
        }
        let categoryValue = bytes(0, .categoryValue).map { texts.categoryValue.text($0) }
        let unit = bytes(1, .unit).map { texts.unit.text($0) }
        let rawValue = bytes(2, .raw).map { String(decoding: $0, as: UTF8.self) }
        let rawUnit = bytes(3, .rawUnit).map { texts.rawUnit.text($0) }
        return SeriesReader.Row(
            start: row.loadUnaligned(as: Int64.self), end: row.loadUnaligned(fromByteOffset: 16, as: Int64.self),
            value: flags.contains(.value) ? Double(bitPattern: row.loadUnaligned(fromByteOffset: 32, as: UInt64.self)) : nil,
            sourceID: Int64(row.loadUnaligned(fromByteOffset: 44, as: Int32.self)),
            userEntered: flags.contains(.userEntered), categoryValue: categoryValue,
            localDay: Int(row.loadUnaligned(fromByteOffset: 48, as: Int32.self)), unit: unit,
            created: flags.contains(.created) ? row.loadUnaligned(fromByteOffset: 24, as: Int64.self) : nil,
            rawValue: rawValue, rawUnit: rawUnit, id: row.loadUnaligned(fromByteOffset: 8, as: Int64.self))
    }
}

/// The texts that repeat from row to row of a series, one `RepeatedText` each.
struct RepeatedRowTexts {
    var categoryValue = RepeatedText(), unit = RepeatedText(), rawUnit = RepeatedText()
}
