import Synchronization

/// Input bytes, records and other top-level elements (known workouts) `KnownRecordSkipper`
/// dropped, by output offset. An entry at output `o` counts for a parser offset strictly
/// after `o` (the parser at `o` has not gone past the dropped element).
///
/// The skipper notes on the read thread while the parser asks on the parse thread: the
/// parser only asks about bytes it has been handed, and those were filtered, and their drops
/// noted, before they were handed over. Entries hold running totals, so an answer does not
/// depend on whether two entries were merged.
final class SkipLog: Sendable {
    /// What was dropped before a point: bytes, records, and top-level elements (the records
    /// and the known workouts).
    struct Dropped: Equatable {
        var bytes: Int64 = 0
        var records = 0
        var elements = 0
    }

    private struct Entries {
        /// Running totals by output offset.
        var list: [(output: Int64, dropped: Dropped)] = []
        var head = 0
        var settled = Dropped()
        var total = Dropped()
    }
    private let entries = Mutex(Entries())

    /// Everything dropped so far.
    var total: Dropped { entries.withLock { $0.total } }
    var totalRecords: Int { total.records }
    var totalBytes: Int64 { total.bytes }

    /// A dropped element: its bytes, its output offset, and the last output offset the parser
    /// may ask about before it (`mergeAfter`: if the entry before is at or after it, no
    /// question can fall between the two, so they become one).
    struct Drop {
        var bytes: Int
        var output: Int64
        var mergeAfter: Int64
        /// A record (false: another element, a known workout).
        var isRecord = true
    }

    /// The drops of one filtered piece, in order (one lock for all of them).
    func note(_ drops: [Drop]) {
        guard !drops.isEmpty else { return }
        entries.withLock { e in
            for drop in drops {
                e.total.bytes += Int64(drop.bytes)
                if drop.isRecord { e.total.records += 1 }
                e.total.elements += 1
                let entry = (drop.output, e.total)
                if e.head < e.list.count, e.list[e.list.count - 1].output >= drop.mergeAfter {
                    e.list[e.list.count - 1] = entry
                } else {
                    e.list.append(entry)
                }
            }
        }
    }

    /// What was dropped before output offset `offset` (offsets asked for only grow).
    func before(_ offset: Int64) -> Dropped {
        entries.withLock { e in
            while e.head < e.list.count, e.list[e.head].output < offset {
                e.settled = e.list[e.head].dropped
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
