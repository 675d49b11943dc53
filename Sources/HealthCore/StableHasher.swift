/// FNV-1a over bytes: the same value in every run and on every machine, unlike Swift's
/// `Hasher`, which is seeded per process. Used for identities stored on disk.
public struct StableHasher: Sendable {
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325
    public var value: UInt64 { state }

    public init() {}

    /// The bytes as they are, with no separator (inlinable: the parser's interner hashes
    /// every repeated attribute value with it).
    @inlinable public mutating func combine(bytes: UnsafeBufferPointer<UInt8>) {
        for b in bytes { state = (state ^ UInt64(b)) &* 0x100_0000_01b3 }
    }

    public mutating func combine(_ string: String) {
        // Read in place (native strings are contiguous UTF-8); `withUTF8` needs a mutable
        // copy, a retain and a release per string.
        if string.utf8.withContiguousStorageIfAvailable({ combine(bytes: $0) }) == nil {
            var s = string
            s.withUTF8 { combine(bytes: $0) }
        }
        combineSeparator()
    }

    public mutating func combine(_ string: String?) {
        if let string { combine(string) } else { combine(UInt64.max) }
    }

    public mutating func combine(_ v: Int64) { combine(UInt64(bitPattern: v)) }

    public mutating func combine(_ v: UInt64) {
        var x = v
        for _ in 0..<8 {
            state = (state ^ (x & 0xFF)) &* 0x100_0000_01b3
            x >>= 8
        }
    }

    mutating func combineSeparator() { state = (state ^ 0x1F) &* 0x100_0000_01b3 }
}
