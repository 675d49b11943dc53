import XCTest
@testable import HealthAggregate
@testable import HealthCore
@_spi(Analytics) @testable import HealthDedupe

/// The Health app's day arithmetic, with answers computed by hand (docs/FORMAT.md, "How a
/// day is counted"). Times are Europe/Berlin wall clocks.
final class MergeAndDaysTests: XCTestCase {
    let berlin = LocalCalendar(identifier: "Europe/Berlin")!

    /// µs of a Berlin wall-clock time `yyyy-MM-dd HH:mm`.
    func t(_ text: String) -> Int64 {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "Europe/Berlin")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return Int64(f.date(from: text)!.timeIntervalSince1970) * 1_000_000
    }

    func day(_ s: String) -> CivilDate { CivilDate(iso: s)! }

    func sample(_ from: String, _ to: String, _ value: Double, rank: Int) -> MergeSample<Void> {
        MergeSample(start: t(from), end: t(to), value: value, rank: rank, tag: ())
    }

    /// Merge + split at midnights; totals per day.
    func dailyTotals(_ samples: [MergeSample<Void>], running: [Range<Int64>] = []) throws -> [CivilDate: (Double, Double)] {
        var stages = PriorityMerger<Void>().then(DaySplitter<Void>(calendar: berlin, running: running))
        var amounts: [DayAmount] = []
        let sorted = samples.sorted { $0.start < $1.start }
        // Two batches, to cross a batch boundary.
        try stages.handle(Array(sorted.prefix(sorted.count / 2))) { amounts += $0 }
        try stages.handle(Array(sorted.dropFirst(sorted.count / 2))) { amounts += $0 }
        try stages.finish { amounts += $0 }
        var totals: [CivilDate: (Double, Double)] = [:]
        for a in amounts {
            let old = totals[a.date] ?? (0, 0)
            totals[a.date] = (old.0 + a.amount, old.1 + a.inRunning)
        }
        return totals
    }

    func testPhoneWalkCoveredByWatchCountsOnce() throws {
        let watch = 1, phone = 2
        let totals = try dailyTotals([
            sample("2024-05-06 10:00", "2024-05-06 10:10", 1000, rank: watch),
            sample("2024-05-06 10:10", "2024-05-06 10:20", 800, rank: watch),
            sample("2024-05-06 10:00", "2024-05-06 10:20", 1900, rank: phone),
        ])
        XCTAssertEqual(totals[day("2024-05-06")]!.0, 1800, accuracy: 1e-9)
    }

    func testLowerPrioritySourceFillsOnlyTheGap() throws {
        // Phone 09:50–10:10 (600 steps, 30/min); the watch covers 10:00–10:10: the phone's
        // first ten minutes (300) count, its last ten do not.
        let totals = try dailyTotals([
            sample("2024-05-06 09:50", "2024-05-06 10:10", 600, rank: 2),
            sample("2024-05-06 10:00", "2024-05-06 10:10", 1000, rank: 1),
        ])
        XCTAssertEqual(totals[day("2024-05-06")]!.0, 1300, accuracy: 1e-9)
    }

    func testManualEntryBeatsWatch() throws {
        let totals = try dailyTotals([
            sample("2024-05-06 08:00", "2024-05-06 09:00", 3000, rank: 1),
            sample("2024-05-06 08:00", "2024-05-06 09:00", 5000, rank: 0),
        ])
        XCTAssertEqual(totals[day("2024-05-06")]!.0, 5000, accuracy: 1e-9)
    }

    func testSameSourceRewriteCountsOnce() throws {
        // A re-synced copy of the same 10 minutes with a different creation date.
        let totals = try dailyTotals([
            sample("2024-05-06 12:00", "2024-05-06 12:10", 700, rank: 3),
            sample("2024-05-06 12:00", "2024-05-06 12:10", 700, rank: 3),
            sample("2024-05-06 12:10", "2024-05-06 12:20", 100, rank: 3),
        ])
        XCTAssertEqual(totals[day("2024-05-06")]!.0, 800, accuracy: 1e-9)
    }

    func testPhoneOnlyWalkAcrossMidnightSplitsProRata() throws {
        let totals = try dailyTotals([sample("2024-05-06 23:30", "2024-05-07 00:30", 600, rank: 2)])
        XCTAssertEqual(totals[day("2024-05-06")]!.0, 300, accuracy: 1e-9)
        XCTAssertEqual(totals[day("2024-05-07")]!.0, 300, accuracy: 1e-9)
    }

    func testDSTDaysHave23And25Hours() throws {
        var cal = berlin
        let spring = cal.day(containing: Timestamp(microseconds: t("2024-03-31 12:00")))
        XCTAssertEqual(spring.date, day("2024-03-31"))
        XCTAssertEqual(spring.end.microseconds - spring.start.microseconds, 23 * 3_600_000_000)
        let autumn = cal.day(containing: Timestamp(microseconds: t("2024-10-27 12:00")))
        XCTAssertEqual(autumn.end.microseconds - autumn.start.microseconds, 25 * 3_600_000_000)
        // Noon to noon across the spring change is 23 real hours: 12 on the 30th, 11 on the 31st.
        let totals = try dailyTotals([sample("2024-03-30 12:00", "2024-03-31 12:00", 2300, rank: 2)])
        XCTAssertEqual(totals[day("2024-03-30")]!.0, 1200, accuracy: 1e-9)
        XCTAssertEqual(totals[day("2024-03-31")]!.0, 1100, accuracy: 1e-9)
        // A whole autumn day (25 hours) stays on its day.
        let whole = try dailyTotals([sample("2024-10-27 00:00", "2024-10-28 00:00", 2500, rank: 2)])
        XCTAssertEqual(whole.count, 1)
        XCTAssertEqual(whole[day("2024-10-27")]!.0, 2500, accuracy: 1e-9)
    }

    /// Merged amounts per (day, local clock hour), for HealthQL's GROUP BY hour.
    func hourlyTotals(_ samples: [MergeSample<Void>]) throws -> [String: Double] {
        var stages = PriorityMerger<Void>().then(DaySplitter<Void>(calendar: berlin))
        var totals: [String: Double] = [:]
        let collect: ([DayAmount]) -> Void = { for a in $0 { totals["\(a.date.iso8601) \(a.hour)", default: 0] += a.amount } }
        try stages.handle(samples.sorted { $0.start < $1.start }, emit: collect)
        try stages.finish(emit: collect)
        return totals
    }

    func testPiecesAreCutAtLocalClockHours() throws {
        // 10:30–12:00 local: a third in hour 10, two thirds in hour 11.
        let walk = try hourlyTotals([sample("2024-05-06 10:30", "2024-05-06 12:00", 900, rank: 2)])
        XCTAssertEqual(walk.count, 2)
        XCTAssertEqual(walk["2024-05-06 10"]!, 300, accuracy: 1e-9)
        XCTAssertEqual(walk["2024-05-06 11"]!, 600, accuracy: 1e-9)
        // The autumn change repeats 02:00–03:00: 01:00 to 04:00 local is 4 real hours, and
        // hour 2 gets two of them; spring skips hour 2 altogether.
        let autumn = try hourlyTotals([sample("2024-10-27 01:00", "2024-10-27 04:00", 400, rank: 2)])
        XCTAssertEqual(autumn["2024-10-27 1"]!, 100, accuracy: 1e-9)
        XCTAssertEqual(autumn["2024-10-27 2"]!, 200, accuracy: 1e-9)
        XCTAssertEqual(autumn["2024-10-27 3"]!, 100, accuracy: 1e-9)
        let spring = try hourlyTotals([sample("2024-03-31 01:00", "2024-03-31 04:00", 200, rank: 2)])
        XCTAssertNil(spring["2024-03-31 2"])
        XCTAssertEqual(spring["2024-03-31 1"]!, 100, accuracy: 1e-9)
        XCTAssertEqual(spring["2024-03-31 3"]!, 100, accuracy: 1e-9)
    }

    func testInstantSampleCountsUnlessCovered() throws {
        let totals = try dailyTotals([
            sample("2024-05-06 10:00", "2024-05-06 10:00", 50, rank: 3),
            sample("2024-05-06 11:00", "2024-05-06 11:00", 40, rank: 3),
            sample("2024-05-06 10:55", "2024-05-06 11:05", 100, rank: 1),
        ])
        XCTAssertEqual(totals[day("2024-05-06")]!.0, 150, accuracy: 1e-9)
    }

    func testWalkingRunningSplitByRunningWorkouts() throws {
        let run = [t("2024-05-06 10:30")..<t("2024-05-06 11:00")]
        let totals = try dailyTotals([sample("2024-05-06 10:00", "2024-05-06 11:00", 6000, rank: 1)], running: run)
        XCTAssertEqual(totals[day("2024-05-06")]!.0, 6000, accuracy: 1e-9)
        XCTAssertEqual(totals[day("2024-05-06")]!.1, 3000, accuracy: 1e-9)
        XCTAssertEqual(RunningIntervals.union([5..<9, 1..<3, 2..<4, 9..<10]), [1..<4, 5..<10])
    }

    // MARK: sleep

    func sleepNights(_ samples: [(String, String, SleepStage, Int)]) throws -> [CivilDate: SleepNight] {
        var bed = PriorityMerger<SleepTag>(), asleep = PriorityMerger<SleepTag>()
        var nights = SleepNights(calendar: berlin)
        let collect: ([MergedPiece<SleepTag>]) throws -> Void = { try nights.handle($0) { _ in } }
        let sorted = samples.map { s in
            MergeSample(start: t(s.0), end: t(s.1), value: 0, rank: s.3, tag: SleepTag(stage: s.2, sampleStart: t(s.0), source: "r\(s.3)"))
        }.sorted { $0.start < $1.start }
        try bed.handle(sorted.filter { $0.tag.stage.isInBedTrack }, emit: collect)
        try asleep.handle(sorted.filter { !$0.tag.stage.isInBedTrack }, emit: collect)
        try bed.finish(emit: collect)
        try asleep.finish(emit: collect)
        var out: [CivilDate: SleepNight] = [:]
        try nights.finish { for n in $0 { out[n.date] = n } }
        return out
    }

    func testNightStartingBeforeMidnightBelongsToTheMorning() throws {
        let nights = try sleepNights([
            ("2024-05-06 22:30", "2024-05-07 07:00", .inBed, 2),       // iPhone in bed
            ("2024-05-06 23:00", "2024-05-07 01:00", .core, 1),        // watch stages
            ("2024-05-07 01:00", "2024-05-07 02:00", .deep, 1),
            ("2024-05-07 02:00", "2024-05-07 02:15", .awake, 1),
            ("2024-05-07 02:15", "2024-05-07 03:00", .rem, 1),
            ("2024-05-06 23:30", "2024-05-07 03:00", .unspecified, 3), // AutoSleep, covered by the watch
            ("2024-05-07 14:00", "2024-05-07 14:30", .unspecified, 3), // afternoon nap, same wake-up day
        ])
        XCTAssertEqual(nights.count, 1)
        let n = try XCTUnwrap(nights[day("2024-05-07")])
        XCTAssertEqual(n.inBedMinutes, 510, accuracy: 1e-9)
        XCTAssertEqual(n.coreMinutes, 120, accuracy: 1e-9)
        XCTAssertEqual(n.deepMinutes, 60, accuracy: 1e-9)
        XCTAssertEqual(n.remMinutes, 45, accuracy: 1e-9)
        XCTAssertEqual(n.awakeMinutes, 15, accuracy: 1e-9)
        XCTAssertEqual(n.unspecifiedMinutes, 0, accuracy: 1e-9)    // AutoSleep shadowed; the nap is apart
        XCTAssertEqual(n.asleepMinutes, 225, accuracy: 1e-9)       // awake, in-bed and the nap excluded
        XCTAssertEqual(n.napMinutes, 30, accuracy: 1e-9)
        XCTAssertEqual(n.naps, 1)
        XCTAssertEqual(n.start.microseconds, t("2024-05-06 22:30"))
        XCTAssertEqual(n.end.microseconds, t("2024-05-07 07:00"))   // the nap does not stretch the span
    }

    func testTwoSessionsEndingOnOneDayAreANightAndANap() throws {
        // Two sessions (more than an hour apart) on both sides of 18:00, both ending on 6 May:
        // one night (the longer), the other a nap; the old 18:00 rule made them two dates.
        let nights = try sleepNights([("2024-05-06 19:30", "2024-05-06 20:00", .core, 1),
                                      ("2024-05-06 17:00", "2024-05-06 18:10", .core, 1)])
        XCTAssertEqual(nights.count, 1, "\(nights.keys)")
        let n = try XCTUnwrap(nights[day("2024-05-06")])
        XCTAssertEqual(n.coreMinutes, 70, accuracy: 1e-9)
        XCTAssertEqual(n.napMinutes, 30, accuracy: 1e-9)
        XCTAssertEqual(n.end.microseconds, t("2024-05-06 18:10"))
    }

    func testASessionAcrossTheSixPMCutoffStaysOneNight() throws {
        // Records 20 s apart from 17:30 to 19:30 (a night in Seoul read in UTC looks like this):
        // one session, one night, never cut at 18:00.
        var samples: [(String, String, SleepStage, Int)] = []
        var minute = 17 * 60 + 30
        while minute < 19 * 60 + 30 {
            let start = String(format: "2024-05-06 %02d:%02d", minute / 60, minute % 60)
            let end = String(format: "2024-05-06 %02d:%02d", (minute + 10) / 60, (minute + 10) % 60)
            samples.append((start, end, .core, 1))
            minute += 10
        }
        let nights = try sleepNights(samples)
        XCTAssertEqual(nights.count, 1, "\(nights.keys)")
        XCTAssertEqual(nights[day("2024-05-06")]?.coreMinutes ?? 0, 120, accuracy: 1e-9)
    }

    // MARK: heart rate and sound

    func testHeartbeatsIntegrateOverWornTime() throws {
        var stage = HeartRateDays(calendar: berlin, maxGapMinutes: 10)
        let r = [("2024-05-06 10:00", 60.0), ("2024-05-06 10:05", 70.0), ("2024-05-06 10:10", 80.0),
                 ("2024-05-06 11:10", 90.0)]   // an hour later: not worn in between
        try stage.handle(r.map { HeartRateReading(start: t($0.0), end: t($0.0), bpm: $0.1) }) { _ in }
        var days: [HeartRateDay] = []
        try stage.finish { days = $0 }
        let d = try XCTUnwrap(days.first)
        XCTAssertEqual(d.beats, 60 * 5 + 70 * 5, accuracy: 1e-9)
        XCTAssertEqual(d.wornMinutes, 10, accuracy: 1e-9)
        XCTAssertEqual(d.average, 65, accuracy: 1e-9)        // time-weighted, not (60+70+80+90)/4
        XCTAssertEqual(d.count, 4)
        XCTAssertEqual(d.maximum, 90)
    }

    func testHeartbeatsAcrossMidnightSplitProRata() throws {
        var stage = HeartRateDays(calendar: berlin, maxGapMinutes: 10)
        try stage.handle([HeartRateReading(start: t("2024-05-06 23:56"), end: t("2024-05-06 23:56"), bpm: 60),
                          HeartRateReading(start: t("2024-05-07 00:04"), end: t("2024-05-07 00:04"), bpm: 60)]) { _ in }
        var days: [HeartRateDay] = []
        try stage.finish { days = $0 }
        XCTAssertEqual(days.map(\.beats), [240, 240])   // 4 minutes at 60 bpm on each side
    }

    func testSoundLevelIsAnEnergyAverage() throws {
        var stage = SoundLevelDays(type: "HKQuantityTypeIdentifierEnvironmentalAudioExposure", calendar: berlin)
        try stage.handle([SoundLevelReading(start: t("2024-05-06 10:00"), end: t("2024-05-06 10:30"), decibels: 60),
                          SoundLevelReading(start: t("2024-05-06 11:00"), end: t("2024-05-06 11:30"), decibels: 80)]) { _ in }
        var rows: [DailyTypeMetric] = []
        try stage.finish { rows = $0 }
        // 10·log10((10^6 + 10^8) / 2) = 76.99 dB, far above the arithmetic 70.
        XCTAssertEqual(try XCTUnwrap(rows.first?.average), 10 * log10((1e6 + 1e8) / 2), accuracy: 1e-9)
    }

    // MARK: periods

    func testPeriodsAreSumsOfTheirDays() {
        func dayRow(_ d: String, steps: Double?, sleep: Double?) -> DailyAnalytics {
            var m = MetricValues()
            m[.steps] = steps
            m[.sleepTotalMinutes] = sleep
            return DailyAnalytics(date: day(d), metrics: m)
        }
        let days = [dayRow("2024-02-25", steps: 100, sleep: nil),   // Sunday
                    dayRow("2024-02-26", steps: 200, sleep: 400),   // Monday
                    dayRow("2024-02-29", steps: nil, sleep: 300),
                    dayRow("2024-03-01", steps: 50, sleep: nil)]
        let weeks = PeriodRollup.periods(.week, of: days)
        XCTAssertEqual(weeks.map(\.start), [day("2024-02-19"), day("2024-02-26")])
        XCTAssertEqual(weeks.map(\.end), [day("2024-02-25"), day("2024-03-03")])
        XCTAssertEqual(weeks.map { $0.metrics[.steps] }, [100, 250])
        XCTAssertEqual(weeks.map { $0.metrics[.sleepTotalMinutes] }, [nil, 700])
        XCTAssertEqual(weeks.map(\.daysWithData), [1, 3])
        let sundayWeeks = PeriodRollup.periods(.week, of: days, weekStart: PeriodRollup.weekStartIndex("sunday")!)
        XCTAssertEqual(sundayWeeks.map(\.start), [day("2024-02-25")])
        let months = PeriodRollup.periods(.month, of: days)
        XCTAssertEqual(months.map(\.end), [day("2024-02-29"), day("2024-03-31")])
        XCTAssertEqual(months.map { $0.metrics[.steps] }, [300, 50])
        let years = PeriodRollup.periods(.year, of: days)
        XCTAssertEqual(years.map { $0.metrics[.steps] }, [350])
        XCTAssertEqual(years.first?.end, day("2024-12-31"))
        XCTAssertNil(PeriodRollup.weekStartIndex("someday"))
    }
}
