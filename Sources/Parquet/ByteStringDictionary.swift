#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The distinct values of a dictionary-encoded string column chunk, in first-seen order,
/// found by byte content without making a `String` per lookup.
///
/// Entries live back to back in one byte buffer; an open-addressing table (linear probing,
/// power-of-two size, at most half full) maps a hash to the entry index. The last entry found
/// is checked first, since exports repeat the same type/source/unit in long runs.
struct ByteStringDictionary {
    private(set) var bytes: [UInt8] = []
    /// Entry `i` is `bytes[offsets[i] ..< offsets[i + 1]]`.
    private(set) var offsets: [Int] = [0]
    private var hashes: [UInt64] = []
    /// Allocated on the first lookup (most columns never use their dictionary).
    private var slots: [Int32] = []
    private var lastFound: Int32 = -1

    var count: Int { offsets.count - 1 }
    var byteCount: Int { bytes.count }

    /// Empties the dictionary, keeping its storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        offsets.append(0)
        hashes.removeAll(keepingCapacity: true)
        for i in slots.indices { slots[i] = -1 }
        lastFound = -1
    }

    /// The index of `key`, adding it if it is new and the dictionary stays within
    /// `maxEntries` entries and `maxBytes` bytes; nil when it would not.
    mutating func index(of key: UnsafeRawBufferPointer, maxEntries: Int, maxBytes: Int) -> UInt32? {
        if lastFound >= 0 && entryEquals(Int(lastFound), key) { return UInt32(lastFound) }
        if slots.isEmpty { slots = Array(repeating: -1, count: 1024) }
        let h = Self.hash(key)
        let mask = slots.count - 1
        var s = Int(truncatingIfNeeded: h) & mask
        while true {
            let e = slots[s]
            if e < 0 { break }
            if hashes[Int(e)] == h && entryEquals(Int(e), key) {
                lastFound = e
                return UInt32(e)
            }
            s = (s &+ 1) & mask
        }
        guard count < maxEntries, bytes.count + key.count <= maxBytes else { return nil }
        let e = Int32(count)
        bytes.append(contentsOf: key)
        offsets.append(bytes.count)
        hashes.append(h)
        slots[s] = e
        lastFound = e
        if count * 2 > slots.count { grow() }
        return UInt32(e)
    }

    /// Removes the entry added last (a failed row added it). Emptying its slot cannot break
    /// a probe chain: every other entry was placed before it, when that slot was still empty.
    mutating func removeLastEntry() {
        guard count > 0 else { return }
        let e = Int32(count - 1)
        let mask = slots.count - 1
        var s = Int(truncatingIfNeeded: hashes[Int(e)]) & mask
        while slots[s] != e { s = (s &+ 1) & mask }
        slots[s] = -1
        hashes.removeLast()
        offsets.removeLast()
        bytes.removeSubrange(offsets[offsets.count - 1]...)
        lastFound = -1
    }

    /// Calls `body` with the bytes of entry `i`.
    @inline(__always)
    func withEntry<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let start = offsets[i], end = offsets[i + 1]
        return try bytes.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[start..<end]))
        }
    }

    @inline(__always)
    private func entryEquals(_ i: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        let start = offsets[i]
        guard offsets[i + 1] - start == key.count else { return false }
        if key.count == 0 { return true }
        return bytes.withUnsafeBytes { all in memcmp(all.baseAddress! + start, key.baseAddress!, key.count) == 0 }
    }

    private mutating func grow() {
        let size = slots.count * 2
        slots = Array(repeating: -1, count: size)
        let mask = size - 1
        for e in 0..<count {
            var s = Int(truncatingIfNeeded: hashes[e]) & mask
            while slots[s] >= 0 { s = (s &+ 1) & mask }
            slots[s] = Int32(e)
        }
    }

    /// A fast 64-bit hash: 8-byte words mixed by multiplication, then a final avalanche.
    static func hash(_ key: UnsafeRawBufferPointer) -> UInt64 {
        let n = key.count
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ (UInt64(n) &* 0x9E37_79B9_7F4A_7C15)
        var i = 0
        while i &+ 8 <= n {
            let w = key.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ w) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
            i &+= 8
        }
        if i < n {
            var t: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                t |= UInt64(key[i]) << shift
                shift &+= 8
                i &+= 1
            }
            h = (h ^ t) &* 0x9E37_79B9_7F4A_7C15
        }
        h ^= h >> 32
        h = h &* 0xD6E8_FEB8_6659_FD93
        h ^= h >> 32
        return h
    }
}
