import Foundation
import XCTest
@testable import HealthCore

/// `localDate(of:)` keeps the last day's date: asked in any order (a stream of samples goes
/// forward, a merge of streams jumps back and forth), at home or abroad, it must give the date
/// a calendar that was never asked before gives.
final class LocalDateMemoTests: XCTestCase {
    private func t(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }

    func testTheLastDateIsReusedOnlyForItsOwnDay() {
        let la = "America/Los_Angeles", tokyo = "Asia/Tokyo"
        // Los Angeles, a week in Tokyo in February, home again.
        let evidence = (1...9).map { ZoneEvidence(instant: t("2025-02-0\($0)T22:00:00Z"), zone: tokyo) }
            + (12...15).map { ZoneEvidence(instant: t("2025-02-\($0)T15:00:00Z"), zone: la) }
            + (25...31).map { ZoneEvidence(instant: t("2025-01-\($0)T15:00:00Z"), zone: la) }
        let timeline = ZoneTimeline.build(evidence: evidence, home: la)
        XCTAssertFalse(timeline.isSingleZone)
        let makers: [() -> LocalCalendar] = [{ LocalCalendar(timeZone: TimeZone(identifier: la)!) },
                                             { LocalCalendar(timeline: timeline) }]
        let from = t("2025-01-20T00:00:00Z").microseconds, span: Int64 = 40 * 86_400 * 1_000_000
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int64) -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int64((state >> 11) % UInt64(bound))
        }
        for make in makers {
            var asked = make()
            var instant = from
            var days = Set<CivilDate>()
            for step in 0..<20_000 {
                // Mostly small steps forward (the same day again, the next day), sometimes a
                // jump anywhere in the forty days, sometimes one microsecond either side of a
                // midnight.
                switch next(10) {
                case 0: instant = from + next(span)
                case 1: instant = asked.startOfDay(asked.localDate(of: Timestamp(microseconds: instant))).microseconds - next(2)
                default: instant = min(from + span, instant + next(3 * 3_600_000_000))
                }
                let at = Timestamp(microseconds: instant)
                var fresh = make()
                let date = asked.localDate(of: at)
                XCTAssertEqual(date, fresh.localDate(of: at), "step \(step) at \(at.iso8601)")
                days.insert(date)
            }
            XCTAssertGreaterThan(days.count, 35)
        }
    }
}
