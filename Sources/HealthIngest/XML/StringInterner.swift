#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore

/// Maps repeated byte strings (type names, sources, units, metadata keys) to one shared
/// `String`, so a million `HKQuantityTypeIdentifierHeartRate` attributes cost one
/// allocation, not a million. Lookup hashes and compares bytes; a String is only made the
/// first time a value is seen, and is one whose copies are not reference counted
/// (`ImmortalText`).
///
/// Bounded: values that are not repetitive (a unique text per record) would make the table
/// grow with the input, so past `capacity` distinct entries new values are returned as
/// fresh Strings without being stored.
struct StringInterner {
    private var slots: [Int32]           // index into `entries`, -1 = empty
    private var entries: [(hash: UInt64, bytes: [UInt8], string: String)] = []
    private var mask: Int
    let capacity: Int

    init(capacity: Int = 200_000) {
        self.capacity = capacity
        slots = Array(repeating: -1, count: 1024)
        mask = 1023
    }

    var count: Int { entries.count }

    mutating func intern(_ span: ByteSpan) -> String {
        let hash = wordHash(span)
        var i = Int(truncatingIfNeeded: hash) & mask
        // The entries are read in place: a copy of one (`let entry = entries[k]`) retained and
        // released its bytes and its string on every lookup.
        let found: String? = entries.withUnsafeBufferPointer { entries in
            while true {
                let slot = slots[i]
                if slot < 0 { return nil }
                let entry = entries.baseAddress! + Int(slot)
                if entry.pointee.hash == hash && entry.pointee.bytes.count == span.count
                    && entry.pointee.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, span.start, span.count) == 0 }) {
                    return entry.pointee.string
                }
                i = (i + 1) & mask
            }
        }
        if let found { return found }
        let made = span.string
        guard entries.count < capacity else { return made }
        // Copies of a table's String are never reference counted where the platform allows.
        let string = ImmortalText.string(made) ?? made
        slots[i] = Int32(entries.count)
        entries.append((hash, Array(UnsafeBufferPointer(start: span.start, count: span.count)), string))
        if entries.count * 2 > slots.count { grow() }
        return string
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        mask = slots.count - 1
        for (index, entry) in entries.enumerated() {
            var i = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(index)
        }
    }
}

/// A hash of the bytes eight at a time (multiply and fold): device descriptions run to 150
/// bytes, and a byte-at-a-time hash of every one of them showed up in profiles. Only used
/// inside this table, never stored.
@inline(__always) private func wordHash(_ span: ByteSpan) -> UInt64 {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(span.count)
    var p = UnsafeRawPointer(span.start)
    var left = span.count
    while left >= 8 {
        h = (h ^ p.loadUnaligned(as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 29
        p += 8
        left -= 8
    }
    var tail: UInt64 = 0
    for k in 0..<left { tail |= UInt64(p.load(fromByteOffset: k, as: UInt8.self)) << (8 * UInt64(k)) }
    h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
    return h ^ (h >> 32)
}
