import XCTest
@testable import HealthCore
@testable import HealthNormalize

/// Each record is converted by its own printed unit into the type's canonical unit
/// (docs/FORMAT.md, "Values and units"); what cannot be converted is quarantined with the reason.
final class NormalizeUnitsTests: XCTestCase {
    var normalizer = Normalizer(calendar: LocalCalendar(identifier: "Europe/Berlin")!)

    func normalize(_ type: String, _ value: String, _ unit: String?, metadata: [MetadataEntry] = []) -> Result<Sample, QuarantineEntry> {
        let t = Timestamp(seconds: 1_714_990_000)
        return normalizer.normalize(ExportRecord(type: "HKQuantityTypeIdentifier" + type, source: SourceInfo(name: "x"),
                                                 unit: unit, value: value, startDate: t, endDate: t, metadata: metadata, line: 7))
    }

    func converted(_ type: String, _ value: String, _ unit: String) throws -> (Double, String?) {
        let s = try normalize(type, value, unit).get()
        return (try XCTUnwrap(s.value), s.unit)
    }

    func assertConverts(_ type: String, _ value: String, _ unit: String, _ expected: Double, _ canonical: String,
                        file: StaticString = #filePath, line: UInt = #line) throws {
        let (v, u) = try converted(type, value, unit)
        XCTAssertEqual(v, expected, accuracy: abs(expected) * 1e-12 + 1e-12, "\(value) \(unit)", file: file, line: line)
        XCTAssertEqual(u, canonical, file: file, line: line)
    }

    func testEnergyDistanceMassTemperatureGlucose() throws {
        try assertConverts("ActiveEnergyBurned", "418.4", "kJ", 100, "kcal")
        try assertConverts("ActiveEnergyBurned", "250", "Cal", 250, "kcal")
        try assertConverts("DistanceWalkingRunning", "1", "mi", 1609.344, "m")
        try assertConverts("DistanceWalkingRunning", "2.5", "km", 2500, "m")
        try assertConverts("DistanceWalkingRunning", "100", "yd", 91.44, "m")
        try assertConverts("BodyMass", "150", "lb", 68.0388555, "kg")
        try assertConverts("Height", "70", "in", 1.778, "m")
        try assertConverts("BodyTemperature", "98.6", "degF", 37, "degC")
        // HealthKit's molar glucose unit carries the molar mass: 1 mmol/L = 18.0156 mg/dL.
        try assertConverts("BloodGlucose", "5.5", "mmol<180.1558800000541>/L", 5.5 * 18.01558800000541, "mg/dL")
        try assertConverts("HeartRate", "1.2", "count/s", 72, "count/min")
        try assertConverts("VO2Max", "42.5", "mL/min·kg", 42.5, "mL/min·kg")
        try assertConverts("OxygenSaturation", "0.97", "%", 0.97, "%")
        // %g's exponent form, as Apple prints large values (a day's basal energy in joules).
        try assertConverts("BasalEnergyBurned", "1.23457e+06", "J", 1_234_570 / 4184, "kcal")
        try assertConverts("StepCount", "1.23457e+05", "count", 123_457, "count")
        try assertConverts("DietaryProtein", "0.05", "kg", 50, "g")
        try assertConverts("HeartRateVariabilitySDNN", "0.045", "s", 45, "ms")
    }

    func testUnconvertibleUnitsAreQuarantinedWithTheReason() {
        guard case .failure(let unknown) = normalize("StepCount", "10", "furlongs") else { return XCTFail("converted") }
        XCTAssertEqual(unknown.reason, "unknown unit 'furlongs'")
        XCTAssertEqual(unknown.line, 7)
        guard case .failure(let wrong) = normalize("StepCount", "10", "km") else { return XCTFail("converted") }
        XCTAssertEqual(wrong.reason, "unit 'km' cannot be converted to count")
        guard case .failure(let value) = normalize("StepCount", "ten", "count") else { return XCTFail("converted") }
        XCTAssertEqual(value.reason, "unreadable value 'ten'")
    }

    func testUserEnteredFlag() throws {
        XCTAssertTrue(try normalize("StepCount", "1", "count", metadata: [MetadataEntry(key: "HKWasUserEntered", value: "1")]).get().userEntered)
        XCTAssertFalse(try normalize("StepCount", "1", "count").get().userEntered)
    }

    func testLocalDateComesFromTheZoneNotThePrintedClock() throws {
        // 2024-05-05 22:30 UTC is already May 6 in Berlin (+02:00).
        let t = Timestamp(seconds: 1_714_948_200)
        let s = try normalizer.normalize(ExportRecord(type: "HKQuantityTypeIdentifierStepCount", source: SourceInfo(name: "x"),
                                                      unit: "count", value: "5", startDate: t, endDate: t)).get()
        XCTAssertEqual(s.localDate, CivilDate(year: 2024, month: 5, day: 6))
    }
}

/// A batch through the stage: its records move into samples (`Array.drain`), so order and
/// content must come out exactly as a copy would have given them.
final class NormalizeBatchTests: XCTestCase {
    func testBatchKeepsInputOrderAndSwitchesConversionsBetweenRuns() throws {
        var normalizer = Normalizer(calendar: LocalCalendar(identifier: "UTC")!)
        let t = Timestamp(seconds: 1_714_990_000)
        func record(_ type: String, _ value: String, _ unit: String, line: Int) -> ExportRecord {
            ExportRecord(type: "HKQuantityTypeIdentifier" + type, source: SourceInfo(name: "Watch"), unit: unit, value: value,
                         startDate: t, endDate: t, metadata: [MetadataEntry(key: "k\(line)", value: "v")], line: line)
        }
        var batch = IngestBatch()
        batch.records = [
            record("DistanceWalkingRunning", "1", "mi", line: 1), record("DistanceWalkingRunning", "2", "mi", line: 2),
            record("DistanceWalkingRunning", "1", "km", line: 3), record("StepCount", "5", "km", line: 4),
            record("StepCount", "7", "count", line: 5), record("DistanceWalkingRunning", "3", "mi", line: 6),
        ]
        batch.profile = ExportProfile(characteristics: [:])
        var out: [NormalizedBatch] = []
        try normalizer.handle(batch) { out.append($0) }
        let result = try XCTUnwrap(out.first)
        XCTAssertEqual(out.count, 1)
        XCTAssertEqual(result.samples.map(\.record.line), [1, 2, 3, 5, 6])
        XCTAssertEqual(result.samples.map(\.value), [1609.344, 3218.688, 1000, 7, 4828.032])
        XCTAssertEqual(result.samples.map(\.unit), ["m", "m", "m", "count", "m"])
        XCTAssertEqual(result.samples.map { $0.record.metadata.first?.key }, ["k1", "k2", "k3", "k5", "k6"])
        XCTAssertEqual(result.quarantine.map(\.line), [4])
        XCTAssertEqual(result.quarantine.first?.reason, "unit 'km' cannot be converted to count")
        XCTAssertTrue(result.rest.records.isEmpty)
        XCTAssertNotNil(result.rest.profile)
    }

    /// The normalizer keeps the last type's checks: records of types whose limits differ,
    /// interleaved, must each be judged by their own type (steps' limit, heart rate's, sleep's
    /// two-day span against the 31 days of others, a category type without a value).
    func testEachRecordIsCheckedByItsOwnTypeWhenTypesInterleave() throws {
        var normalizer = Normalizer(calendar: LocalCalendar(identifier: "UTC")!)
        let t = Timestamp(seconds: 1_714_990_000)
        let threeDays = Timestamp(microseconds: t.microseconds + 3 * 86_400_000_000)
        func record(_ type: String, _ value: String?, _ unit: String?, end: Timestamp? = nil, line: Int) -> ExportRecord {
            ExportRecord(type: type, source: SourceInfo(name: "Watch"), unit: unit, value: value,
                         startDate: t, endDate: end ?? t, line: line)
        }
        let steps = "HKQuantityTypeIdentifierStepCount", heart = "HKQuantityTypeIdentifierHeartRate"
        let sleep = "HKCategoryTypeIdentifierSleepAnalysis", mass = "HKQuantityTypeIdentifierBodyMass"
        var batch = IngestBatch()
        batch.records = [
            record(steps, "2000000", "count", line: 1), record(heart, "2000000", "count/min", line: 2),
            record(steps, "900000", "count", line: 3), record(heart, "900000", "count/min", line: 4),
            record(sleep, "HKCategoryValueSleepAnalysisAsleepCore", nil, end: threeDays, line: 5),
            record(steps, "10", "count", end: threeDays, line: 6), record(sleep, nil, nil, line: 7),
            record(steps, nil, "count", line: 8), record(mass, "-3", "kg", line: 9), record(steps, "-3", "count", line: 10),
        ]
        batch.profile = ExportProfile(characteristics: [:])
        var out: [NormalizedBatch] = []
        try normalizer.handle(batch) { out.append($0) }
        let result = try XCTUnwrap(out.first)
        XCTAssertEqual(result.samples.map(\.record.line), [3, 6, 7, 9])
        let expected: [Int: String] = [
            1: try XCTUnwrap(PlausibleValues.problem(with: 2_000_000, of: TypeRegistry.type(for: steps))),
            2: try XCTUnwrap(PlausibleValues.problem(with: 2_000_000, of: TypeRegistry.type(for: heart))),
            4: try XCTUnwrap(PlausibleValues.problem(with: 900_000, of: TypeRegistry.type(for: heart))),
            5: "spans 3 days, more than the 2 days one \(TypeRegistry.type(for: sleep).alias) record may",
            8: "missing value",
            10: try XCTUnwrap(PlausibleValues.problem(with: -3, of: TypeRegistry.type(for: steps))),
        ]
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: result.quarantine.map { ($0.line, $0.reason) }), expected)
        XCTAssertTrue(expected[1]!.contains("1,000,000") && expected[10]!.contains("negative"), "the limits this test relies on")
    }

    func testDrainMovesEveryElementOutInOrder() {
        for count in [0, 1, 2, 5, 6] {
            var items = (0..<count).map { "item \($0) with a long enough text to live on the heap" }
            var seen: [String] = []
            items.drain { seen.append($0) }
            XCTAssertEqual(seen, (0..<count).map { "item \($0) with a long enough text to live on the heap" })
            XCTAssertTrue(items.isEmpty)
        }
    }
}
