#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a run's rows are written to its file: each row as what differs from the row before it
/// in the run, where `SpilledRow` (the layout rows are sorted in, in memory) keeps every field
/// whole. A run is sorted by (type, start, row id), so the type rarely changes, starts and row
/// ids move by small steps, an end and a creation instant lie near the start, and a series
/// repeats its units and category values row after row. A row of a generated year took 92
/// bytes in the fixed layout and takes about 20 here: the runs are written once and read once,
/// and copying them into and out of the page cache was a twentieth of an import's CPU time
/// (issue 62).
///
///     length   varint: the bytes that follow
///     present  1 byte: `SpilledRow.Flags` (7 bits) and `integralValue` (the top bit)
///     changed  1 byte: `Changed`
///     type     zigzag varint, the step from the last row's type (if `Changed.type`)
///     start    zigzag varint, the step from the last row's start
///     row id   zigzag varint, the step from the last row's id
///     end      zigzag varint, the distance from this row's start
///     created  zigzag varint, the distance from this row's end (if present)
///     source   zigzag varint, the step from the last row's source (if `Changed.source`)
///     day      zigzag varint, the step from the last row's local day
///     value    zigzag varint of an integral value, else its 8 bytes (if present)
///     texts    category value, unit, raw value, raw unit (those present and not repeated):
///              varint length, then UTF-8
///
/// Steps are taken with wrapping arithmetic, so any instants (a hostile export's year 9999
/// beside year 1) round-trip. Runs never outlive their process: numbers are in native byte order.
enum CompactRow {
    /// `present`'s top bit: the value is an integer, written as a varint.
    static let integralValue: UInt8 = 0x80

    struct Changed: OptionSet {
        let rawValue: UInt8
        static let type = Changed(rawValue: 1)
        static let source = Changed(rawValue: 2)
        /// The category value, unit and raw unit are the last row's, byte for byte.
        static let sameCategoryValue = Changed(rawValue: 4)
        static let sameUnit = Changed(rawValue: 8)
        static let sameRawUnit = Changed(rawValue: 16)
    }

    /// The most bytes a row's fixed part (everything but its texts and their lengths) takes.
    static let fixedPartLimit = 2 + 8 * 10

    /// The last row's fields, which the next row is written (and read) against.
    struct Previous {
        var type: Int32 = 0, source: Int32 = 0, localDay: Int32 = 0
        var start: Int64 = 0, rowID: Int64 = 0
        var categoryValue = LastText(), unit = LastText(), rawUnit = LastText()
    }

    /// Where a decoded row's text is.
    enum TextSource {
        case absent
        case inRow(UnsafeRawBufferPointer)
        /// The last row's text of the column, of this many bytes.
        case repeated(Int)

        var count: Int {
            switch self {
            case .absent: 0
            case .inRow(let bytes): bytes.count
            case .repeated(let count): count
            }
        }
    }

    /// A column's last text, to find it repeated.
    struct LastText {
        private var bytes: [UInt8] = []
        private(set) var present = false
        var count: Int { bytes.count }

        func equals(_ text: UnsafeRawBufferPointer) -> Bool {
            guard present, bytes.count == text.count else { return false }
            return text.isEmpty || bytes.withUnsafeBytes { memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }
        }

        func copy(to destination: UnsafeMutableRawPointer) {
            bytes.withUnsafeBytes { if let from = $0.baseAddress { destination.copyMemory(from: from, byteCount: $0.count) } }
        }

        /// The next row's text: `repeated` if it is this one, byte for byte.
        mutating func set(_ text: UnsafeRawBufferPointer?, repeated: Bool) {
            present = text != nil
            if let text, !repeated { bytes.removeAll(keepingCapacity: true); bytes.append(contentsOf: text) }
        }

        /// After a row is decoded: its text.
        mutating func set(_ text: TextSource) {
            switch text {
            case .absent: present = false
            case .inRow(let bytes): set(bytes, repeated: false)
            case .repeated: break
            }
        }
    }

    @inline(__always) static func zigzag(_ n: Int64) -> UInt64 { UInt64(bitPattern: (n << 1) ^ (n >> 63)) }
    @inline(__always) static func unzigzag(_ n: UInt64) -> Int64 { Int64(bitPattern: n >> 1) ^ -Int64(bitPattern: n & 1) }
}

/// Writes rows in the compact form, one run at a time (`reset` between runs).
struct CompactRowEncoder {
    private var previous = CompactRow.Previous()
    /// One row's encoded bytes before its length is known; reused.
    private var row: UnsafeMutableRawBufferPointer

    init() { row = .allocate(byteCount: 4096, alignment: 8) }

    func deallocate() { row.deallocate() }

    mutating func reset() { previous = CompactRow.Previous() }

    /// Appends the row whose fixed layout (`SpilledRow`) starts at `fixed` to `out`.
    mutating func append(_ fixed: UnsafeRawPointer, to out: inout [UInt8]) {
        let flags = SpilledRow.Flags(rawValue: fixed.loadUnaligned(fromByteOffset: 52, as: UInt32.self))
        let texts = SpilledRow.Texts(fixed)
        let needed = CompactRow.fixedPartLimit + texts.totalCount + 4 * 10
        if needed > row.count {
            row.deallocate()
            row = .allocate(byteCount: needed, alignment: 8)
        }
        var w = Writer(base: row.baseAddress!)
        let type = fixed.loadUnaligned(fromByteOffset: 40, as: Int32.self)
        let source = fixed.loadUnaligned(fromByteOffset: 44, as: Int32.self)
        let localDay = fixed.loadUnaligned(fromByteOffset: 48, as: Int32.self)
        let start = fixed.loadUnaligned(as: Int64.self)
        let rowID = fixed.loadUnaligned(fromByteOffset: 8, as: Int64.self)
        let end = fixed.loadUnaligned(fromByteOffset: 16, as: Int64.self)
        var changed: CompactRow.Changed = []
        if type != previous.type { changed.insert(.type) }
        if source != previous.source { changed.insert(.source) }
        if let text = texts.categoryValue, previous.categoryValue.equals(text) { changed.insert(.sameCategoryValue) }
        if let text = texts.unit, previous.unit.equals(text) { changed.insert(.sameUnit) }
        if let text = texts.rawUnit, previous.rawUnit.equals(text) { changed.insert(.sameRawUnit) }
        var value: (integral: Int64?, bits: UInt64)?
        if flags.contains(.value) {
            let bits = fixed.loadUnaligned(fromByteOffset: 32, as: UInt64.self)
            // Integral only if it reads back bit for bit (not -0.0).
            let integral = Int64(exactly: Double(bitPattern: bits)).flatMap { Double($0).bitPattern == bits ? $0 : nil }
            value = (integral, bits)
        }
        w.byte(UInt8(truncatingIfNeeded: flags.rawValue) | (value?.integral != nil ? CompactRow.integralValue : 0))
        w.byte(changed.rawValue)
        if changed.contains(.type) { w.signed(Int64(type) &- Int64(previous.type)) }
        w.signed(start &- previous.start)
        w.signed(rowID &- previous.rowID)
        w.signed(end &- start)
        if flags.contains(.created) { w.signed(fixed.loadUnaligned(fromByteOffset: 24, as: Int64.self) &- end) }
        if changed.contains(.source) { w.signed(Int64(source) &- Int64(previous.source)) }
        w.signed(Int64(localDay) &- Int64(previous.localDay))
        if let value {
            if let integral = value.integral { w.signed(integral) } else { w.word(value.bits) }
        }
        if !changed.contains(.sameCategoryValue), let text = texts.categoryValue { w.text(text) }
        if !changed.contains(.sameUnit), let text = texts.unit { w.text(text) }
        if let text = texts.rawValue { w.text(text) }
        if !changed.contains(.sameRawUnit), let text = texts.rawUnit { w.text(text) }
        previous.type = type; previous.source = source; previous.localDay = localDay
        previous.start = start; previous.rowID = rowID
        previous.categoryValue.set(texts.categoryValue, repeated: changed.contains(.sameCategoryValue))
        previous.unit.set(texts.unit, repeated: changed.contains(.sameUnit))
        previous.rawUnit.set(texts.rawUnit, repeated: changed.contains(.sameRawUnit))
        var length = UInt64(w.count)
        while length >= 0x80 { out.append(UInt8(truncatingIfNeeded: length) | 0x80); length >>= 7 }
        out.append(UInt8(length))
        out.append(contentsOf: UnsafeRawBufferPointer(start: row.baseAddress!, count: w.count))
    }

    /// Writes into memory known to be large enough.
    private struct Writer {
        let base: UnsafeMutableRawPointer
        var count = 0

        @inline(__always) mutating func byte(_ b: UInt8) { base.storeBytes(of: b, toByteOffset: count, as: UInt8.self); count += 1 }

        @inline(__always) mutating func unsigned(_ n: UInt64) {
            var n = n
            while n >= 0x80 { byte(UInt8(truncatingIfNeeded: n) | 0x80); n >>= 7 }
            byte(UInt8(n))
        }

        @inline(__always) mutating func signed(_ n: Int64) { unsigned(CompactRow.zigzag(n)) }

        @inline(__always) mutating func word(_ bits: UInt64) {
            base.storeBytes(of: bits, toByteOffset: count, as: UInt64.self); count += 8
        }

        mutating func text(_ text: UnsafeRawBufferPointer) {
            unsigned(UInt64(text.count))
            if let from = text.baseAddress { (base + count).copyMemory(from: from, byteCount: text.count) }
            count += text.count
        }
    }
}

/// Reads rows in the compact form back into the fixed layout, one run's rows in order.
struct CompactRowDecoder {
    private var previous = CompactRow.Previous()
    /// The current row in the fixed layout; grown for long texts.
    private(set) var row: UnsafeMutableRawBufferPointer

    init() { row = .allocate(byteCount: 1024, alignment: 8) }

    func deallocate() { row.deallocate() }

    /// The length of the encoded row at `p` and the bytes its length prefix takes, if the
    /// `available` bytes there hold the whole prefix; nil if they do not (yet).
    static func length(at p: UnsafeRawPointer, available: Int) -> (prefix: Int, body: Int)? {
        var n: UInt64 = 0, shift: UInt64 = 0, i = 0
        while i < available && i < 10 {
            let b = p.load(fromByteOffset: i, as: UInt8.self)
            n |= UInt64(b & 0x7F) << shift
            i += 1
            if b < 0x80 { return Int(exactly: n).map { (i, $0) } }
            shift += 7
        }
        return nil
    }

    /// Decodes the encoded row body at `p` (`count` bytes) into `row`; false if it is not a
    /// well-formed row (a damaged run).
    mutating func decode(_ p: UnsafeRawPointer, count: Int) -> Bool {
        var r = Reader(base: p, count: count)
        guard let presentByte = r.byte(), let changedByte = r.byte() else { return false }
        let flags = SpilledRow.Flags(rawValue: UInt32(presentByte & ~CompactRow.integralValue))
        let changed = CompactRow.Changed(rawValue: changedByte)
        var type = previous.type, source = previous.source
        if changed.contains(.type) {
            guard let step = r.signed() else { return false }
            type = Int32(truncatingIfNeeded: Int64(type) &+ step)
        }
        guard let startStep = r.signed(), let rowIDStep = r.signed(), let length = r.signed() else { return false }
        let start = previous.start &+ startStep, rowID = previous.rowID &+ rowIDStep, end = start &+ length
        var created: Int64 = 0
        if flags.contains(.created) {
            guard let after = r.signed() else { return false }
            created = end &+ after
        }
        if changed.contains(.source) {
            guard let step = r.signed() else { return false }
            source = Int32(truncatingIfNeeded: Int64(source) &+ step)
        }
        guard let dayStep = r.signed() else { return false }
        let localDay = Int32(truncatingIfNeeded: Int64(previous.localDay) &+ dayStep)
        var valueBits: UInt64 = 0
        if flags.contains(.value) {
            if presentByte & CompactRow.integralValue != 0 {
                guard let integral = r.signed() else { return false }
                valueBits = Double(integral).bitPattern
            } else {
                guard let bits = r.word() else { return false }
                valueBits = bits
            }
        }
        // The texts: in the row, or the last row's where repeated (copied from there below).
        guard let category = r.text(flags.contains(.categoryValue), repeated: changed.contains(.sameCategoryValue), previous.categoryValue),
              let unit = r.text(flags.contains(.unit), repeated: changed.contains(.sameUnit), previous.unit),
              let raw = r.text(flags.contains(.raw), repeated: false, previous.unit),
              let rawUnit = r.text(flags.contains(.rawUnit), repeated: changed.contains(.sameRawUnit), previous.rawUnit),
              r.atEnd else { return false }
        let total = SpilledRow.headerSize + category.count + unit.count + raw.count + rawUnit.count
        if total > row.count {
            row.deallocate()
            row = .allocate(byteCount: total, alignment: 8)
        }
        let out = row.baseAddress!
        out.storeBytes(of: start, as: Int64.self)
        out.storeBytes(of: rowID, toByteOffset: 8, as: Int64.self)
        out.storeBytes(of: end, toByteOffset: 16, as: Int64.self)
        out.storeBytes(of: created, toByteOffset: 24, as: Int64.self)
        out.storeBytes(of: valueBits, toByteOffset: 32, as: UInt64.self)
        out.storeBytes(of: type, toByteOffset: 40, as: Int32.self)
        out.storeBytes(of: source, toByteOffset: 44, as: Int32.self)
        out.storeBytes(of: localDay, toByteOffset: 48, as: Int32.self)
        out.storeBytes(of: flags.rawValue, toByteOffset: 52, as: UInt32.self)
        var cursor = SpilledRow.headerSize
        put(category, repeating: previous.categoryValue, slot: 0, at: &cursor)
        put(unit, repeating: previous.unit, slot: 1, at: &cursor)
        put(raw, repeating: previous.unit, slot: 2, at: &cursor)
        put(rawUnit, repeating: previous.rawUnit, slot: 3, at: &cursor)
        previous.type = type; previous.source = source; previous.localDay = localDay
        previous.start = start; previous.rowID = rowID
        previous.categoryValue.set(category); previous.unit.set(unit); previous.rawUnit.set(rawUnit)
        return true
    }

    /// Writes a text of the row in `slot`: its length, and its bytes at `cursor`.
    @inline(__always) private func put(_ text: CompactRow.TextSource, repeating last: borrowing CompactRow.LastText, slot: Int,
                                       at cursor: inout Int) {
        let out = row.baseAddress!
        out.storeBytes(of: UInt32(text.count), toByteOffset: 56 + 4 * slot, as: UInt32.self)
        switch text {
        case .absent: break
        case .inRow(let bytes): if let from = bytes.baseAddress { (out + cursor).copyMemory(from: from, byteCount: bytes.count) }
        case .repeated(let count): if count > 0 { last.copy(to: out + cursor) }
        }
        cursor += text.count
    }

    /// Reads a row body, checking every length against its end.
    private struct Reader {
        let base: UnsafeRawPointer
        let count: Int
        var offset = 0

        var atEnd: Bool { offset == count }

        @inline(__always) mutating func byte() -> UInt8? {
            guard offset < count else { return nil }
            defer { offset += 1 }
            return base.load(fromByteOffset: offset, as: UInt8.self)
        }

        @inline(__always) mutating func unsigned() -> UInt64? {
            var n: UInt64 = 0, shift: UInt64 = 0
            while shift < 64, let b = byte() {
                n |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return n }
                shift += 7
            }
            return nil
        }

        @inline(__always) mutating func signed() -> Int64? { unsigned().map(CompactRow.unzigzag) }

        mutating func word() -> UInt64? {
            guard count - offset >= 8 else { return nil }
            defer { offset += 8 }
            return base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }

        /// Where a text of the row is; nil if the row is damaged (a repeat of a text the
        /// last row did not have, a length past the row's end).
        mutating func text(_ present: Bool, repeated: Bool, _ last: borrowing CompactRow.LastText) -> CompactRow.TextSource? {
            guard present else { return .absent }
            if repeated { return last.present ? .repeated(last.count) : nil }
            guard let length = unsigned(), let n = Int(exactly: length), n <= count - offset else { return nil }
            defer { offset += n }
            return .inRow(UnsafeRawBufferPointer(start: base + offset, count: n))
        }
    }
}
