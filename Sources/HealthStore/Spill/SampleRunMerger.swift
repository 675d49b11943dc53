import HealthCore
import SQLite

/// Merges the sorted runs of a load into one stream in (type, start, row id) order: the
/// order in which `SeriesReader` reads the store through its (type, start) index, with the
/// same rows and values. Types must be asked for in ascending order, each once.
package final class SampleRunMerger: SeriesSource {
    private var cursors: [RunCursor]
    /// The runs not yet read to their end (indexes into `cursors`) with their current rows'
    /// keys, as a min-heap by key. The keys are kept here: read through `cursors` at each
    /// comparison, every one retained and released a cursor (issue 62).
    private var heap: [(key: SpilledRow.Key, run: Int)] = []
    private var texts = RepeatedRowTexts()
    private var lastTypeAsked = Int64.min
    package let typeIDs: [Int64]

    /// `bufferBytes` per run: 64 KiB, as a four-year load leaves some 25 runs, merged while the
    /// index is built, the import's peak of memory (256 KiB a run added 5 MB to it; issue 62).
    package init(_ runs: SampleRuns, bufferBytes: Int = 64 << 10) throws {
        typeIDs = runs.typeIDs
        cursors = try runs.runs.map { try RunCursor($0, bufferBytes: bufferBytes) }
        for i in cursors.indices { if let key = cursors[i].key { push(key, i) } }
    }

    package func forEachBatch(typeID: Int64, starting range: Range<Int64>? = nil, batchSize: Int = 8192,
                             _ body: ([SeriesReader.Row]) throws -> Void) throws {
        guard typeID > lastTypeAsked else {
            throw HealthETLError.internal("sample runs read out of type order (type \(typeID) after \(lastTypeAsked))")
        }
        lastTypeAsked = typeID
        var batch: [SeriesReader.Row] = []
        batch.reserveCapacity(batchSize)
        while let (key, top) = heap.first, Int64(key.type) <= typeID {
            guard Int64(key.type) == typeID else {
                throw HealthETLError.internal("sample runs: the rows of type \(key.type) were skipped")
            }
            let cursor = cursors[top]
            let row = cursor.withRow { SpilledRow.decode($0, texts: &texts) }
            try advance(cursor)
            if let range, !range.contains(row.start) { continue }
            batch.append(row)
            if batch.count == batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// Moves the run at the heap's top (`cursor`) to its next row and restores the heap.
    private func advance(_ cursor: RunCursor) throws {
        try cursor.next()
        if let key = cursor.key {
            heap[0].key = key
        } else {
            let last = heap.removeLast()
            guard !heap.isEmpty else { return }
            heap[0] = last
        }
        siftDown(0)
    }

    private func less(_ a: Int, _ b: Int) -> Bool { heap[a].key < heap[b].key }

    private func push(_ key: SpilledRow.Key, _ index: Int) {
        heap.append((key, index))
        var i = heap.count - 1
        while i > 0, less(i, (i - 1) / 2) {
            heap.swapAt(i, (i - 1) / 2)
            i = (i - 1) / 2
        }
    }

    private func siftDown(_ start: Int) {
        var i = start
        while true {
            let (l, r) = (2 * i + 1, 2 * i + 2)
            var least = i
            if l < heap.count, less(l, least) { least = l }
            if r < heap.count, less(r, least) { least = r }
            if least == i { return }
            heap.swapAt(i, least)
            i = least
        }
    }
}

/// Reads one run row by row through a buffer, with the current row (decoded into the fixed
/// layout) and its key at hand.
private final class RunCursor {
    private let run: SampleRun
    private var buffer: UnsafeMutableRawBufferPointer
    /// The current row's encoded bytes start at `position` in the buffer and take `encodedLength`;
    /// the buffer holds bytes up to `filled`.
    private var position = 0
    private var encodedLength = 0
    private var filled = 0
    /// File offset of the buffer's first byte.
    private var bufferOffset = 0
    private var decoder = CompactRowDecoder()
    private(set) var key: SpilledRow.Key?

    init(_ run: SampleRun, bufferBytes: Int) throws {
        self.run = run
        buffer = .allocate(byteCount: max(bufferBytes, 16), alignment: 8)
        try load()
    }

    deinit {
        buffer.deallocate()
        decoder.deallocate()
    }

    func withRow<T>(_ body: (UnsafeRawPointer) -> T) -> T { body(UnsafeRawPointer(decoder.row.baseAddress!)) }

    func next() throws {
        position += encodedLength
        try load()
    }

    /// Reads and decodes the next row (refilling or growing the buffer), and its key.
    private func load() throws {
        key = nil
        encodedLength = 0
        let left = run.bytes - (bufferOffset + position)
        guard left > 0 else { return }
        try ensure(min(10, left))
        guard let length = CompactRowDecoder.length(at: buffer.baseAddress! + position, available: min(10, left)),
              length.prefix + length.body <= left else { throw damaged }
        try ensure(length.prefix + length.body)
        guard decoder.decode(buffer.baseAddress! + position + length.prefix, count: length.body) else { throw damaged }
        encodedLength = length.prefix + length.body
        key = SpilledRow.Key(decoder.row.baseAddress!)
    }

    private var damaged: HealthETLError { .internal("\(run.file.path): a sample run holds a damaged row") }

    /// Ensures `count` bytes from `position` are in the buffer.
    private func ensure(_ count: Int) throws {
        guard filled - position < count else { return }
        if count > buffer.count {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 8)
            larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[position..<filled]))
            buffer.deallocate()
            buffer = larger
        } else if position > 0 {
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + position, byteCount: filled - position)
        }
        bufferOffset += position
        filled -= position
        position = 0
        while filled < count {
            let n = try run.file.read(into: buffer.baseAddress! + filled, count: buffer.count - filled,
                                      at: bufferOffset + filled)
            guard n > 0 else { throw HealthETLError.internal("\(run.file.path): a sample run ended inside a row") }
            filled += n
        }
    }
}
