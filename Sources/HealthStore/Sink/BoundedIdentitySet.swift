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
struct BoundedIdentitySet {
    private var recent: IdentitySet
    let recentLimit: Int
    private let folder: String
    let expected: Int
    private var runs: [IdentityRun] = []
    /// The runs' identities (empty until the first run); when it holds half again what it was
    /// sized for, it joins `fullBlooms` and a new one twice its size takes the next runs, so the
    /// false positives stay rare however far the estimate of the load's size was off.
    private var bloom = IdentityBloom(expected: 0)
    private var fullBlooms: [IdentityBloom] = []
    /// Identities looked up on disk (the Bloom filters said they may be in a run).
    private(set) var diskLookups = 0
    /// What `prefetch` read, kept so that its loads are not optimized away.
    private var touched: UInt64 = 0
    /// The block a run's lookup reads, kept between lookups.
    private var block: [UInt64] = []

    /// The table's largest size by default: 2^20 slots (8 MB), 734 k identities.
    static let defaultRecentLimit = (1 << 20) * 7 / 10

    /// `expected`: the identities the load expects in all (sizes the table, and the Bloom
    /// filter once there is a run); `folder`: where runs go (unlinked at once).
    init(expected: Int, folder: String, recentLimit: Int = defaultRecentLimit) {
        self.recentLimit = max(recentLimit, 1)
        self.expected = expected
        self.folder = folder
        recent = IdentitySet(minimumCapacity: min(expected, self.recentLimit))
    }

    /// An empty set like this one (its runs closed, so their files go), for `expected` identities.
    func emptied(expecting expected: Int) -> BoundedIdentitySet {
        BoundedIdentitySet(expected: expected, folder: folder, recentLimit: recentLimit)
    }

    /// Identities held in memory, and runs on disk.
    var recentCount: Int { recent.count }
    var runCount: Int { runs.count }

    /// Loads the home slots of each identity (see `IdentitySet.prefetch`), and their Bloom blocks.
    mutating func prefetch(_ identities: UnsafeBufferPointer<UInt64>) {
        recent.prefetch(identities)
        if !runs.isEmpty { touched &+= bloom.prefetch(identities) }
    }

    /// Adds `identity`; false if it was there already (in memory or in a run).
    @inline(__always) mutating func insert(_ identity: UInt64) throws -> Bool {
        guard recent.insert(identity) else { return false }
        // A copy of a run's identity stays in the table too (its next copy is found there),
        // so the table's count is checked either way.
        let new = try runs.isEmpty || !mayBeInRuns(identity) || !inRuns(identity)
        if recent.count >= recentLimit { try spill() }
        return new
    }

    @inline(__always) private func mayBeInRuns(_ identity: UInt64) -> Bool {
        bloom.mayContain(identity) || (!fullBlooms.isEmpty && fullBlooms.contains { $0.mayContain(identity) })
    }

    /// Whether a run holds `identity` (a Bloom filter said it may): read from disk.
    @inline(never)
    private mutating func inRuns(_ identity: UInt64) throws -> Bool {
        diskLookups += 1
        for run in runs {
            if try run.contains(identity, block: &block) { return true }
        }
        return false
    }

    /// Writes the table's identities out as one sorted run, and adds them to the Bloom filter.
    private mutating func spill() throws {
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

/// One run of identities: an unlinked file of ascending 64-bit identities, with every
/// `fenceStride`-th one kept in memory to find the block to read.
final class IdentityRun {
    private let file: SpillFile
    private let count: Int
    private let fences: [UInt64]
    private let last: UInt64
    static let fenceStride = 512

    init(_ sorted: UnsafeBufferPointer<UInt64>, path: String) throws {
        file = try SpillFile(path: path)
        count = sorted.count
        last = sorted.last ?? 0
        fences = stride(from: 0, to: sorted.count, by: Self.fenceStride).map { sorted[$0] }
        var chunk: [UInt8] = []
        let chunkIdentities = 32 << 10
        chunk.reserveCapacity(chunkIdentities * 8)
        for start in stride(from: 0, to: sorted.count, by: chunkIdentities) {
            chunk.removeAll(keepingCapacity: true)
            let part = UnsafeBufferPointer(rebasing: sorted[start..<min(start + chunkIdentities, sorted.count)])
            chunk.append(contentsOf: UnsafeRawBufferPointer(part))
            try file.append(chunk)
        }
    }

    /// Whether the run holds `identity`: one block of `fenceStride` identities read.
    func contains(_ identity: UInt64, block: inout [UInt64]) throws -> Bool {
        guard let first = fences.first, identity >= first, identity <= last else { return false }
        // The last fence not above the identity starts its block.
        var low = 0, high = fences.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if fences[middle] <= identity { low = middle } else { high = middle }
        }
        let start = low * Self.fenceStride
        let n = min(Self.fenceStride, count - start)
        if block.count < n { block = Array(repeating: 0, count: Self.fenceStride) }
        let read = try block.withUnsafeMutableBytes { bytes in
            try file.readFully(into: bytes.baseAddress!, count: n * 8, at: start * 8)
        }
        guard read == n * 8 else { throw FileError(.unexpected, "\(file.path): a temporary file is shorter than written") }
        var l = 0, h = n
        while l < h {
            let m = (l + h) / 2
            if block[m] < identity { l = m + 1 } else { h = m }
        }
        return l < n && block[l] == identity
    }
}

/// A blocked Bloom filter of identities: the 7 bits of an identity lie in one 64-byte block,
/// so a check or an insert touches one cache line. 16 bits an identity: about 0.1% false
/// positives at the size it was made for (more beyond it, never a miss). Identities are
/// hashes already; multiplies spread them.
struct IdentityBloom {
    private var words: [UInt64]
    private let blocks: UInt64
    /// The identities it is sized for, and those inserted.
    let capacity: Int
    private(set) var count = 0

    /// Sized for `expected` identities at 16 bits each.
    init(expected: Int) {
        let blocks = (max(expected, 0) + 31) / 32   // 512 bits a block
        self.blocks = UInt64(blocks)
        capacity = blocks * 32
        words = Array(repeating: 0, count: blocks * 8)
    }

    /// The block: the high half of the mixed identity times the number of blocks (any
    /// number of blocks, not only powers of two).
    @inline(__always) private func block(_ identity: UInt64) -> Int {
        Int(truncatingIfNeeded: (identity &* 0x9E37_79B9_7F4A_7C15).multipliedFullWidth(by: blocks).high)
    }

    /// The bits within the block: seven 9-bit slices of a second mix.
    @inline(__always) private static func bits(_ identity: UInt64) -> UInt64 {
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

    @inline(__always) func mayContain(_ identity: UInt64) -> Bool {
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
    func prefetch(_ identities: UnsafeBufferPointer<UInt64>) -> UInt64 {
        words.withUnsafeBufferPointer { w in
            var sum: UInt64 = 0
            for identity in identities { sum &+= w[block(identity) * 8] }
            return sum
        }
    }
}
