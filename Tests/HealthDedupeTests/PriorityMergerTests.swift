import XCTest
import HealthCore
@_spi(Analytics) @testable import HealthDedupe

/// The merge's slices themselves (which source won each, and its pro-rata share), below the
/// day totals HealthAggregateTests checks: time is cut at every sample boundary, the best rank
/// present takes a slice with its value spread by time, lower ranks only fill the gaps.
final class PriorityMergerTests: XCTestCase {
    /// µs of a minute past an arbitrary origin.
    func minute(_ m: Int64) -> Int64 { 1_715_000_000_000_000 + m * 60_000_000 }

    func sample(_ from: Int64, _ to: Int64, _ value: Double, rank: Int, _ tag: String) -> MergeSample<String> {
        MergeSample(start: minute(from), end: minute(to), value: value, rank: rank, tag: tag)
    }

    /// Runs the merger over `batches` (each sorted; together sorted) and returns every piece.
    func merge(_ batches: [[MergeSample<String>]]) throws -> [MergedPiece<String>] {
        var merger = PriorityMerger<String>()
        var pieces: [MergedPiece<String>] = []
        for batch in batches { try merger.handle(batch) { pieces += $0 } }
        try merger.finish { pieces += $0 }
        return pieces
    }

    func describe(_ pieces: [MergedPiece<String>]) -> [String] {
        pieces.map { "\(($0.start - minute(0)) / 60_000_000)-\(($0.end - minute(0)) / 60_000_000) \($0.tag)" }
    }

    /// Watch 0–30 min, 300 steps (10 a minute); phone 10–50, 400 steps (10 a minute).
    /// By hand: 0–10 watch 100, 10–30 watch 200 (the phone's 200 there do not count),
    /// 30–50 phone 200 (its 400 × 20/40). Total 500, not 700.
    func testOverlapGoesToTheBetterRankAndTheRestProRata() throws {
        let pieces = try merge([[sample(0, 30, 300, rank: 0, "watch"), sample(10, 50, 400, rank: 1, "phone")]])
        XCTAssertEqual(describe(pieces), ["0-10 watch", "10-30 watch", "30-50 phone"])
        let amounts = pieces.map(\.amount)
        for (got, want) in zip(amounts, [100.0, 200, 200]) { XCTAssertEqual(got, want, accuracy: 1e-9) }
        XCTAssertEqual(amounts.reduce(0, +), 500, accuracy: 1e-9)
    }

    /// The phone (rank 1) covers 0–30 with 300; the watch (rank 0) 0–10 and 20–30. The phone
    /// counts only in the watch's gap, 10–20: 300 × 10/30 = 100.
    func testALowerRankFillsOnlyTheGap() throws {
        let pieces = try merge([[sample(0, 30, 300, rank: 1, "phone"), sample(0, 10, 50, rank: 0, "watch"),
                                 sample(20, 30, 70, rank: 0, "watch")]])
        XCTAssertEqual(describe(pieces), ["0-10 watch", "10-20 phone", "20-30 watch"])
        XCTAssertEqual(pieces[1].amount, 100, accuracy: 1e-9)
        XCTAssertEqual(pieces.map(\.amount).reduce(0, +), 220, accuracy: 1e-9)
    }

    /// Two samples of one source overlapping (a re-synced rewrite) count once in their common
    /// slice, at the higher rate: a 0–20 sample of 200 (10/min) and a 10–20 one of 150 (15/min)
    /// give 0–10 → 100 and 10–20 → 150, not 100 + 150 + 100.
    func testOneSourceOverlappingItselfCountsOnceAtTheHigherRate() throws {
        let pieces = try merge([[sample(0, 20, 200, rank: 0, "a"), sample(10, 20, 150, rank: 0, "b")]])
        XCTAssertEqual(describe(pieces), ["0-10 a", "10-20 b"])
        XCTAssertEqual(pieces.map(\.amount).reduce(0, +), 250, accuracy: 1e-9)
    }

    /// An instant (end == start) counts whole unless a better rank covers its moment; a worse
    /// rank covering it does not hide it.
    func testAnInstantCountsUnlessABetterRankCoversIt() throws {
        let covered = try merge([[sample(0, 10, 100, rank: 0, "watch"), sample(5, 5, 7, rank: 1, "scale")]])
        XCTAssertFalse(covered.contains { $0.tag == "scale" })
        let shown = try merge([[sample(0, 10, 100, rank: 2, "app"), sample(5, 5, 7, rank: 1, "scale")]])
        XCTAssertEqual(shown.filter { $0.tag == "scale" }.map(\.amount), [7])
        XCTAssertEqual(shown.map(\.amount).reduce(0, +), 107, accuracy: 1e-9)
    }

    /// The sweep carries across batches: the same samples cut into batches anywhere give the
    /// same pieces as one batch (a sample still open at a batch's end is not cut there).
    func testBatchBoundariesDoNotChangeThePieces() throws {
        let samples = [sample(0, 30, 300, rank: 1, "phone"), sample(5, 12, 70, rank: 0, "watch"),
                       sample(8, 40, 64, rank: 2, "app"), sample(20, 25, 9, rank: 0, "watch")]
        let whole = try merge([samples])
        for cut in 1..<samples.count {
            let split = try merge([Array(samples[..<cut]), Array(samples[cut...])])
            XCTAssertEqual(describe(split), describe(whole), "cut at \(cut)")
            XCTAssertEqual(split.map(\.amount), whole.map(\.amount), "cut at \(cut)")
        }
    }

    func testOutOfOrderInputIsAnError() {
        var merger = PriorityMerger<String>()
        XCTAssertThrowsError(try merger.handle([sample(60, 120, 1, rank: 1, "later"),
                                                sample(0, 120, 1, rank: 1, "earlier")]) { _ in })
    }
}
