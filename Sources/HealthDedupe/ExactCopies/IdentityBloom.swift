/// A blocked Bloom filter of identities: the 7 bits of an identity lie in one 64-byte block,
/// so a check or an insert touches one cache line. 16 bits an identity: about 0.1% false
/// positives at the size it was made for (more beyond it, never a miss). Identities are
/// hashes already; multiplies spread them. Checked on the load thread, for each sample the
/// sink's `BoundedIdentitySet` does not hold in memory once it has runs on disk (inlined there).
@usableFromInline struct IdentityBloom {
    @usableFromInline var words: [UInt64]
    @usableFromInline let blocks: UInt64
    /// The identities it is sized for, and those inserted.
    let capacity: Int
    private(set) var count = 0

    /// Sized for `expected` identities at 16 bits each.
    @usableFromInline init(expected: Int) {
        let blocks = (max(expected, 0) + 31) / 32   // 512 bits a block
        self.blocks = UInt64(blocks)
        capacity = blocks * 32
        words = Array(repeating: 0, count: blocks * 8)
    }

    /// The block: the high half of the mixed identity times the number of blocks (any
    /// number of blocks, not only powers of two).
    @inlinable @inline(__always) func block(_ identity: UInt64) -> Int {
        Int(truncatingIfNeeded: (identity &* 0x9E37_79B9_7F4A_7C15).multipliedFullWidth(by: blocks).high)
    }

    /// The bits within the block: seven 9-bit slices of a second mix.
    @inlinable @inline(__always) static func bits(_ identity: UInt64) -> UInt64 {
        (identity ^ (identity >> 29)) &* 0xBF58_476D_1CE4_E5B9
    }

    mutating func insert(_ identity: UInt64) {
        count += 1
        let base = block(identity) * 8
        var h = Self.bits(identity)
        words.withUnsafeMutableBufferPointer { w in
            for _ in 0..<7 {
                let bit = Int(truncatingIfNeeded: h & 511)
                w[base + (bit >> 6)] |= 1 << UInt64(bit & 63)
                h >>= 9
            }
        }
    }

    @inlinable @inline(__always) func mayContain(_ identity: UInt64) -> Bool {
        let base = block(identity) * 8
        var h = Self.bits(identity)
        return words.withUnsafeBufferPointer { w in
            for _ in 0..<7 {
                let bit = Int(truncatingIfNeeded: h & 511)
                if w[base + (bit >> 6)] & (1 << UInt64(bit & 63)) == 0 { return false }
                h >>= 9
            }
            return true
        }
    }

    /// Touches the blocks of `identities` (see `IdentitySet.prefetch`).
    @inlinable func prefetch(_ identities: UnsafeBufferPointer<UInt64>) -> UInt64 {
        words.withUnsafeBufferPointer { w in
            var sum: UInt64 = 0
            for identity in identities { sum &+= w[block(identity) * 8] }
            return sum
        }
    }
}
