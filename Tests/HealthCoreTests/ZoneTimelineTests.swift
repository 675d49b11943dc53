import Foundation
import XCTest
@testable import HealthCore
import TestSupport

/// The zone timeline (issue 48) and the calendar that follows it. Instants are written in UTC;
/// the comments give the local clocks (Los Angeles is UTC−8 in winter, Tokyo UTC+9).
final class ZoneTimelineTests: XCTestCase {
    private let la = "America/Los_Angeles", tokyo = "Asia/Tokyo"

    private func t(_ iso: String, file: StaticString = #filePath, line: UInt = #line) -> Timestamp {
        guard let instant = Timestamp(iso8601: iso) else {
            XCTFail("bad instant \(iso)", file: file, line: line)
            return Timestamp(microseconds: 0)
        }
        return instant
    }

    private func date(_ iso: String) -> CivilDate { CivilDate(iso: iso)! }

    private static let hour: Int64 = 3_600_000_000

    /// The stretches after the first (home, from the beginning of time) as (start, zone), and
    /// the windows as (from, to), instants in UTC.
    private func assertTimeline(_ timeline: ZoneTimeline, _ switches: [(String, String)], windows: [(String, String)],
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(timeline.stretches, [.init(start: nil, zone: timeline.home)] + switches.map { .init(start: t($0.0), zone: $0.1) },
                       file: file, line: line)
        XCTAssertEqual(timeline.windows, windows.map { .init(from: t($0.0), to: t($0.1)) }, file: file, line: line)
    }

    /// Evidence at `clock` (UTC) on each day of `days`.
    private func nightly(_ zone: String, _ days: ClosedRange<Int>, month: String, clock: String) -> [ZoneEvidence] {
        days.map { ZoneEvidence(instant: t("2025-\(month)-\($0 < 10 ? "0" : "")\($0)T\(clock)Z"), zone: zone) }
    }

    /// LA sleep records waking at 07:00 PST (15:00Z) 25–31 Jan, Tokyo ones waking at 07:00 JST
    /// (22:00Z the day before) 2–10 Feb, LA again 12–15 Feb.
    private var laTokyoTrip: [ZoneEvidence] {
        nightly(la, 25...31, month: "01", clock: "15:00:00") + nightly(tokyo, 1...9, month: "02", clock: "22:00:00")
            + nightly(la, 12...15, month: "02", clock: "15:00:00")
    }

    // MARK: - The timeline

    func testTripTimelineSwitchesAtTheMidpointsWithWindowsBetweenTheEvidence() {
        let timeline = ZoneTimeline.build(evidence: laTokyoTrip, home: la)
        // Last LA wake-up 31 Jan 15:00Z, first Tokyo one 1 Feb 22:00Z: 31 hours, midpoint
        // 1 Feb 06:30Z. Last Tokyo 9 Feb 22:00Z, first LA again 12 Feb 15:00Z: midpoint 11 Feb 06:30Z.
        assertTimeline(timeline, [("2025-02-01T06:30:00Z", tokyo), ("2025-02-11T06:30:00Z", la)],
                       windows: [("2025-01-31T15:00:00Z", "2025-02-01T22:00:00Z"), ("2025-02-09T22:00:00Z", "2025-02-12T15:00:00Z")])
        XCTAssertEqual(timeline.zones, [la, tokyo])
        XCTAssertFalse(timeline.isSingleZone)
        XCTAssertEqual(timeline.zone(at: t("2025-02-01T06:29:59Z")), la)
        XCTAssertEqual(timeline.zone(at: t("2025-02-01T06:30:00Z")), tokyo)
        XCTAssertEqual(timeline.zone(at: t("2025-02-11T06:29:59Z")), tokyo)
        XCTAssertEqual(timeline.zone(at: t("2025-02-11T06:30:00Z")), la)
        XCTAssertEqual(timeline.zone(at: t("1960-01-01T00:00:00Z")), la)
    }

    func testNoEvidenceOrOnlyHomeEvidenceIsOneStretchWithoutWindows() {
        for evidence in [[], nightly(la, 1...20, month: "03", clock: "15:00:00")] {
            let timeline = ZoneTimeline.build(evidence: evidence, home: la)
            XCTAssertEqual(timeline.stretches, [.init(start: nil, zone: la)])
            XCTAssertEqual(timeline.windows, [])
            XCTAssertTrue(timeline.isSingleZone)
            XCTAssertEqual(timeline.zones, [la])
            XCTAssertEqual(timeline.home, la)
        }
    }

    func testUnknownZonesAreIgnoredAndOrderAndDuplicatesDoNotMatter() {
        let reference = ZoneTimeline.build(evidence: laTokyoTrip, home: la)
        var generator = SplitMix64(seed: 48)
        var noisy = laTokyoTrip + laTokyoTrip.prefix(5) + laTokyoTrip.suffix(3)
        // Unknown names, one of them right inside the trip: it must not split the Tokyo run.
        noisy += [ZoneEvidence(instant: t("2025-02-05T00:00:00Z"), zone: "Mars/Olympus_Mons"),
                  ZoneEvidence(instant: t("2025-01-01T00:00:00Z"), zone: "not a zone"),
                  ZoneEvidence(instant: t("2025-03-01T00:00:00Z"), zone: "")]
        for _ in 0..<5 {
            noisy.shuffle(using: &generator)
            XCTAssertEqual(ZoneTimeline.build(evidence: noisy, home: la), reference)
        }
        // The unknown name alone is no evidence at all.
        XCTAssertTrue(ZoneTimeline.build(evidence: [ZoneEvidence(instant: t("2025-02-05T00:00:00Z"), zone: "Mars/Olympus_Mons")],
                                         home: la).isSingleZone)
    }

    func testSparseWorkoutsReachFortyEightHoursAndHomeBeforeAndAfter() {
        // Tokyo workouts at 18:00 JST on trip days 2 and 6 (2 and 6 Feb, 09:00Z); none at home.
        let evidence = [ZoneEvidence(instant: t("2025-02-06T09:00:00Z"), zone: tokyo),
                        ZoneEvidence(instant: t("2025-02-02T09:00:00Z"), zone: tokyo)]
        let timeline = ZoneTimeline.build(evidence: evidence, home: la)
        assertTimeline(timeline, [("2025-01-31T09:00:00Z", tokyo), ("2025-02-08T09:00:00Z", la)],
                       windows: [("2025-01-31T09:00:00Z", "2025-02-02T09:00:00Z"), ("2025-02-06T09:00:00Z", "2025-02-08T09:00:00Z")])
        // A reach of 12 hours.
        let short = ZoneTimeline.build(evidence: evidence, home: la, reach: 12 * 3600)
        XCTAssertEqual(short.stretches.map(\.start), [nil, t("2025-02-01T21:00:00Z"), t("2025-02-06T21:00:00Z")])
        // A reach of 0: the evidence itself bounds the trip, and there is no window.
        let none = ZoneTimeline.build(evidence: evidence, home: la, reach: 0)
        XCTAssertEqual(none.stretches.map(\.start), [nil, t("2025-02-02T09:00:00Z"), t("2025-02-06T09:00:00Z")])
        XCTAssertEqual(none.windows, [])
    }

    func testTwoTripsAwayFarApartGoHomeBetweenAndNearOnesSwitchAtTheMidpoint() {
        let paris = "Europe/Paris", seoul = "Asia/Seoul"
        let evidence = [ZoneEvidence(instant: t("2025-02-02T09:00:00Z"), zone: tokyo),
                        ZoneEvidence(instant: t("2025-02-06T09:00:00Z"), zone: tokyo),
                        // 48 hours later in Seoul: ≤ 2·reach, the midpoint.
                        ZoneEvidence(instant: t("2025-02-08T09:00:00Z"), zone: seoul),
                        // 12 days later in Paris: home between, reach from each side.
                        ZoneEvidence(instant: t("2025-02-20T12:00:00Z"), zone: paris)]
        let timeline = ZoneTimeline.build(evidence: evidence, home: la)
        assertTimeline(timeline, [("2025-01-31T09:00:00Z", tokyo), ("2025-02-07T09:00:00Z", seoul), ("2025-02-10T09:00:00Z", la),
                                  ("2025-02-18T12:00:00Z", paris), ("2025-02-22T12:00:00Z", la)],
                       windows: [("2025-01-31T09:00:00Z", "2025-02-02T09:00:00Z"), ("2025-02-06T09:00:00Z", "2025-02-08T09:00:00Z"),
                                 ("2025-02-08T09:00:00Z", "2025-02-10T09:00:00Z"), ("2025-02-18T12:00:00Z", "2025-02-20T12:00:00Z"),
                                 ("2025-02-20T12:00:00Z", "2025-02-22T12:00:00Z")])
        XCTAssertEqual(timeline.zones, [la, tokyo, seoul, paris])
        // Exactly 2·reach apart is still the midpoint; one second more is the long-gap rule.
        let edge = [ZoneEvidence(instant: t("2025-02-02T00:00:00Z"), zone: tokyo),
                    ZoneEvidence(instant: t("2025-02-06T00:00:00Z"), zone: seoul)]
        XCTAssertEqual(ZoneTimeline.build(evidence: edge, home: la).stretches.map(\.zone), [la, tokyo, seoul, la])
        let beyond = [edge[0], ZoneEvidence(instant: t("2025-02-06T00:00:01Z"), zone: seoul)]
        XCTAssertEqual(ZoneTimeline.build(evidence: beyond, home: la).stretches.map(\.zone), [la, tokyo, la, seoul, la])
    }

    /// Two trips to Tokyo a year apart, with no evidence between them, are two trips with home
    /// between them, not a year in Tokyo; home evidence far apart stays one home run.
    func testTheSameZoneAwayFarApartIsTwoTrips() {
        let evidence = [ZoneEvidence(instant: t("2025-02-02T09:00:00Z"), zone: tokyo),
                        ZoneEvidence(instant: t("2025-02-04T09:00:00Z"), zone: tokyo),
                        ZoneEvidence(instant: t("2026-02-02T09:00:00Z"), zone: tokyo)]
        assertTimeline(ZoneTimeline.build(evidence: evidence, home: la),
                       [("2025-01-31T09:00:00Z", tokyo), ("2025-02-06T09:00:00Z", la),
                        ("2026-01-31T09:00:00Z", tokyo), ("2026-02-04T09:00:00Z", la)],
                       windows: [("2025-01-31T09:00:00Z", "2025-02-02T09:00:00Z"), ("2025-02-04T09:00:00Z", "2025-02-06T09:00:00Z"),
                                 ("2026-01-31T09:00:00Z", "2026-02-02T09:00:00Z"), ("2026-02-02T09:00:00Z", "2026-02-04T09:00:00Z")])
        // Within 14 days it is one stay.
        let stay = [evidence[0], ZoneEvidence(instant: t("2025-02-16T09:00:00Z"), zone: tokyo)]
        XCTAssertEqual(ZoneTimeline.build(evidence: stay, home: la).stretches.map(\.zone), [la, tokyo, la])
        // Home evidence a year apart: one stretch.
        let home = [ZoneEvidence(instant: t("2025-02-02T09:00:00Z"), zone: la), ZoneEvidence(instant: t("2026-02-02T09:00:00Z"), zone: la)]
        XCTAssertTrue(ZoneTimeline.build(evidence: home, home: la).isSingleZone)
    }

    func testSwitchesAreWholeSecondsAndSwitchesAtOneInstantLeaveNoEmptyStretch() {
        // Midpoint of 10:00:00 and 10:00:03 is 10:00:01.5: rounded down.
        let odd = [ZoneEvidence(instant: t("2025-02-02T10:00:00Z"), zone: la),
                   ZoneEvidence(instant: t("2025-02-02T10:00:03Z"), zone: tokyo)]
        XCTAssertEqual(ZoneTimeline.build(evidence: odd, home: la).stretches.map(\.start),
                       [nil, t("2025-02-02T10:00:01Z"), t("2025-02-04T10:00:03Z")])
        // Three zones at one instant (sorted by name: Seoul, Shanghai, Tokyo): Shanghai's
        // stretch would have no length, and so would the window between them.
        let x = t("2025-02-02T10:00:00Z")
        let same = ["Asia/Tokyo", "Asia/Seoul", "Asia/Shanghai"].map { ZoneEvidence(instant: x, zone: $0) }
        let timeline = ZoneTimeline.build(evidence: same, home: la)
        assertTimeline(timeline, [("2025-01-31T10:00:00Z", "Asia/Seoul"), ("2025-02-02T10:00:00Z", tokyo), ("2025-02-04T10:00:00Z", la)],
                       windows: [("2025-01-31T10:00:00Z", "2025-02-02T10:00:00Z"), ("2025-02-02T10:00:00Z", "2025-02-04T10:00:00Z")])
        // With no reach, a single instant is no trip at all.
        XCTAssertTrue(ZoneTimeline.build(evidence: same, home: la, reach: 0).isSingleZone)
    }

    // MARK: - One zone: exactly today's calendar

    func testSingleZoneTimelineIsTheOneZoneCalendarAcrossDSTChanges() {
        let zone = TimeZone(identifier: la)!
        let timelines = [ZoneTimeline.build(evidence: [], home: la),
                         ZoneTimeline.build(evidence: nightly(la, 1...28, month: "03", clock: "15:00:00"), home: la)]
        for timeline in timelines {
            XCTAssertTrue(timeline.isSingleZone)
            var plain = LocalCalendar(timeZone: zone)
            var followed = LocalCalendar(timeline: timeline)
            XCTAssertEqual(followed.timeZone, zone)
            // Every 37 minutes from 1 March to 10 November 2025 (DST from 9 March to 2 November).
            var instant = t("2025-03-01T00:00:00Z")
            var checked = 0
            while instant < t("2025-11-10T00:00:00Z") {
                let a = plain.day(containing: instant), b = followed.day(containing: instant)
                XCTAssertEqual(a.date, b.date); XCTAssertEqual(a.start, b.start); XCTAssertEqual(a.end, b.end)
                XCTAssertEqual(plain.secondOfDay(instant), followed.secondOfDay(instant))
                XCTAssertEqual(plain.offset(at: instant), followed.offset(at: instant))
                XCTAssertEqual(plain.localDate(of: instant), followed.localDate(of: instant))
                let second = plain.secondOfDay(instant) / 60 * 60
                XCTAssertEqual(plain.instant(on: a.date, secondOfDay: second), followed.instant(on: a.date, secondOfDay: second))
                XCTAssertFalse(followed.isTravelDay(a.date))
                XCTAssertEqual(followed.zoneName(on: a.date), la)
                instant = Timestamp(microseconds: instant.microseconds + 37 * 60_000_000)
                checked += 1
            }
            XCTAssertGreaterThan(checked, 9_000)
            // The DST days themselves: 23 and 25 hours.
            var day = followed.day(containing: t("2025-03-09T12:00:00Z"))
            XCTAssertEqual(day.end.microseconds - day.start.microseconds, 23 * Self.hour)
            day = followed.day(containing: t("2025-11-02T12:00:00Z"))
            XCTAssertEqual(day.end.microseconds - day.start.microseconds, 25 * Self.hour)
        }
    }

    // MARK: - The trip, day by day

    func testEastwardTripDaysAreTokyoDaysAndTheFlightDaysAreTravelDays() {
        var calendar = LocalCalendar(timeline: ZoneTimeline.build(evidence: laTokyoTrip, home: la))
        XCTAssertEqual(calendar.timeZone.identifier, la)
        // 31 Jan is an LA day cut short at the switch (22:30 PST); 1 Feb begins at the switch
        // (15:30 JST) and ends at Tokyo's midnight; nothing is skipped (Tokyo is 17 hours ahead).
        var day = calendar.day(containing: t("2025-01-31T12:00:00Z"))
        XCTAssertEqual(day.date, date("2025-01-31"))
        XCTAssertEqual(day.start, t("2025-01-31T08:00:00Z"))
        XCTAssertEqual(day.end, t("2025-02-01T06:30:00Z"))
        day = calendar.day(containing: t("2025-02-01T06:30:00Z"))
        XCTAssertEqual(day.date, date("2025-02-01"))
        XCTAssertEqual(day.start, t("2025-02-01T06:30:00Z"))
        XCTAssertEqual(day.end, t("2025-02-01T15:00:00Z"))
        XCTAssertEqual(calendar.secondOfDay(t("2025-02-01T06:30:00Z")), 15 * 3600 + 1800)
        XCTAssertEqual(calendar.offset(at: t("2025-02-01T06:29:59Z")), -8 * 3600)
        XCTAssertEqual(calendar.offset(at: t("2025-02-01T06:30:00Z")), 9 * 3600)
        // A clock time before the switch on 1 Feb gives the switch; one after it, Tokyo's clock.
        XCTAssertEqual(calendar.instant(on: date("2025-02-01"), secondOfDay: 0), t("2025-02-01T06:30:00Z"))
        XCTAssertEqual(calendar.instant(on: date("2025-02-01"), secondOfDay: 20 * 3600), t("2025-02-01T11:00:00Z"))
        // 31 Jan at 23:00 LA never came: the day's end.
        XCTAssertEqual(calendar.instant(on: date("2025-01-31"), secondOfDay: 23 * 3600), t("2025-02-01T06:30:00Z"))
        XCTAssertEqual(calendar.instant(on: date("2025-01-31"), secondOfDay: 22 * 3600), t("2025-02-01T06:00:00Z"))

        // A Tokyo night, 3 Feb 23:00 – 4 Feb 07:00 JST: it begins on 3 Feb and its wake-up day
        // (how nights are dated) is 4 Feb, a Tokyo day from 00:00 JST.
        let sleepStart = t("2025-02-03T14:00:00Z"), sleepEnd = t("2025-02-03T22:00:00Z")
        XCTAssertEqual(calendar.localDate(of: sleepStart), date("2025-02-03"))
        XCTAssertEqual(calendar.localDate(of: Timestamp(microseconds: sleepEnd.microseconds - 1)), date("2025-02-04"))
        XCTAssertEqual(calendar.secondOfDay(sleepStart), 23 * 3600)
        day = calendar.day(containing: sleepEnd)
        XCTAssertEqual(day.date, date("2025-02-04"))
        XCTAssertEqual(day.start, t("2025-02-03T15:00:00Z"))
        XCTAssertEqual(day.end, t("2025-02-04T15:00:00Z"))
        XCTAssertEqual(calendar.secondOfDay(sleepEnd), 7 * 3600)

        // 5 Feb: 24 hours from 00:00 JST.
        day = calendar.day(containing: t("2025-02-05T03:00:00Z"))
        XCTAssertEqual(day.date, date("2025-02-05"))
        XCTAssertEqual(day.start, t("2025-02-04T15:00:00Z"))
        XCTAssertEqual(day.end.microseconds - day.start.microseconds, 24 * Self.hour)
        XCTAssertEqual(calendar.secondOfDay(day.start), 0)
        XCTAssertEqual(calendar.startOfDay(date("2025-02-05")), t("2025-02-04T15:00:00Z"))
        XCTAssertEqual(calendar.instant(on: date("2025-02-05"), secondOfDay: 9 * 3600), t("2025-02-05T00:00:00Z"))
        XCTAssertEqual(calendar.zoneName(on: date("2025-02-05")), tokyo)

        // Travel days: those holding an instant of [31 Jan 15:00Z, 1 Feb 22:00Z].
        let travel = (25...31).map { date("2025-01-\($0)") } + (1...15).map { date("2025-02-\($0 < 10 ? "0" : "")\($0)") }
        XCTAssertEqual(travel.filter { calendar.isTravelDay($0) },
                       ["2025-01-31", "2025-02-01", "2025-02-02", "2025-02-10", "2025-02-11", "2025-02-12"].map(date))
        // The zone in force longest: 31 Jan LA (22.5 h), 1 Feb Tokyo (8.5 h, all of it).
        XCTAssertEqual(calendar.zoneName(on: date("2025-01-31")), la)
        XCTAssertEqual(calendar.zoneName(on: date("2025-02-01")), tokyo)
    }

    func testWestwardReturnHoldsTheDateSoTheLongDayIsOneInterval() {
        var calendar = LocalCalendar(timeline: ZoneTimeline.build(evidence: laTokyoTrip, home: la))
        // Switch at 11 Feb 06:30Z = 15:30 JST = 22:30 PST on 10 Feb. 11 Feb began at Tokyo's
        // midnight (10 Feb 15:00Z); LA's clock shows 10 Feb until its midnight (11 Feb 08:00Z),
        // so 11 Feb holds on and ends at LA's midnight of 12 Feb: 41 hours.
        let start = t("2025-02-10T15:00:00Z"), end = t("2025-02-12T08:00:00Z")
        for probe in ["2025-02-10T15:00:00Z", "2025-02-11T06:29:59Z", "2025-02-11T06:30:00Z", "2025-02-11T07:59:59Z",
                      "2025-02-11T08:00:00Z", "2025-02-12T07:59:59Z"] {
            let day = calendar.day(containing: t(probe))
            XCTAssertEqual(day.date, date("2025-02-11"), probe)
            XCTAssertEqual(day.start, start, probe)
            XCTAssertEqual(day.end, end, probe)
        }
        XCTAssertEqual(calendar.day(containing: end).date, date("2025-02-12"))
        XCTAssertEqual(calendar.day(containing: end).end, t("2025-02-13T08:00:00Z"))
        XCTAssertEqual(calendar.localDate(of: Timestamp(microseconds: start.microseconds - 1)), date("2025-02-10"))
        // Offsets are LA's from the switch, while the date is held.
        XCTAssertEqual(calendar.offset(at: t("2025-02-11T06:29:59Z")), 9 * 3600)
        XCTAssertEqual(calendar.offset(at: t("2025-02-11T06:30:00Z")), -8 * 3600)
        // The clock of the day: Tokyo's until the switch, then hours since the day began while
        // the date is held (15:30 … 17:00), then LA's wall clock from its midnight.
        XCTAssertEqual(calendar.secondOfDay(t("2025-02-11T06:29:59Z")), 15 * 3600 + 1799)
        XCTAssertEqual(calendar.secondOfDay(t("2025-02-11T06:30:00Z")), 15 * 3600 + 1800)
        XCTAssertEqual(calendar.secondOfDay(t("2025-02-11T07:59:59Z")), 16 * 3600 + 3599)
        XCTAssertEqual(calendar.secondOfDay(t("2025-02-11T08:00:00Z")), 0)
        XCTAssertEqual(calendar.secondOfDay(t("2025-02-11T20:00:00Z")), 12 * 3600)
        // Wall clocks: Tokyo's where it was in force, else LA's.
        XCTAssertEqual(calendar.instant(on: date("2025-02-11"), secondOfDay: 8 * 3600), t("2025-02-10T23:00:00Z"))
        XCTAssertEqual(calendar.instant(on: date("2025-02-11"), secondOfDay: 20 * 3600), t("2025-02-12T04:00:00Z"))
        XCTAssertEqual(calendar.instant(on: date("2025-02-11"), secondOfDay: 86_400), end)
        XCTAssertEqual(calendar.instant(on: date("2025-02-12"), secondOfDay: 0), end)
        XCTAssertEqual(calendar.zoneName(on: date("2025-02-11")), la)   // 25.5 h of 41
        XCTAssertEqual(calendar.zoneName(on: date("2025-02-10")), tokyo)

        // Every 7 minutes over the whole trip: dates never go back, each instant's day holds it.
        assertConsistent(&calendar, from: t("2025-01-24T00:00:00Z"), to: t("2025-02-17T00:00:00Z"), step: 7 * 60)
    }

    func testEastwardSkipLeavesAnEmptyDayAndWestwardHoldCanPassADay() {
        // Pago Pago (UTC−11) → Kiritimati (UTC+14) and back, 25 hours apart, no DST.
        let pago = "Pacific/Pago_Pago", kiritimati = "Pacific/Kiritimati"
        let evidence = [ZoneEvidence(instant: t("2025-03-02T09:30:00Z"), zone: pago),       // 22:30 on 1 Mar
                        ZoneEvidence(instant: t("2025-03-02T11:30:00Z"), zone: kiritimati), // 01:30 on 3 Mar
                        ZoneEvidence(instant: t("2025-03-09T22:00:00Z"), zone: kiritimati), // 12:00 on 10 Mar
                        ZoneEvidence(instant: t("2025-03-10T00:00:00Z"), zone: pago)]       // 13:00 on 9 Mar
        let timeline = ZoneTimeline.build(evidence: evidence, home: pago)
        XCTAssertEqual(timeline.stretches.map(\.start), [nil, t("2025-03-02T10:30:00Z"), t("2025-03-09T23:00:00Z")])
        var calendar = LocalCalendar(timeline: timeline)
        // The switch: 23:30 on 1 Mar in Pago Pago is 00:30 on 3 Mar in Kiritimati. 2 Mar is empty.
        let jump = t("2025-03-02T10:30:00Z")
        XCTAssertEqual(calendar.startOfDay(date("2025-03-02")), jump)
        XCTAssertEqual(calendar.startOfDay(date("2025-03-03")), jump)
        XCTAssertEqual(calendar.day(containing: Timestamp(microseconds: jump.microseconds - 1)).date, date("2025-03-01"))
        XCTAssertEqual(calendar.day(containing: Timestamp(microseconds: jump.microseconds - 1)).end, jump)
        XCTAssertEqual(calendar.day(containing: jump).date, date("2025-03-03"))
        XCTAssertEqual(calendar.day(containing: jump).start, jump)
        XCTAssertEqual(calendar.secondOfDay(jump), 1800)
        XCTAssertEqual(calendar.instant(on: date("2025-03-02"), secondOfDay: 12 * 3600), jump)
        XCTAssertTrue(calendar.isTravelDay(date("2025-03-02")))
        XCTAssertEqual(calendar.zoneName(on: date("2025-03-02")), kiritimati)
        // A loop over the dates sees the empty day with no length.
        var lengths: [Int64] = []
        for d in 0..<4 {
            let day = date("2025-03-01").adding(days: d)
            lengths.append((calendar.startOfDay(day.adding(days: 1)).microseconds - calendar.startOfDay(day).microseconds) / Self.hour)
        }
        XCTAssertEqual(lengths, [23, 0, 23, 24])   // 1 Mar ends at 23:30 (rounded down); 3 Mar begins at 00:30

        // Back: 13:00 on 10 Mar in Kiritimati is 12:00 on 9 Mar in Pago Pago. 10 Mar (from
        // Kiritimati's midnight, 9 Mar 10:00Z) holds on until Pago Pago's midnight of 11 Mar
        // (11 Mar 11:00Z): 49 hours; its held clock starts again after 24 hours.
        let day = calendar.day(containing: t("2025-03-10T10:30:00Z"))
        XCTAssertEqual(day.date, date("2025-03-10"))
        XCTAssertEqual(day.start, t("2025-03-09T10:00:00Z"))
        XCTAssertEqual(day.end, t("2025-03-11T11:00:00Z"))
        XCTAssertEqual(calendar.secondOfDay(t("2025-03-09T23:00:00Z")), 13 * 3600)
        XCTAssertEqual(calendar.secondOfDay(t("2025-03-10T09:59:59Z")), 86_399)
        XCTAssertEqual(calendar.secondOfDay(t("2025-03-10T10:30:00Z")), 1800)
        XCTAssertEqual(calendar.secondOfDay(t("2025-03-10T11:00:00Z")), 0)   // Pago Pago's midnight
        XCTAssertEqual(calendar.localDate(of: t("2025-03-10T10:30:00Z")), date("2025-03-10"))
        assertConsistent(&calendar, from: t("2025-02-27T00:00:00Z"), to: t("2025-03-15T00:00:00Z"), step: 7 * 60)
    }

    func testTripAcrossDaylightSavingChangesFollowsEachZonesOwnRules() {
        // Home Berlin; New York from 6 to 20 March 2025 (US DST from 9 March), Berlin again from
        // 22 March (EU DST from 30 March). Wake-ups at 07:00 local.
        let berlin = "Europe/Berlin", newYork = "America/New_York"
        let evidence = nightly(berlin, 1...5, month: "03", clock: "06:00:00") + nightly(newYork, 6...8, month: "03", clock: "12:00:00")
            + nightly(newYork, 9...20, month: "03", clock: "11:00:00") + nightly(berlin, 22...31, month: "03", clock: "06:00:00")
        var calendar = LocalCalendar(timeline: ZoneTimeline.build(evidence: evidence, home: berlin))
        XCTAssertEqual(calendar.offset(at: t("2025-03-04T12:00:00Z")), 3600)
        XCTAssertEqual(calendar.offset(at: t("2025-03-08T12:00:00Z")), -5 * 3600)
        XCTAssertEqual(calendar.offset(at: t("2025-03-10T12:00:00Z")), -4 * 3600)
        XCTAssertEqual(calendar.offset(at: t("2025-03-25T12:00:00Z")), 3600)
        XCTAssertEqual(calendar.offset(at: t("2025-04-01T12:00:00Z")), 7200)
        // New York's 9 March has 23 hours (05:00Z to 04:00Z), Berlin's 30 March too.
        var day = calendar.day(containing: t("2025-03-09T12:00:00Z"))
        XCTAssertEqual(day.date, date("2025-03-09"))
        XCTAssertEqual(day.start, t("2025-03-09T05:00:00Z"))
        XCTAssertEqual(day.end, t("2025-03-10T04:00:00Z"))
        XCTAssertEqual(calendar.zoneName(on: date("2025-03-09")), newYork)
        day = calendar.day(containing: t("2025-03-30T12:00:00Z"))
        XCTAssertEqual(day.start, t("2025-03-29T23:00:00Z"))
        XCTAssertEqual(day.end, t("2025-03-30T22:00:00Z"))
        // 10:00 in New York on 10 March is 14:00Z (EDT); on 8 March 15:00Z (EST).
        XCTAssertEqual(calendar.instant(on: date("2025-03-10"), secondOfDay: 10 * 3600), t("2025-03-10T14:00:00Z"))
        XCTAssertEqual(calendar.instant(on: date("2025-03-08"), secondOfDay: 10 * 3600), t("2025-03-08T15:00:00Z"))
        XCTAssertEqual(calendar.secondOfDay(t("2025-03-10T14:00:00Z")), 10 * 3600)
        assertConsistent(&calendar, from: t("2025-02-25T00:00:00Z"), to: t("2025-04-05T00:00:00Z"), step: 7 * 60)
    }

    // MARK: - Properties

    func testRandomTimelinesKeepDaysContiguousAndDatesNonDecreasing() {
        let zones = ["America/Los_Angeles", "Asia/Tokyo", "Europe/Berlin", "America/New_York", "Australia/Sydney",
                     "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC", "Pacific/Auckland"]
        var generator = SplitMix64(seed: 20_260_048)
        for round in 0..<25 {
            let home = zones.randomElement(using: &generator)!
            var evidence: [ZoneEvidence] = []
            var instant = Int64(1_700_000_000) + Int64.random(in: 0..<400 * 86_400, using: &generator)
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let zone = zones.randomElement(using: &generator)!
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    evidence.append(ZoneEvidence(instant: Timestamp(microseconds: instant * 1_000_000 + Int64.random(in: 0..<1_000_000, using: &generator)),
                                                 zone: zone))
                    instant += Int64.random(in: 3600...3 * 86_400, using: &generator)
                }
                instant += Int64.random(in: 0...6 * 86_400, using: &generator)
            }
            let reach = [0, 6 * 3600, 48 * 3600].randomElement(using: &generator)!
            let timeline = ZoneTimeline.build(evidence: evidence.shuffled(using: &generator), home: home, reach: Int64(reach))
            XCTAssertEqual(timeline.stretches.first?.start, nil)
            XCTAssertEqual(timeline.stretches.first?.zone, home)
            XCTAssertEqual(timeline.stretches.last?.zone, home)
            for (a, b) in zip(timeline.stretches, timeline.stretches.dropFirst()) {
                XCTAssertNotEqual(a.zone, b.zone)
                if let s = a.start { XCTAssertLessThan(s, b.start!) }
            }
            for w in timeline.windows { XCTAssertLessThan(w.from, w.to) }
            var calendar = LocalCalendar(timeline: timeline)
            let first = evidence.first!.instant.microseconds / 1_000_000 - 5 * 86_400
            let last = evidence.last!.instant.microseconds / 1_000_000 + 5 * 86_400
            assertConsistent(&calendar, from: Timestamp(seconds: first), to: Timestamp(seconds: last), step: 3_547, "round \(round)")
            // Random instants in random order: the same answers as in order (the caches).
            var sorted = LocalCalendar(timeline: timeline), shuffled = LocalCalendar(timeline: timeline)
            let probes = (0..<300).map { _ in Timestamp(microseconds: Int64.random(in: first * 1_000_000..<last * 1_000_000, using: &generator)) }
            let expected = Dictionary(probes.sorted().map { p in (p, sorted.day(containing: p).date) }, uniquingKeysWith: { a, _ in a })
            for p in probes {
                let d = shuffled.day(containing: p)
                XCTAssertEqual(d.date, expected[p], "round \(round)")
                XCTAssertTrue(d.start <= p && p < d.end, "round \(round)")
                XCTAssertEqual(shuffled.offset(at: p), Int64(TimeZone(identifier: timeline.zone(at: p))!.secondsFromGMT(for: Date(timeIntervalSince1970: p.seconds.rounded(.down)))))
            }
        }
    }

    /// Over a grid of instants: each instant's day holds it, starts where startOfDay says, ends
    /// where the next day starts, and has the instant's date at its start; dates never decrease;
    /// the clock of the day is within a day; wall clocks asked for land in their day.
    private func assertConsistent(_ calendar: inout LocalCalendar, from: Timestamp, to: Timestamp, step: Int64,
                                  _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        var instant = from
        var previous: CivilDate?
        var failures = 0
        while instant < to, failures < 5 {
            let d = calendar.day(containing: instant)
            let date = calendar.localDate(of: instant)
            let second = calendar.secondOfDay(instant)
            var ok = d.date == date && d.start <= instant && instant < d.end
            ok = ok && calendar.startOfDay(date) == d.start && calendar.startOfDay(date.adding(days: 1)) == d.end
            ok = ok && calendar.localDate(of: d.start) == date && (0..<86_400).contains(second)
            ok = ok && previous.map { $0 <= date } ?? true
            let asked = calendar.instant(on: date, secondOfDay: (second / 3600) * 3600)
            ok = ok && d.start <= asked && asked <= d.end && (asked == d.end || calendar.localDate(of: asked) == date)
            if !ok {
                failures += 1
                XCTFail("\(message) at \(instant.iso8601): day \(d), date \(date), second \(second), previous \(String(describing: previous)), asked \(asked.iso8601)",
                        file: file, line: line)
            }
            previous = date
            instant = Timestamp(microseconds: instant.microseconds + step * 1_000_000)
        }
    }
}
