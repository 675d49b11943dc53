import PrivateFiles

/// One run of identities: an unlinked file of ascending 64-bit identities, with every
/// `fenceStride`-th one kept in memory to find the block to read. Written and read on the load
/// thread, by `BoundedIdentitySet` (a lookup is rare: only where the Bloom filter says "may be").
@usableFromInline final class IdentityRun {
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
