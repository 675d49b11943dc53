/// Time series between the dedupe and aggregate stages.

/// One sample of a cumulative series as the merge sees it: an interval, an amount spread
/// evenly over it, the rank of its source (0 = best) and a payload for the next stage.
public struct MergeSample<Tag: Sendable>: Sendable {
    public var start: Int64   // µs since 1970
    public var end: Int64
    public var value: Double
    public var rank: Int
    public var tag: Tag
    public init(start: Int64, end: Int64, value: Double, rank: Int, tag: Tag) {
        self.start = start; self.end = end; self.value = value; self.rank = rank; self.tag = tag
    }
}

/// What counts after the merge: the part `[start, end)` of one sample, with its share of the
/// value. The amount is spread evenly over the piece, so cutting it further is pro rata.
public struct MergedPiece<Tag: Sendable>: Sendable {
    public var start: Int64
    public var end: Int64
    public var amount: Double
    public var tag: Tag
    public init(start: Int64, end: Int64, amount: Double, tag: Tag) {
        self.start = start; self.end = end; self.amount = amount; self.tag = tag
    }
}

