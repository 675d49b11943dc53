/// FNV-1a over bytes: the same value in every run and on every machine, unlike Swift's
/// `Hasher`, which is seeded per process. Used for identities stored on disk.
public struct StableHasher: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine(_ string: String) {
        var s = string
        s.withUTF8 { for b in $0 { value = (value ^ UInt64(b)) &* 0x100_0000_01b3 } }
        combineSeparator()
    }

    public mutating func combine(_ string: String?) {
        if let string { combine(string) } else { combine(UInt64.max) }
    }

    public mutating func combine(_ v: Int64) { combine(UInt64(bitPattern: v)) }

    public mutating func combine(_ v: UInt64) {
        var x = v
        for _ in 0..<8 {
            value = (value ^ (x & 0xFF)) &* 0x100_0000_01b3
            x >>= 8
        }
    }

    mutating func combineSeparator() { value = (value ^ 0x1F) &* 0x100_0000_01b3 }
}
