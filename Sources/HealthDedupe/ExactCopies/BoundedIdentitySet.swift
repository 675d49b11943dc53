import PrivateFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sink's duplicate filter in bounded memory, and still exact: the identities written
/// most recently in an `IdentitySet` of at most `recentLimit` (8 MB of table by default);
/// when it is full, its identities go to a sorted run on disk, and a Bloom filter of the
/// runs' identities (2 bytes an identity) says which identities may be in a run. Only those
/// are looked up on disk, in the runs: a Bloom filter never misses, so every copy of a
/// record written before is found, however far apart in the file the two are; a false
/// positive costs a read of each run (4 KB), never a dropped sample.
///
/// Up to `recentLimit` identities (a year of a heavy user's records) it is the plain table,
/// as before. Beyond, what grows is the Bloom filter's 2 bytes an identity, against the
/// table's 8 bytes at 70% load rounded up to a power of two (32 MB at four years: issue 35).
/// Copies in exports are mostly near each other (FORMAT.md: up to 8 copies; in the one real
/// export with copies, at most 657 records apart), but nothing here relies on it.
///
/// Runs on the load thread, as the sink's `seenSamples` (see `IdentitySet`); its runs go beside
/// the store (`SpillFile`, unlinked at once), like the sink's sorted sample runs. `insert` and
/// `prefetch` are `@inlinable`, for the sink's per-sample loop (hence `@_spi(Load) public`, as
/// `IdentitySet`); a lookup on disk is not.
@_spi(Load) public struct BoundedIdentitySet {
    @usableFromInline var recent: IdentitySet
    public let recentLimit: Int
    private let folder: String
    public let expected: Int
    @usableFromInline var runs: [IdentityRun] = []
    /// The runs' identities (empty until the first run); when it holds half again what it was
    /// sized for, it joins `fullBlooms` and a new one twice its size takes the next runs, so the
    /// false positives stay rare however far the estimate of the load's size was off.
    @usableFromInline var bloom = IdentityBloom(expected: 0)
    @usableFromInline var fullBlooms: [IdentityBloom] = []
    /// Identities looked up on disk (the Bloom filters said they may be in a run).
    public private(set) var diskLookups = 0
    /// What `prefetch` read, kept so that its loads are not optimized away.
    @usableFromInline var touched: UInt64 = 0
    /// The block a run's lookup reads, kept between lookups.
    private var block: [UInt64] = []

    /// The table's largest size by default: 2^20 slots (8 MB), 734 k identities.
    public static let defaultRecentLimit = (1 << 20) * 7 / 10

    /// `expected`: the identities the load expects in all (sizes the table, and the Bloom
    /// filter once there is a run); `folder`: where runs go (unlinked at once).
    public init(expected: Int, folder: String, recentLimit: Int = defaultRecentLimit) {
        self.recentLimit = max(recentLimit, 1)
        self.expected = expected
        self.folder = folder
        recent = IdentitySet(minimumCapacity: min(expected, self.recentLimit))
    }

    /// An empty set like this one (its runs closed, so their files go), for `expected` identities.
    public func emptied(expecting expected: Int) -> BoundedIdentitySet {
        BoundedIdentitySet(expected: expected, folder: folder, recentLimit: recentLimit)
    }

    /// Identities held in memory, and runs on disk.
    public var recentCount: Int { recent.count }
    public var runCount: Int { runs.count }

    /// Loads the home slots of each identity (see `IdentitySet.prefetch`), and their Bloom blocks.
    @inlinable public mutating func prefetch(_ identities: UnsafeBufferPointer<UInt64>) {
        recent.prefetch(identities)
        if !runs.isEmpty { touched &+= bloom.prefetch(identities) }
    }

    /// Adds `identity`; false if it was there already (in memory or in a run).
    @inlinable @inline(__always) public mutating func insert(_ identity: UInt64) throws -> Bool {
        guard recent.insert(identity) else { return false }
        // A copy of a run's identity stays in the table too (its next copy is found there),
        // so the table's count is checked either way.
        let new = try runs.isEmpty || !mayBeInRuns(identity) || !inRuns(identity)
        if recent.count >= recentLimit { try spill() }
        return new
    }

    @inlinable @inline(__always) func mayBeInRuns(_ identity: UInt64) -> Bool {
        bloom.mayContain(identity) || (!fullBlooms.isEmpty && fullBlooms.contains { $0.mayContain(identity) })
    }

    /// Whether a run holds `identity` (a Bloom filter said it may): read from disk.
    @usableFromInline @inline(never)
    mutating func inRuns(_ identity: UInt64) throws -> Bool {
        diskLookups += 1
        for run in runs {
            if try run.contains(identity, block: &block) { return true }
        }
        return false
    }

    /// Writes the table's identities out as one sorted run, and adds them to the Bloom filter.
    @usableFromInline mutating func spill() throws {
        // It holds what the table does not: the identities beyond the table's, expected.
        if runs.isEmpty {
            bloom = IdentityBloom(expected: max(expected - recentLimit, recentLimit))
        } else if 2 * (bloom.count + recent.count) > 3 * bloom.capacity {
            // Filled half again beyond its size, it still gives about 0.6% false positives.
            let size = 2 * bloom.capacity
            fullBlooms.append(bloom)
            bloom = IdentityBloom(expected: size)
        }
        let path = folder + "/identity-run-\(getpid())-\(runs.count)"
        var run: IdentityRun?
        // Out of `self` while the table drains (one access to `self` at a time).
        var filter = bloom
        bloom = IdentityBloom(expected: 0)
        defer { bloom = filter }
        try recent.drainSorted { sorted in
            for identity in sorted { filter.insert(identity) }
            run = try IdentityRun(sorted, path: path)
        }
        if let run { runs.append(run) }
    }
}
