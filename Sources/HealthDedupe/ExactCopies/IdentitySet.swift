/// The set of sample identities a load has written: open addressing with linear probing
/// over a flat array of 64-bit identities. Identities are hashes already, so a multiply
/// spreads them over the table; no hasher runs per insert, unlike `Set<UInt64>`.
/// 0 marks an empty slot (the identity 0 is kept in a flag of its own).
///
/// Identities are random, so every insert lands on a random slot of a table of up to tens of
/// megabytes: a cache miss each, which took 80% of the sink's own time at 4 years of data.
/// `prefetch` touches the home slots of the next `prefetchGroup` identities first, in one pass
/// of independent loads the processor overlaps, so that their inserts find the slots in cache.
/// (A whole batch at once did not help: the rows' own work evicted the slots before use.)
///
/// Runs on the load thread, inside the store's sink (`SQLiteSink.write`, once per sample): the
/// sink is the one place that knows which rows were written, so a copy is dropped there before
/// its insert, however far apart in the file the two copies are. It holds no SQL, so it lives
/// with the other kinds of dedupe. `insert` and `prefetch` are `@inlinable`: the sink calls
/// them once a sample, across the module boundary, and they must compile into its loop. So the
/// type is `@_spi(Load) public`, not `package`: Swift does not inline a `package` function into
/// another module, `@inlinable` or not (tried with 6.3); the SPI keeps it out of sight unless a
/// file asks for it (`@_spi(Load) import HealthDedupe`, the sink and the tests).
@_spi(Load) public struct IdentitySet {
    @usableFromInline var slots: [UInt64]
    @usableFromInline var shift: UInt64
    @usableFromInline var hasZero = false
    /// The identities held (`count`), settable by the inlined `insert`.
    @usableFromInline var heldCount = 0
    public var count: Int { heldCount }
    /// How many identities `prefetch` takes at a time.
    public static let prefetchGroup = 64

    /// How many identities fit before the table grows.
    public var capacity: Int { slots.count * 7 / 10 }
    /// What `prefetch` read, kept so that its loads are not optimized away.
    @usableFromInline var touched: UInt64 = 0

    public init(minimumCapacity: Int = 0) {
        var size = 1024
        while size * 7 / 10 < minimumCapacity { size *= 2 }
        slots = Array(repeating: 0, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    /// Loads the home slot of each identity (see above).
    @inlinable public mutating func prefetch(_ identities: UnsafeBufferPointer<UInt64>) {
        var sum: UInt64 = 0
        let shift = shift
        slots.withUnsafeBufferPointer { table in
            for identity in identities { sum &+= table[Self.home(identity, shift: shift)] }
        }
        touched &+= sum
    }

    /// Adds `identity`; false if it was there already.
    @inlinable @inline(__always) public mutating func insert(_ identity: UInt64) -> Bool {
        if identity == 0 {
            defer { hasZero = true }
            if hasZero { return false }
            heldCount += 1
            return true
        }
        if (heldCount + 1) * 10 > slots.count * 7 { grow() }
        let inserted = slots.withUnsafeMutableBufferPointer { Self.place(identity, in: $0, shift: shift) }
        if inserted { heldCount += 1 }
        return inserted
    }

    /// Fibonacci hashing: the top bits of the product pick the home slot.
    @inlinable @inline(__always)
    static func place(_ identity: UInt64, in table: UnsafeMutableBufferPointer<UInt64>, shift: UInt64) -> Bool {
        let mask = table.count - 1
        var i = home(identity, shift: shift)
        while true {
            let slot = table[i]
            if slot == 0 { table[i] = identity; return true }
            if slot == identity { return false }
            i = (i + 1) & mask
        }
    }

    @inlinable @inline(__always) static func home(_ identity: UInt64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (identity &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Hands every identity held to `body`, in ascending order, then empties the set (its
    /// table keeps its size). Sorted in place, inside the table itself: a spill of a full table
    /// allocates nothing beside it.
    public mutating func drainSorted(_ body: (UnsafeBufferPointer<UInt64>) throws -> Void) rethrows {
        let hadZero = hasZero
        defer { hasZero = false; heldCount = 0 }
        try slots.withUnsafeMutableBufferPointer { table in
            // The nonzero identities to the front (the table always has a free slot, so the
            // zero identity fits behind them).
            var n = 0
            for i in table.indices where table[i] != 0 {
                table[n] = table[i]
                n += 1
            }
            if hadZero { table[n] = 0; n += 1 }
            var held = UnsafeMutableBufferPointer(rebasing: table[0..<n])
            held.sort()
            defer { table.update(repeating: 0) }
            try body(UnsafeBufferPointer(held))
        }
    }

    @usableFromInline mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        shift -= 1
        slots.withUnsafeMutableBufferPointer { table in
            for identity in old where identity != 0 { _ = Self.place(identity, in: table, shift: shift) }
        }
    }
}
