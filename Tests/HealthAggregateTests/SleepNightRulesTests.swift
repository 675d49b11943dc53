import XCTest
@testable import HealthAggregate
@testable import HealthCore
@_spi(Analytics) @testable import HealthDedupe

/// The sleep-night rule (docs/sleep-nights.md), one test per rule, on nights built here:
/// sessions by gaps, dated by the wake-up day, naps, in bed as the union of both tracks.
final class SleepNightRulesTests: XCTestCase {
    /// µs of a wall-clock time `yyyy-MM-dd HH:mm` in `zone`.
    func t(_ text: String, _ zone: String = "America/New_York") -> Int64 {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: zone)
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return Int64(f.date(from: text)!.timeIntervalSince1970) * 1_000_000
    }

    func day(_ s: String) -> CivilDate { CivilDate(iso: s)! }

    /// Samples (start µs, end µs, stage, rank) through both tracks' merges into `SleepNights`.
    func nights(_ samples: [(Int64, Int64, SleepStage, Int)], zone: String = "America/New_York") throws -> [SleepNight] {
        var bed = PriorityMerger<SleepTag>(), asleep = PriorityMerger<SleepTag>()
        var stage = SleepNights(calendar: LocalCalendar(identifier: zone)!)
        let collect: ([MergedPiece<SleepTag>]) throws -> Void = { try stage.handle($0) { _ in } }
        let sorted = samples.map { s in
            MergeSample(start: s.0, end: s.1, value: 0, rank: s.3, tag: SleepTag(stage: s.2, sampleStart: s.0, source: "r\(s.3)"))
        }.sorted { $0.start < $1.start }
        try bed.handle(sorted.filter { $0.tag.stage.isInBedTrack }, emit: collect)
        try asleep.handle(sorted.filter { !$0.tag.stage.isInBedTrack }, emit: collect)
        try bed.finish(emit: collect)
        try asleep.finish(emit: collect)
        var out: [SleepNight] = []
        try stage.finish { out = $0 }
        return out
    }

    /// A watch night: an in-bed sample from the phone, asleep from the watch in 30 min stages.
    func night(_ bed: Int64, _ wake: Int64, phoneFrom: Int64? = nil) -> [(Int64, Int64, SleepStage, Int)] {
        var out: [(Int64, Int64, SleepStage, Int)] = [(phoneFrom ?? bed, wake, .inBed, 2)]
        var s = bed
        let stages: [SleepStage] = [.core, .deep, .core, .rem]
        var i = 0
        while s < wake {
            let e = min(s + 30 * 60_000_000, wake)
            out.append((s, e, stages[i % stages.count], 1))
            s = e; i += 1
        }
        return out
    }

    /// Every night: one date, never longer than its span, asleep + awake within time in bed.
    func assertSound(_ nights: [SleepNight], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Set(nights.map(\.date)).count, nights.count, "two nights share a date", file: file, line: line)
        for n in nights {
            let span = Double(n.end.microseconds - n.start.microseconds) / 60_000_000
            XCTAssertLessThanOrEqual(n.inBedMinutes, span + 1e-9, "\(n.date)", file: file, line: line)
            XCTAssertLessThanOrEqual(n.asleepMinutes + n.awakeMinutes, n.inBedMinutes + 1e-9, "\(n.date)", file: file, line: line)
        }
    }

    func testAnEarlySleeperGetsOneNightPerWakeUpDay() throws {
        // Bedtimes alternate 17:30 and 19:35 (both sides of the old 18:00 cutoff), up at 02:00.
        var samples: [(Int64, Int64, SleepStage, Int)] = []
        for d in 1...14 {
            let bed = String(format: "2024-04-%02d ", d) + (d % 2 == 0 ? "17:30" : "19:35")
            samples += night(t(bed), t(String(format: "2024-04-%02d 02:00", d + 1)))
        }
        let result = try nights(samples)
        XCTAssertEqual(result.map(\.date), (2...15).map { day(String(format: "2024-04-%02d", $0)) })
        assertSound(result)
        for n in result { XCTAssertLessThan(n.end.microseconds - n.start.microseconds, 9 * 3_600_000_000) }
    }

    func testAShiftWorkerSleepingByDayGetsTheDayOfWakeUp() throws {
        // Night shifts: asleep 09:00–16:00 for five days, then back to nights (23:00–07:00).
        var samples: [(Int64, Int64, SleepStage, Int)] = []
        for d in 4...8 { samples += night(t("2024-03-0\(d) 09:00"), t("2024-03-0\(d) 16:00")) }
        samples += night(t("2024-03-09 23:00"), t("2024-03-10 07:00"))
        let result = try nights(samples)
        XCTAssertEqual(result.map(\.date), ["04", "05", "06", "07", "08", "10"].map { day("2024-03-\($0)") })
        XCTAssertEqual(result.last?.asleepMinutes ?? 0, 7 * 60, accuracy: 1e-9)   // 23:00–07:00 in NY spans the DST change
        assertSound(result)
    }

    func testANightIsDatedInTheZoneItIsReadIn() throws {
        // A Berlin night (23:10–07:05) read in Los Angeles runs 15:10–23:05 there: still one
        // night a day, dated by the Los Angeles day of its end.
        var samples: [(Int64, Int64, SleepStage, Int)] = []
        for d in 10...16 { samples += night(t("2024-05-\(d) 23:10", "Europe/Berlin"), t("2024-05-\(d + 1) 07:05", "Europe/Berlin")) }
        let berlin = try nights(samples, zone: "Europe/Berlin"), la = try nights(samples, zone: "America/Los_Angeles")
        XCTAssertEqual(berlin.map(\.date), (11...17).map { day("2024-05-\($0)") })
        XCTAssertEqual(la.map(\.date), (10...16).map { day("2024-05-\($0)") })
        XCTAssertEqual(berlin.map(\.asleepMinutes), la.map(\.asleepMinutes))
        assertSound(la)
    }

    func testANapIsKeptOutOfTheNightAndItsSpan() throws {
        // Night 23:00–07:00, nap 13:00–13:40, an evening doze 19:00–19:20: both end on the
        // wake-up day of the night, so both are naps of that night.
        var samples = night(t("2024-03-04 23:00"), t("2024-03-05 07:00"))
        samples += [(t("2024-03-05 13:00"), t("2024-03-05 13:40"), .unspecified, 0),
                    (t("2024-03-05 19:00"), t("2024-03-05 19:20"), .core, 1)]
        let result = try nights(samples)
        let n = try XCTUnwrap(result.first)
        XCTAssertEqual(result.count, 1)
        XCTAssertEqual(n.date, day("2024-03-05"))
        XCTAssertEqual(n.asleepMinutes, 8 * 60, accuracy: 1e-9)
        XCTAssertEqual(n.napMinutes, 60, accuracy: 1e-9)
        XCTAssertEqual(n.naps, 2)
        XCTAssertEqual(n.end.microseconds, t("2024-03-05 07:00"))
        // A longer sleep by day is the night, the shorter night-time sleep its nap.
        let swapped = try nights(night(t("2024-03-04 23:00"), t("2024-03-05 01:00")) + night(t("2024-03-05 09:00"), t("2024-03-05 15:00")))
        XCTAssertEqual(swapped.count, 1)
        XCTAssertEqual(swapped.first?.start.microseconds, t("2024-03-05 09:00"))
        XCTAssertEqual(swapped.first?.napMinutes ?? 0, 120, accuracy: 1e-9)
    }

    func testInBedIsTheUnionOfBothTracks() throws {
        // The phone's in-bed sample starts 25 min after the watch's first asleep sample (the
        // sample's night 2024-03-29: 410 min asleep beside 385.6 in bed): in bed covers both.
        let samples = night(t("2024-03-28 23:00"), t("2024-03-29 06:00"), phoneFrom: t("2024-03-28 23:25"))
            + [(t("2024-03-29 06:00"), t("2024-03-29 06:10"), .inBed, 2)]
        let n = try XCTUnwrap(try nights(samples).first)
        XCTAssertEqual(n.asleepMinutes, 420, accuracy: 1e-9)
        XCTAssertEqual(n.inBedMinutes, 430, accuracy: 1e-9)
        assertSound([n])
    }

    func testAnInBedOnlyNightKeepsItsTimeInBedAndNoSleep() throws {
        let n = try XCTUnwrap(try nights([(t("2024-03-05 05:28"), t("2024-03-05 09:30"), .inBed, 2)]).first)
        XCTAssertTrue(n.isInBedOnly)
        XCTAssertEqual(n.recorded, "in bed only")
        XCTAssertEqual(n.inBedMinutes, 242, accuracy: 1e-9)
        var book = AnalyticsBook()
        book.addNights([n])
        let row = try XCTUnwrap(book.dailyRows.first)
        XCTAssertNil(row.metrics[.sleepTotalMinutes], "in bed is not asleep, nor 0 h asleep")
        XCTAssertEqual(row.metrics[.sleepInBedMinutes] ?? 0, 242, accuracy: 1e-9)
    }

    func testASessionEndingAtMidnightBelongsToTheDayBefore() throws {
        let result = try nights(night(t("2024-03-05 20:00"), t("2024-03-06 00:00")))
        XCTAssertEqual(result.map(\.date), [day("2024-03-05")])
    }
}
