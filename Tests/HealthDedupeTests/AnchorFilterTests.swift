import XCTest
import HealthCore
@testable import HealthDedupe

/// The incremental run's first filter: a record created before its (type, source) anchor
/// minus the overlap window is known already; anything else goes on to the identity index.
final class AnchorFilterTests: XCTestCase {
    let steps = Anchors.Key(type: "HKQuantityTypeIdentifierStepCount", source: "Watch")
    let anchor = Timestamp(microseconds: 1_715_000_000_000_000)

    /// The cutoff is the anchor minus the overlap, in µs, fractions of a second included.
    func testTheCutoffIsTheAnchorMinusTheOverlap() {
        let filter = AnchorFilter(anchors: Anchors([steps: anchor]), overlapSeconds: 1.5)
        XCTAssertEqual(filter.cutoff(type: steps.type, source: steps.source), anchor.microseconds - 1_500_000)
        let none = AnchorFilter(anchors: Anchors([steps: anchor]), overlapSeconds: 0)
        XCTAssertEqual(none.cutoff(type: steps.type, source: steps.source), anchor.microseconds)
    }

    /// The anchor is per type *and* source: another source of the same type, or another type
    /// of the same source, has no cutoff (a new source's whole history must be read).
    func testAnAnchorCoversOnlyItsOwnTypeAndSource() {
        let filter = AnchorFilter(anchors: Anchors([steps: anchor]), overlapSeconds: 3600)
        XCTAssertNil(filter.cutoff(type: steps.type, source: "iPhone"))
        XCTAssertNil(filter.cutoff(type: "HKQuantityTypeIdentifierHeartRate", source: steps.source))
        XCTAssertTrue(Anchors().isEmpty)
        XCTAssertFalse(Anchors([steps: anchor]).isEmpty)
    }

    /// Workouts are known by the ids the store holds, nothing else.
    func testWorkoutsAreKnownByTheirStoreIDs() {
        let filter = AnchorFilter(anchors: Anchors(), overlapSeconds: 0, workouts: [7, 42])
        XCTAssertTrue(filter.knowsWorkout(42))
        XCTAssertFalse(filter.knowsWorkout(8))
        XCTAssertFalse(AnchorFilter(anchors: Anchors(), overlapSeconds: 0).knowsWorkout(42))
    }
}
