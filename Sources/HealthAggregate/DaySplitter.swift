import HealthCore


/// A merged amount that fell on one local clock hour (0–23) of one local day; `inRunning` is
/// the part of it that lies inside a running workout (used to split DistanceWalkingRunning
/// into walking and running).
package struct DayAmount: Sendable, Equatable {
    package var date: CivilDate
    package var hour: Int
    package var amount: Double
    package var inRunning: Double
    package init(date: CivilDate, hour: Int = 0, amount: Double, inRunning: Double = 0) {
        self.date = date; self.hour = hour; self.amount = amount; self.inRunning = inRunning
    }
}

/// The aggregate stage's first step for cumulative series: cuts merged pieces at local
/// midnights (DST days are 23 or 25 hours; the zone decides, never the printed clock), at
/// local clock hours (so HealthQL can sum merged amounts by hour) and at running-workout
/// bounds, pro rata by time.
package struct DaySplitter<Tag: Sendable>: StageHandler {
    package typealias InboundIn = [MergedPiece<Tag>]
    package typealias InboundOut = [DayAmount]

    private var calendar: LocalCalendar
    private let running: [Range<Int64>]
    private var runningIndex = 0
    private var out: [DayAmount] = []

    /// `running`: sorted, non-overlapping intervals (µs) of running workouts.
    package init(calendar: LocalCalendar, running: [Range<Int64>] = []) {
        self.calendar = calendar
        self.running = running
    }

    package mutating func handle(_ input: [MergedPiece<Tag>], emit: (consuming [DayAmount]) throws -> Void) throws {
        for piece in input { split(piece) }
        try emit(out)
        out.removeAll(keepingCapacity: true)
    }

    private mutating func split(_ piece: MergedPiece<Tag>) {
        let length = piece.end - piece.start
        if length <= 0 {
            let h = hourHolding(piece.start)
            out.append(DayAmount(date: h.date, hour: h.hour, amount: piece.amount,
                                 inRunning: runningOverlap(piece.start, piece.start + 1) > 0 ? piece.amount : 0))
            return
        }
        var from = piece.start
        while from < piece.end {
            let h = hourHolding(from)
            let to = min(piece.end, h.end)
            let share = piece.amount * Double(to - from) / Double(length)
            let run = running.isEmpty ? 0 : share * Double(runningOverlap(from, to)) / Double(to - from)
            out.append(DayAmount(date: h.date, hour: h.hour, amount: share, inRunning: run))
            from = to
        }
    }

    /// The local day and clock hour holding `t`, and where that hour ends (never past the
    /// day's end, so a DST day's repeated hour is two pieces of the same hour number).
    private mutating func hourHolding(_ t: Int64) -> (date: CivilDate, hour: Int, end: Int64) {
        let instant = Timestamp(microseconds: t)
        let d = calendar.day(containing: instant)
        let second = calendar.secondOfDay(instant)
        let wholeSecond = t.floorDivided(by: 1_000_000).quotient * 1_000_000
        let hourEnd = wholeSecond + (3600 - second % 3600) * 1_000_000
        return (d.date, Int(second / 3600), min(hourEnd, d.end.microseconds))
    }

    /// µs of `[from, to)` inside running intervals. Pieces arrive nearly in start order, so a
    /// cursor that only steps back when needed keeps this linear.
    private mutating func runningOverlap(_ from: Int64, _ to: Int64) -> Int64 {
        guard !running.isEmpty else { return 0 }
        while runningIndex > 0, running[runningIndex - 1].upperBound > from { runningIndex -= 1 }
        while runningIndex < running.count, running[runningIndex].upperBound <= from { runningIndex += 1 }
        var total: Int64 = 0
        var i = runningIndex
        while i < running.count, running[i].lowerBound < to {
            total += max(0, min(to, running[i].upperBound) - max(from, running[i].lowerBound))
            i += 1
        }
        return total
    }
}

/// Sorted, merged running intervals from workout spans.
package enum RunningIntervals {
    package static func union(_ spans: [Range<Int64>]) -> [Range<Int64>] {
        var out: [Range<Int64>] = []
        for s in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) where !s.isEmpty {
            if let last = out.last, s.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, s.upperBound)
            } else {
                out.append(s)
            }
        }
        return out
    }
}
