import XCTest
@testable import HealthAggregate
@testable import HealthAnalytics
@testable import HealthCore
import HealthPresentation
@testable import HealthStore

/// Issue 31: each rule of docs/vitals-hrv-workouts.md on its own (the end-to-end imports are in
/// VitalsEndToEndTests, neurokit2's equality in HRVNeurokitTests).
final class VitalsRulesTests: XCTestCase {
    typealias Beat = BeatIntervals.Beat

    /// Beats at the given offsets (ms from 0), each with the bpm its own interval implies.
    static func beats(_ offsets: [Double]) -> [Beat] {
        offsets.enumerated().map { i, t in
            let interval = i == 0 ? offsets[1] - offsets[0] : t - offsets[i - 1]
            return Beat(timeMicroseconds: Int64((t * 1000).rounded()), bpm: (60_000 / interval).rounded())
        }
    }

    func testFiguresOfACleanListByHand() throws {
        // Intervals 800, 850, 780, 900: mean 832.5; differences 50, -70, 120.
        let f = BeatIntervals(beats: Self.beats([0, 800, 1650, 2430, 3330]))
        XCTAssertNil(f.problem)
        XCTAssertEqual(f.intervals, 4); XCTAssertEqual(f.differences, 3)
        XCTAssertEqual(try XCTUnwrap(f.meanNN), 832.5, accuracy: 1e-9)
        let sd = ((pow(-32.5, 2) + pow(17.5, 2) + pow(-52.5, 2) + pow(67.5, 2)) / 3).squareRoot()
        XCTAssertEqual(try XCTUnwrap(f.sdnn), sd, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(f.rmssd), ((2500.0 + 4900 + 14400) / 3).squareRoot(), accuracy: 1e-9)
        // 70 and 120 exceed 50, 50 does not: 2 of the 4 NN intervals.
        XCTAssertEqual(try XCTUnwrap(f.pnn50), 50, accuracy: 1e-9)
    }

    func testAnIntervalAcrossMissedBeatsIsExcludedAndNotDifferenced() throws {
        // 800, 800, then 2400 (two beats missed: bpm says 75, i.e. 800), then 820, 790.
        var list = Self.beats([0, 800, 1600, 4000, 4820, 5610])
        list[3].bpm = 75
        let f = BeatIntervals(beats: list)
        XCTAssertEqual(f.intervals, 4)
        XCTAssertEqual(f.differences, 2)                        // 800→800 and 820→790; none across the gap
        XCTAssertEqual(try XCTUnwrap(f.rmssd), ((0.0 + 900) / 2).squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(f.meanNN), (800.0 + 800 + 820 + 790) / 4, accuracy: 1e-9)
    }

    /// Issue 44: pNN50 on a list with a gap, by hand. Differences only within runs of kept
    /// intervals, divided by the kept (NN) intervals: the Task Force's NN50 / N. neurokit2 given
    /// the same list differences across the gap (its intervals are consecutive by definition):
    /// given only the kept intervals it counts the jump 1000 → 900 across the gap as well (4 of
    /// 5, 80 %), given every interval it differences 1000 → 2500 → 900 (docs/vitals-hrv-workouts.md).
    func testPNN50OnAListWithAGapCountsNoDifferenceAcrossIt() throws {
        // Intervals 1000, 1100, 1000, then 2500 (a missed beat: bpm 60 says 1000), then 900, 960.
        var list = Self.beats([0, 1000, 2100, 3100, 5600, 6500, 7460])
        list[4].bpm = 60
        let f = BeatIntervals(beats: list)
        XCTAssertEqual(f.intervals, 5)
        XCTAssertEqual(f.differences, 3)          // 1000→1100, 1100→1000, 900→960
        // |100|, |100|, |60| exceed 50: 3 NN50 of 5 NN intervals.
        XCTAssertEqual(try XCTUnwrap(f.pnn50), 60, accuracy: 1e-9)
        // What differencing the kept intervals as if consecutive would say (neurokit2's way).
        let kept = [1000.0, 1100, 1000, 900, 960]
        let across = zip(kept, kept.dropFirst()).filter { abs($1 - $0) > 50 }.count
        XCTAssertEqual(Double(across) / Double(kept.count) * 100, 80)
        XCTAssertNotEqual(f.pnn50, 80)
    }

    func testAnIntervalThatDisagreesWithItsBeatsBPMIsExcluded() throws {
        var list = Self.beats([0, 800, 1600, 2400, 3200])
        list[2].bpm = 100   // 600 ms expected, 800 measured: off by a third
        let f = BeatIntervals(beats: list)
        XCTAssertEqual(f.intervals, 3)
        XCTAssertEqual(f.differences, 1)
    }

    func testBadListsGiveNullsAndTheirReason() {
        let cases: [([Beat], BeatIntervals.Problem)] = [
            ([Beat(timeMicroseconds: 0, bpm: 60)], .tooFewBeats),
            ([], .tooFewBeats),
            ([Beat(timeMicroseconds: 0, bpm: 60), Beat(timeMicroseconds: 1_000_000, bpm: 60), Beat(timeMicroseconds: 500_000, bpm: 60)], .unordered),
            ([Beat(timeMicroseconds: 0, bpm: 60), Beat(timeMicroseconds: 0, bpm: 60), Beat(timeMicroseconds: 1_000_000, bpm: 60)], .unordered),
            ([Beat(timeMicroseconds: 0, bpm: 60), Beat(timeMicroseconds: 1_000_000, bpm: 0)], .zeroBPM),
            ([Beat(timeMicroseconds: 0, bpm: 60), Beat(timeMicroseconds: 1_000_000, bpm: nil)], .zeroBPM),
            ([Beat(timeMicroseconds: 0, bpm: 60), Beat(timeMicroseconds: nil, bpm: 60)], .unparsedTime),
            ([Beat(timeMicroseconds: 0, bpm: 60), Beat(timeMicroseconds: 5_000_000, bpm: 60)], .noIntervals),
        ]
        for (list, problem) in cases {
            let f = BeatIntervals(beats: list)
            XCTAssertEqual(f.problem, problem, "\(list)")
            XCTAssertNil(f.meanNN); XCTAssertNil(f.sdnn); XCTAssertNil(f.rmssd); XCTAssertNil(f.pnn50)
        }
    }

    func testMaximumHeartRateFromTheBirthDate() throws {
        let birth = CivilDate(iso: "1980-05-17")
        // 43 the day before the birthday, 44 on it: 208 − 0.7 × age.
        XCTAssertEqual(try XCTUnwrap(HeartRateZones.maximum(birthDate: birth, on: CivilDate(iso: "2024-05-16")!)), 208 - 0.7 * 43, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(HeartRateZones.maximum(birthDate: birth, on: CivilDate(iso: "2024-05-17")!)), 208 - 0.7 * 44, accuracy: 1e-9)
        XCTAssertNil(HeartRateZones.maximum(birthDate: nil, on: CivilDate(iso: "2024-05-17")!))
        XCTAssertNil(HeartRateZones.maximum(birthDate: CivilDate(iso: "2030-01-01"), on: CivilDate(iso: "2024-05-17")!))
    }

    func testZonesAreTenthsOfTheMaximumFromHalf() {
        XCTAssertNil(HeartRateZones.zone(of: 99.9, maximum: 200))
        XCTAssertEqual(HeartRateZones.zone(of: 100, maximum: 200), 1)
        XCTAssertEqual(HeartRateZones.zone(of: 139.9, maximum: 200), 2)
        XCTAssertEqual(HeartRateZones.zone(of: 140, maximum: 200), 3)
        XCTAssertEqual(HeartRateZones.zone(of: 179.9, maximum: 200), 4)
        XCTAssertEqual(HeartRateZones.zone(of: 180, maximum: 200), 5)
        XCTAssertEqual(HeartRateZones.zone(of: 230, maximum: 200), 5)
    }

    func testASampleHoldsUntilTheNextTheEndOrAMinute() {
        let s: Int64 = 1_000_000
        // 110 bpm for 30 s, 150 for 200 s (capped at 60), 185 for the last 10 s to the end.
        let seconds = HeartRateZones.seconds([(0, 110), (30 * s, 150), (230 * s, 185)], end: 240 * s, maximum: 200)
        XCTAssertEqual(seconds, [30, 0, 60, 0, 10])
    }

    func testHaversineAndElevationGain() throws {
        // One degree of latitude on the mean sphere: 2πR/360.
        XCTAssertEqual(RouteFigures.haversine(0, 0, 1, 0), 2 * Double.pi * RouteFigures.earthRadius / 360, accuracy: 1e-6)
        XCTAssertEqual(RouteFigures.haversine(52.52, 13.405, 52.52, 13.405), 0)
        let route = RouteFigures.measure([(52.0, 13.0, 30), (52.001, 13.0, 35), (52.002, 13.0, 32), (52.003, 13.0, 40)])
        XCTAssertEqual(route.distance, 3 * RouteFigures.haversine(52.0, 13.0, 52.001, 13.0), accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(route.gain), 13, accuracy: 1e-9)
        XCTAssertNil(RouteFigures.measure([(52.0, 13.0, nil), (52.001, 13.0, nil)]).gain)
    }

    func testDisplayNames() {
        XCTAssertEqual(WorkoutDisplay.name("HKWorkoutActivityTypeRunning"), "Running")
        XCTAssertEqual(WorkoutDisplay.name("HKWorkoutActivityTypeTraditionalStrengthTraining"), "Traditional Strength Training")
        XCTAssertEqual(WorkoutDisplay.name("HKWorkoutActivityTypeHighIntensityIntervalTraining"), "High Intensity Interval Training")
        XCTAssertEqual(WorkoutDisplay.name("SomethingElse"), "Something Else")
    }

    func testPercentTypesWrittenAsFractionsReadAsPercent() {
        XCTAssertEqual(VitalsBuilder.percent(0.97), 97, accuracy: 1e-9)
        XCTAssertEqual(VitalsBuilder.percent(97), 97)
    }
}

extension VitalsRulesTests {
    /// A climb in m or ft (never km or mi), a pace per km or per mile.
    func testRouteFiguresInThePersonsUnits() {
        XCTAssertEqual(UnitSystem.metric.show("elevation_gain_m", spreadsheet: true).title, "Elevation gain (m)")
        XCTAssertEqual(UnitSystem.metric.show("elevation_gain_m", spreadsheet: true).scale, 1)
        let feet = UnitSystem.imperial.show("elevation_gain_m", spreadsheet: false)
        XCTAssertEqual(feet.csvName, "elevation_gain_ft")
        XCTAssertEqual(feet.convert(30.48), 100, accuracy: 1e-9)
        let pace = UnitSystem.imperial.show("pace_min_per_km", spreadsheet: false)
        XCTAssertEqual(pace.csvName, "pace_min_per_mi")
        XCTAssertEqual(pace.convert(5), 5 * 1.609344, accuracy: 1e-9)
        XCTAssertEqual(UnitSystem.metric.show("route_distance_m", spreadsheet: true).title, "Route distance (km)")
    }
}
