import HealthCore
import PrivateFiles
import SQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A copy of every stored sample, as the analytics read it, in sorted runs on disk: the sink
/// appends each row it inserts; every `runBytes` the rows are sorted by (type, start, row id)
/// (the order of the (type, start) index) and written out as one run. Merged afterwards
/// (`SampleRunMerger`), the runs give the analytics and the samples output their series in
/// index order while SQLite builds that index, instead of after it, through it.
///
/// Run files are unlinked as soon as they are created: whatever happens to the process, they
/// leave nothing behind. Rows are held field by field (`SpilledRow`), text as UTF-8, and
/// written each as its difference from the row before it (`CompactRow`).
package final class SampleRunWriter {
    /// Where a row held in memory is, and its sort key.
    private struct Entry {
        var key: SpilledRow.Key
        var offset: Int
        var length: Int
    }

    private let folder: String
    private let runBytes: Int
    /// The rows held, one after another: a block written in place (an array's appends, five a
    /// row, each checked its buffer for uniqueness and room; issue 62). It grows only for a
    /// row longer than the slack past `runBytes`.
    private var held: UnsafeMutableRawPointer
    private var heldCapacity: Int
    private var heldBytes = 0
    private var entries: [Entry] = []
    private var runs: [SampleRun] = []
    private var types: Set<Int64> = []
    private var lastType: Int64 = -1
    private var encoder = CompactRowEncoder()

    /// Runs go to files in `folder`; `runBytes` of encoded rows are sorted in memory at a time.
    /// 8 MiB: with 16 the rows and their entries (40 bytes a row) held 27 MB of the load's peak
    /// at four years; twice the runs cost the merge one more comparison a row (issue 62).
    package init(folder: String, runBytes: Int = 8 << 20) {
        self.folder = folder
        self.runBytes = max(runBytes, SpilledRow.headerSize)
        heldCapacity = self.runBytes + (64 << 10)
        held = .allocate(byteCount: heldCapacity, alignment: 8)
    }

    deinit {
        encoder.deallocate()
        held.deallocate()
    }

    /// Appends one stored row (the columns `SeriesReader` reads, plus its type and row id).
    package func append(type: Int64, rowID: Int64, source: Int64, start: Int64, end: Int64, created: Int64?,
                       localDay: Int, value: Double?, unit: String?, rawValue: String?, rawUnit: String?,
                       categoryValue: String?, userEntered: Bool) throws {
        guard let type32 = Int32(exactly: type), let source32 = Int32(exactly: source), let day32 = Int32(exactly: localDay)
        else { throw HealthETLError.internal("a sample's ids are out of the spill's range") }
        if type != lastType { types.insert(type); lastType = type }
        let offset = heldBytes
        let length = SpilledRow.length(unit: unit, rawValue: rawValue, rawUnit: rawUnit, categoryValue: categoryValue)
        if offset + length > heldCapacity { grow(to: offset + length) }
        SpilledRow.write(to: held + offset, type: type32, rowID: rowID, source: source32, start: start, end: end,
                         created: created, localDay: day32, value: value, unit: unit, rawValue: rawValue,
                         rawUnit: rawUnit, categoryValue: categoryValue, userEntered: userEntered)
        heldBytes += length
        entries.append(Entry(key: SpilledRow.Key(type: type32, start: start, rowID: rowID), offset: offset, length: length))
        if heldBytes >= runBytes { try spill() }
    }

    /// Writes the last run; the runs are then ready to merge.
    package func finish() throws -> SampleRuns {
        if !entries.isEmpty { try spill() }
        held.deallocate()
        (held, heldCapacity) = (.allocate(byteCount: 0, alignment: 8), 0)
        entries = []
        return SampleRuns(runs: runs, typeIDs: types.sorted())
    }

    /// Sorts the rows held and writes them out as one run.
    private func spill() throws {
        // Rows come type by type and nearly in time order: the sort mostly finds runs in place.
        entries.sort { $0.key < $1.key }
        let file = try SpillFile(path: folder + "/sample-run-\(getpid())-\(runs.count)")
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        var written = 0
        encoder.reset()
        for entry in entries {
            encoder.append(held + entry.offset, to: &out)
            if out.count >= 1 << 20 {
                try file.append(out)
                written += out.count
                out.removeAll(keepingCapacity: true)
            }
        }
        try file.append(out)
        written += out.count
        runs.append(SampleRun(file: file, bytes: written, rows: entries.count))
        heldBytes = 0
        entries.removeAll(keepingCapacity: true)
    }

    /// Room for at least `bytes` held bytes, the rows so far kept.
    private func grow(to bytes: Int) {
        let capacity = max(bytes, 2 * heldCapacity)
        let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        larger.copyMemory(from: held, byteCount: heldBytes)
        held.deallocate()
        (held, heldCapacity) = (larger, capacity)
    }
}

/// The sorted runs of one load, and the types they hold (ascending).
package struct SampleRuns: @unchecked Sendable {
    // Unchecked: handed from the sink's thread to the merging one, never shared.
    let runs: [SampleRun]
    package let typeIDs: [Int64]
    package var rows: Int { runs.reduce(0) { $0 + $1.rows } }
}

/// One run: an unlinked file of rows sorted by (type, start, row id), in the compact form.
struct SampleRun {
    let file: SpillFile
    /// The file's length.
    let bytes: Int
    let rows: Int
}
