import XCTest
@testable import HealthDedupe

/// A workout recorded twice (issue 44): the same activity overlapping at least half of the
/// shorter is one workout; the copy is the lower-priority source's.
final class WorkoutCopiesTests: XCTestCase {
    let watch = SourcePriority.Candidate(name: "Alex’s Apple Watch", deviceModel: "Watch", userEntered: false)
    let strava = SourcePriority.Candidate(name: "Strava", deviceModel: nil, userEntered: false)
    let zwift = SourcePriority.Candidate(name: "Zwift", deviceModel: nil, userEntered: false)

    func span(_ id: Int64, _ source: SourcePriority.Candidate, _ fromMinute: Int64, _ toMinute: Int64,
              _ activity: String = "HKWorkoutActivityTypeCycling") -> WorkoutCopies.Span {
        WorkoutCopies.Span(id: id, activity: activity, source: source, start: fromMinute * 60_000_000, end: toMinute * 60_000_000)
    }

    /// Strava's ride starts two minutes later and stops one later than the Watch's: a copy of
    /// the Watch's, whichever id or order it comes in.
    func testTheLowerPrioritySourceIsTheCopy() {
        let spans = [span(1, strava, 2, 61), span(2, watch, 0, 60)]
        XCTAssertEqual(WorkoutCopies.find(spans, priority: SourcePriority()), [1: 2])
        XCTAssertEqual(WorkoutCopies.find(spans.reversed(), priority: SourcePriority()), [1: 2])
        XCTAssertEqual(WorkoutCopies.find(spans, priority: SourcePriority(patterns: ["Strava"])), [2: 1])
    }

    /// The overlap rule at its edge: a 40-minute ride overlapping a 60-minute one by exactly
    /// 20 minutes (half the shorter) is a copy; by 19 it is another ride.
    func testHalfTheShorterWorkoutIsTheBoundary() {
        XCTAssertEqual(WorkoutCopies.find([span(1, watch, 0, 60), span(2, strava, 40, 80)], priority: SourcePriority()), [2: 1])
        XCTAssertEqual(WorkoutCopies.find([span(1, watch, 0, 60), span(2, strava, 41, 81)], priority: SourcePriority()), [:])
        XCTAssertEqual(WorkoutCopies.find([span(1, watch, 0, 60), span(2, strava, 60, 90)], priority: SourcePriority()), [:],
                       "touching is no overlap")
    }

    /// Another activity at the same time is not a copy (a walk to the bike, then the ride).
    func testAnotherActivityIsNeverACopy() {
        let spans = [span(1, watch, 0, 60), span(2, strava, 0, 60, "HKWorkoutActivityTypeWalking")]
        XCTAssertEqual(WorkoutCopies.find(spans, priority: SourcePriority()), [:])
    }

    /// Three recordings of one ride: both lower ones copy the best one, not each other; and a
    /// copy is matched only against kept workouts, so a chain (A–B overlap, B–C overlap, A–C
    /// not) leaves C kept when B is a copy of A.
    func testCopiesPointAtTheKeptWorkout() {
        let three = [span(1, zwift, 1, 59), span(2, strava, 0, 61), span(3, watch, 0, 60)]
        XCTAssertEqual(WorkoutCopies.find(three, priority: SourcePriority()), [1: 3, 2: 3])
        let chain = [span(1, watch, 0, 60), span(2, strava, 30, 90), span(3, zwift, 70, 130)]
        XCTAssertEqual(WorkoutCopies.find(chain, priority: SourcePriority()), [2: 1])
    }
}
