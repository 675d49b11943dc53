import XCTest
@testable import HealthCore

/// `ZoneTimeline.changedDays(to:)` (issue 48): the days a nightly run recomputes when the
/// timeline moves. Instants in UTC; LA is UTC−8, Tokyo UTC+9.
final class ZoneTimelineChangesTests: XCTestCase {
    private let la = "America/Los_Angeles", tokyo = "Asia/Tokyo"

    private func t(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }
    private func date(_ iso: String) -> CivilDate { CivilDate(iso: iso)! }

    /// Evidence at `clock` (UTC) on days `days` of February 2025 (January when `january`).
    private func nights(_ zone: String, _ days: ClosedRange<Int>, january: Bool = false, clock: String) -> [ZoneEvidence] {
        days.map { ZoneEvidence(instant: t(String(format: "2025-%02d-%02dT%@Z", january ? 1 : 2, $0, clock)), zone: zone) }
    }

    /// LA wake-ups 25–31 Jan, Tokyo 1–9 Feb (`lastTokyo`), LA 12–15 Feb (none when the trip is not over).
    private func trip(lastTokyo: Int = 9, home: Bool = true) -> ZoneTimeline {
        let evidence = nights(la, 25...31, january: true, clock: "15:00:00") + nights(tokyo, 1...lastTokyo, clock: "22:00:00")
            + (home ? nights(la, 12...15, clock: "15:00:00") : [])
        return ZoneTimeline.build(evidence: evidence, home: la)
    }

    private var atHome: ZoneTimeline { ZoneTimeline.build(evidence: [], home: la) }

    /// Every day of January – March whose bounds, zone or travel mark differ, found by asking both calendars.
    private func differing(_ a: ZoneTimeline, _ b: ZoneTimeline) -> Set<CivilDate> {
        var x = LocalCalendar(timeline: a), y = LocalCalendar(timeline: b)
        var days: Set<CivilDate> = []
        var d = date("2025-01-01")
        while d < date("2025-04-01") {
            if x.startOfDay(d) != y.startOfDay(d) || x.startOfDay(d.adding(days: 1)) != y.startOfDay(d.adding(days: 1))
                || x.zoneName(on: d) != y.zoneName(on: d) || x.isTravelDay(d) != y.isTravelDay(d) { days.insert(d) }
            d = d.adding(days: 1)
        }
        return days
    }

    func testTheSameTimelineOrOneZoneChangesNothing() throws {
        let same = try XCTUnwrap(trip().changedDays(to: trip()))
        XCTAssertEqual(same.days, [])
        XCTAssertEqual(same.instants, [])
        XCTAssertEqual(try XCTUnwrap(atHome.changedDays(to: ZoneTimeline.build(evidence: nights(la, 1...5, clock: "15:00:00"), home: la))).days, [])
    }

    func testATripMovesItsDaysFromTheFirstWindowToTheLast() throws {
        let moved = try XCTUnwrap(atHome.changedDays(to: trip()))
        // The outbound window begins 31 Jan 15:00Z (07:00 PST, 31 Jan); the way back ends 12 Feb
        // 15:00Z (07:00 PST, 12 Feb): 31 Jan – 12 Feb, and no other day.
        XCTAssertEqual(moved.days, Set((0...12).map { date("2025-01-31").adding(days: $0) }))
        XCTAssertEqual(moved.days, differing(atHome, trip()))
        // From LA's 31 Jan 00:00 (08:00Z) to LA's 13 Feb 00:00 (08:00Z): every row whose day may move.
        XCTAssertEqual(moved.instants, [t("2025-01-31T08:00:00Z").microseconds..<t("2025-02-13T08:00:00Z").microseconds])
    }

    func testALongerTripMovesOnlyTheDaysAfterWhatWasKnown() throws {
        // During the trip: Tokyo until 48 hours after the last night known (5 Feb), then LA.
        let during = trip(lastTokyo: 5, home: false), after = trip()
        let moved = try XCTUnwrap(during.changedDays(to: after))
        XCTAssertEqual(moved.days, differing(during, after))
        XCTAssertFalse(moved.days.isEmpty)
        // The days up to the last night known stay as they were, the outbound ones too.
        XCTAssertTrue(moved.days.allSatisfy { $0 >= date("2025-02-05") && $0 <= date("2025-02-12") }, "\(moved.days.sorted())")
        XCTAssertGreaterThanOrEqual(moved.instants.first?.lowerBound ?? 0, t("2025-02-04T15:00:00Z").microseconds)
    }

    /// Two trips a month apart: two runs of days, a range of instants each (a nightly run then
    /// dates again only the rows of the trips, not those of the month at home between them).
    func testTwoTripsAreTwoRangesEachAsAloneWouldBe() throws {
        let second = nights(la, 1...5, clock: "15:00:00").map { ZoneEvidence(instant: Timestamp(microseconds: $0.instant.microseconds + 40 * 86_400_000_000), zone: $0.zone) }
            + nights("Europe/Paris", 15...20, clock: "06:00:00").map { ZoneEvidence(instant: Timestamp(microseconds: $0.instant.microseconds + 28 * 86_400_000_000), zone: $0.zone) }
        let first = nights(la, 25...31, january: true, clock: "15:00:00") + nights(tokyo, 1...9, clock: "22:00:00")
            + nights(la, 12...15, clock: "15:00:00")
        let both = try XCTUnwrap(atHome.changedDays(to: ZoneTimeline.build(evidence: first + second, home: la)))
        let one = try XCTUnwrap(atHome.changedDays(to: ZoneTimeline.build(evidence: first, home: la)))
        let other = try XCTUnwrap(atHome.changedDays(to: ZoneTimeline.build(evidence: second, home: la)))
        XCTAssertEqual(both.instants.count, 2)
        XCTAssertEqual(both.instants, one.instants + other.instants)
        XCTAssertEqual(both.days, one.days.union(other.days))
    }

    func testAnotherHomeMovesEveryDay() {
        XCTAssertNil(atHome.changedDays(to: ZoneTimeline.build(evidence: [], home: tokyo)))
    }
}
