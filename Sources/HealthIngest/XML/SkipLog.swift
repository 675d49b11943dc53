import Synchronization

/// Input bytes and records `KnownRecordSkipper` dropped, by output offset. An entry at output
/// `o` counts for a parser offset strictly after `o` (the parser at `o` has not gone past the
/// dropped element).
///
/// The skipper notes on the read thread while the parser asks on the parse thread: the
/// parser only asks about bytes it has been handed, and those were filtered, and their drops
/// noted, before they were handed over. Entries hold running totals, so an answer does not
/// depend on whether two entries were merged.
final class SkipLog: Sendable {
    private struct Entries {
        var list: [(output: Int64, bytes: Int64, records: Int)] = []
        var head = 0
        var settled: (bytes: Int64, records: Int) = (0, 0)
        var totalBytes: Int64 = 0
        var totalRecords = 0
    }
    private let entries = Mutex(Entries())

    /// Records and bytes dropped so far.
    var totalRecords: Int { entries.withLock { $0.totalRecords } }
    var totalBytes: Int64 { entries.withLock { $0.totalBytes } }

    /// A dropped element: its bytes, its output offset, and the last output offset the parser
    /// may ask about before it (`mergeAfter`: if the entry before is at or after it, no
    /// question can fall between the two, so they become one).
    struct Drop {
        var bytes: Int
        var output: Int64
        var mergeAfter: Int64
    }

    /// The drops of one filtered piece, in order (one lock for all of them).
    func note(_ drops: [Drop]) {
        guard !drops.isEmpty else { return }
        entries.withLock { e in
            for drop in drops {
                e.totalBytes += Int64(drop.bytes)
                e.totalRecords += 1
                if e.head < e.list.count, e.list[e.list.count - 1].output >= drop.mergeAfter {
                    e.list[e.list.count - 1] = (drop.output, e.totalBytes, e.totalRecords)
                } else {
                    e.list.append((drop.output, e.totalBytes, e.totalRecords))
                }
            }
        }
    }

    /// Bytes and records dropped before output offset `offset` (offsets asked for only grow).
    func before(_ offset: Int64) -> (bytes: Int64, records: Int) {
        entries.withLock { e in
            while e.head < e.list.count, e.list[e.head].output < offset {
                e.settled = (e.list[e.head].bytes, e.list[e.head].records)
                e.head += 1
            }
            if e.head == e.list.count {
                e.list.removeAll(keepingCapacity: true)
                e.head = 0
            } else if e.head > 1024 {
                e.list.removeFirst(e.head)
                e.head = 0
            }
            return e.settled
        }
    }
}
