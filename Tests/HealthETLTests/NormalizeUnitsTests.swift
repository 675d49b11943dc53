import XCTest
@testable import HealthCore
@testable import HealthNormalize

/// Each record is converted by its own printed unit into the type's canonical unit
/// (FORMAT.md "Values and units"); what cannot be converted is quarantined with the reason.
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
        try assertConverts("StepCount", "1.23457e+06", "count", 1_234_570, "count")
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
