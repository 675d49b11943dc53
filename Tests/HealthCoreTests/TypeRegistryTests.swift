import Foundation
import XCTest
@testable import HealthCore
import TestSupport

final class TypeRegistryTests: XCTestCase {
    private let q = "HKQuantityTypeIdentifier"
    private let c = "HKCategoryTypeIdentifier"

    private func known(_ identifier: String, file: StaticString = #filePath, line: UInt = #line) -> HealthType? {
        let found = TypeRegistry.all.first { $0.identifier == identifier }
        XCTAssertNotNil(found, "\(identifier) missing from TypeRegistry.all", file: file, line: line)
        return found
    }

    func testIdentifiersNamesAndAliasesAreUniqueAndDoNotCollide() {
        let all = TypeRegistry.all
        XCTAssertEqual(Set(all.map(\.identifier)).count, all.count, "duplicate identifiers")
        XCTAssertEqual(Set(all.map(\.name)).count, all.count, "duplicate names")
        XCTAssertEqual(Set(all.map(\.alias)).count, all.count, "duplicate aliases")
        let nameOwner = Dictionary(all.map { ($0.name, $0.identifier) }, uniquingKeysWith: { a, _ in a })
        for t in all {
            if let owner = nameOwner[t.alias] {
                XCTAssertEqual(owner, t.identifier, "alias '\(t.alias)' of \(t.identifier) is the name of \(owner)")
            }
            XCTAssertFalse(t.alias.isEmpty, t.identifier)
        }
    }

    func testEveryTypeIsReachableByAliasNameIdentifierAndSuffix() {
        for t in TypeRegistry.all {
            let suffix = t.identifier.hasPrefix(q) ? String(t.identifier.dropFirst(q.count))
                : t.identifier.hasPrefix(c) ? String(t.identifier.dropFirst(c.count)) : t.name
            for text in [t.alias, t.name, t.identifier, suffix, t.alias.uppercased(), t.identifier.lowercased()] {
                XCTAssertEqual(TypeRegistry.lookup(text)?.identifier, t.identifier, "lookup(\"\(text)\")")
            }
            XCTAssertEqual(TypeRegistry.type(for: t.identifier).identifier, t.identifier)
            XCTAssertEqual(TypeRegistry.type(for: t.identifier).alias, t.alias)
        }
    }

    func testEveryQuantityTypeHasACanonicalUnitUnitConverterKnows() {
        var quantities = 0
        for t in TypeRegistry.all {
            switch t.kind {
            case .category:
                XCTAssertNil(t.canonicalUnit, t.identifier)
                XCTAssertEqual(t.aggregation, .category, t.identifier)
            case .quantity:
                quantities += 1
                XCTAssertNotEqual(t.aggregation, .category, t.identifier)
                guard let unit = t.canonicalUnit else { XCTFail("\(t.identifier) has no canonical unit"); continue }
                // Known, and a valid conversion target within its own dimension.
                XCTAssertEqual(UnitConverter.conversion(for: unit, to: unit)?.canonicalUnit, unit,
                               "\(t.identifier): UnitConverter does not know '\(unit)'")
            }
        }
        XCTAssertGreaterThan(quantities, 100)
    }

    /// Display units seen in real exports must convert into the type's canonical unit (same dimension).
    func testRealDisplayUnitsConvertIntoCanonicalUnits() throws {
        let cases: [(String, String, Double, Double)] = [  // identifier, raw unit, raw value, canonical value
            (q + "HeartRate", "count/s", 1.5, 90),
            (q + "DistanceWalkingRunning", "mi", 1, 1609.344),
            (q + "DistanceCycling", "km", 2, 2000),
            (q + "ActiveEnergyBurned", "kJ", 4.184, 1),
            (q + "BasalEnergyBurned", "Cal", 3, 3),
            (q + "WalkingSpeed", "km/hr", 3.6, 1),
            (q + "WalkingStepLength", "cm", 70, 0.7),
            (q + "RunningVerticalOscillation", "cm", 9, 0.09),
            (q + "Height", "ft", 1, 0.3048),
            (q + "BodyMass", "lb", 1, 0.45359237),
            (q + "DietaryVitaminA", "mcg", 1000, 0.001),
            (q + "DietaryCalcium", "mg", 500, 0.5),
            (q + "DietaryWater", "mL", 250, 0.25),
            (q + "DietaryEnergyConsumed", "kcal", 500, 500),
            (q + "BloodGlucose", "mmol<180.1558800000541>/L", 10, 180.1558800000541),
            (q + "VO2Max", "mL/kg·min", 42, 42),
            (q + "HeartRateVariabilitySDNN", "ms", 60, 60),
            (q + "RunningGroundContactTime", "ms", 250, 250),
            (q + "AppleExerciseTime", "min", 30, 30),
            (q + "BodyTemperature", "degF", 98.6, 37),
            ("HKDataTypeSleepDurationGoal", "hr", 8, 480),
        ]
        for (identifier, raw, value, expected) in cases {
            let target = try XCTUnwrap(known(identifier)?.canonicalUnit, identifier)
            let conversion = try XCTUnwrap(UnitConverter.conversion(for: raw, to: target), "\(identifier) \(raw)")
            XCTAssertEqual(conversion.canonicalUnit, target, "\(identifier): \(raw) is not of \(target)'s dimension")
            XCTAssertEqual(conversion.apply(value), expected, accuracy: 1e-9 * max(1, abs(expected)), identifier)
        }
    }

    func testLookupAcceptsAliasNameSuffixAndIdentifierInAnyCase() {
        for text in ["steps", "step_count", "StepCount", "HKQuantityTypeIdentifierStepCount", "STEPS", " Steps\n",
                     "step count", "step-count"] {
            XCTAssertEqual(TypeRegistry.lookup(text)?.identifier, q + "StepCount", "lookup(\"\(text)\")")
        }
        XCTAssertEqual(TypeRegistry.lookup("HRV")?.identifier, q + "HeartRateVariabilitySDNN")
        XCTAssertEqual(TypeRegistry.lookup("sleepanalysis")?.identifier, c + "SleepAnalysis")
        XCTAssertNil(TypeRegistry.lookup("stepz"))
        XCTAssertNil(TypeRegistry.lookup(""))
        XCTAssertNil(TypeRegistry.lookup("HKQuantityTypeIdentifierFutureThing"))
    }

    func testUnknownIdentifiersAreDerivedNotRejected() {
        let future = TypeRegistry.type(for: "HKQuantityTypeIdentifierFutureThing")
        XCTAssertEqual(future.identifier, "HKQuantityTypeIdentifierFutureThing")
        XCTAssertEqual(future.name, "future_thing")
        XCTAssertEqual(future.alias, "future_thing")
        XCTAssertEqual(future.kind, .quantity)
        XCTAssertEqual(future.aggregation, .discrete)
        XCTAssertNil(future.canonicalUnit)
        XCTAssertEqual(TypeRegistry.type(for: "HKQuantityTypeIdentifierFutureThing").name, "future_thing")  // cached

        let event = TypeRegistry.type(for: "HKCategoryTypeIdentifierSomeNewEvent")
        XCTAssertEqual(event.name, "some_new_event")
        XCTAssertEqual(event.kind, .category)
        XCTAssertEqual(event.aggregation, .category)
        XCTAssertNil(event.canonicalUnit)

        XCTAssertEqual(TypeRegistry.type(for: "HKDataTypeIdentifierHeartbeatSeries").name, "heartbeat_series")
        XCTAssertEqual(TypeRegistry.type(for: "").name, "unknown")
        XCTAssertFalse(TypeRegistry.all.contains { $0.identifier.hasSuffix("FutureThing") })
    }

    func testAggregations() {
        XCTAssertEqual(known(q + "HeartRate")?.aggregation, .timeWeighted)
        XCTAssertEqual(known(q + "StepCount")?.aggregation, .cumulative)
        XCTAssertEqual(known(q + "EnvironmentalAudioExposure")?.aggregation, .leq)
        XCTAssertEqual(known(q + "HeadphoneAudioExposure")?.aggregation, .leq)
        XCTAssertEqual(known(q + "BodyMass")?.aggregation, .discrete)
        XCTAssertEqual(known(c + "SleepAnalysis")?.aggregation, .category)
        XCTAssertEqual(TypeRegistry.all.filter { $0.aggregation == .timeWeighted }.map(\.identifier), [q + "HeartRate"])
        for cumulative in ["ActiveEnergyBurned", "BasalEnergyBurned", "DistanceWalkingRunning", "DistanceSwimming",
                           "FlightsClimbed", "AppleExerciseTime", "AppleStandTime", "SwimmingStrokeCount",
                           "PushCount", "NikeFuel", "DietaryProtein", "DietaryWater", "DietaryCaffeine",
                           "TimeInDaylight", "NumberOfTimesFallen", "InhalerUsage", "InsulinDelivery",
                           "NumberOfAlcoholicBeverages"] {
            XCTAssertEqual(known(q + cumulative)?.aggregation, .cumulative, cumulative)
        }
        for discrete in ["BloodPressureSystolic", "BloodGlucose", "OxygenSaturation", "HeartRateVariabilitySDNN",
                         "WalkingSpeed", "RestingHeartRate", "VO2Max", "BodyTemperature", "SixMinuteWalkTestDistance"] {
            XCTAssertEqual(known(q + discrete)?.aggregation, .discrete, discrete)
        }
        // Every Dietary* type is intake: summed.
        for t in TypeRegistry.all where t.identifier.hasPrefix(q + "Dietary") {
            XCTAssertEqual(t.aggregation, .cumulative, t.identifier)
        }
    }

    func testNamesAreSnakeCaseOfTheSuffix() {
        let expected = [
            "StepCount": "step_count", "HeartRateVariabilitySDNN": "heart_rate_variability_sdnn", "VO2Max": "vo2_max",
            "DietaryVitaminB6": "dietary_vitamin_b6", "DietaryVitaminB12": "dietary_vitamin_b12",
            "UVExposure": "uv_exposure", "ForcedExpiratoryVolume1": "forced_expiratory_volume1",
            "HeartRateRecoveryOneMinute": "heart_rate_recovery_one_minute", "NikeFuel": "nike_fuel",
        ]
        for (suffix, name) in expected { XCTAssertEqual(known(q + suffix)?.name, name, suffix) }
        XCTAssertEqual(known(c + "RapidPoundingOrFlutteringHeartbeat")?.name, "rapid_pounding_or_fluttering_heartbeat")
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_")
        for t in TypeRegistry.all {
            for n in [t.name, t.alias] {
                XCTAssertTrue(n.allSatisfy(allowed.contains) && !n.contains("__") && !n.hasPrefix("_")
                              && !n.hasSuffix("_"), "\(t.identifier): '\(n)'")
            }
        }
    }

    func testAliases() {
        let aliases = [
            "steps": "StepCount", "heart_rate": "HeartRate", "active_energy": "ActiveEnergyBurned",
            "resting_energy": "BasalEnergyBurned", "walking_running_distance": "DistanceWalkingRunning",
            "cycling_distance": "DistanceCycling", "flights": "FlightsClimbed", "exercise_time": "AppleExerciseTime",
            "stand_time": "AppleStandTime", "hrv": "HeartRateVariabilitySDNN", "spo2": "OxygenSaturation",
            "weight": "BodyMass", "glucose": "BloodGlucose", "systolic": "BloodPressureSystolic",
            "diastolic": "BloodPressureDiastolic", "resting_heart_rate": "RestingHeartRate", "vo2max": "VO2Max",
        ]
        for (alias, suffix) in aliases { XCTAssertEqual(known(q + suffix)?.alias, alias, suffix) }
        XCTAssertEqual(known(c + "SleepAnalysis")?.alias, "sleep_analysis")
        XCTAssertEqual(known(c + "MindfulSession")?.alias, "mindful")
        XCTAssertEqual(known(c + "AppleStandHour")?.alias, "stand_hour")
    }

    func testCanonicalUnitsOfCommonTypes() {
        let units = [
            "StepCount": "count", "DistanceWalkingRunning": "m", "ActiveEnergyBurned": "kcal", "BodyMass": "kg",
            "DietaryProtein": "g", "DietaryEnergyConsumed": "kcal", "DietaryWater": "L", "AppleExerciseTime": "min",
            "HeartRateVariabilitySDNN": "ms", "RunningGroundContactTime": "ms", "HeartRate": "count/min",
            "BodyTemperature": "degC", "WalkingSpeed": "m/s", "VO2Max": "mL/min\u{B7}kg", "BloodGlucose": "mg/dL",
            "OxygenSaturation": "%", "BloodPressureSystolic": "mmHg", "ForcedVitalCapacity": "L",
            "HeadphoneAudioExposure": "dBASPL", "RunningPower": "W", "WorkoutEffortScore": "appleEffortScore",
            "ElectrodermalActivity": "S", "InsulinDelivery": "IU", "Height": "m",
        ]
        for (suffix, unit) in units { XCTAssertEqual(known(q + suffix)?.canonicalUnit, unit, suffix) }
    }

    /// The types of iOS 18 / watchOS 11 that the brief names must all be present, with the right kind.
    func testCoversHealthKitIdentifiers() {
        let quantities = """
            StepCount DistanceWalkingRunning DistanceCycling DistanceSwimming DistanceWheelchair DistanceDownhillSnowSports
            DistanceCrossCountrySkiing DistancePaddleSports DistanceRowing DistanceSkatingSports PushCount
            SwimmingStrokeCount FlightsClimbed NikeFuel AppleExerciseTime AppleStandTime AppleMoveTime ActiveEnergyBurned
            BasalEnergyBurned PhysicalEffort CyclingSpeed CyclingPower CyclingCadence CyclingFunctionalThresholdPower
            RunningSpeed RunningPower RunningStrideLength RunningVerticalOscillation RunningGroundContactTime
            WalkingSpeed WalkingStepLength WalkingDoubleSupportPercentage WalkingAsymmetryPercentage
            SixMinuteWalkTestDistance StairAscentSpeed StairDescentSpeed AppleWalkingSteadiness HeartRate
            RestingHeartRate WalkingHeartRateAverage HeartRateVariabilitySDNN HeartRateRecoveryOneMinute
            AtrialFibrillationBurden OxygenSaturation BodyTemperature BasalBodyTemperature AppleSleepingWristTemperature
            BloodPressureSystolic BloodPressureDiastolic RespiratoryRate VO2Max PeripheralPerfusionIndex BloodGlucose
            BloodAlcoholContent InsulinDelivery ElectrodermalActivity ForcedVitalCapacity ForcedExpiratoryVolume1
            PeakExpiratoryFlowRate InhalerUsage NumberOfTimesFallen NumberOfAlcoholicBeverages EnvironmentalAudioExposure
            HeadphoneAudioExposure EnvironmentalSoundReduction DietaryWater DietaryCaffeine DietaryEnergyConsumed
            DietaryVitaminB6 UVExposure UnderwaterDepth WaterTemperature TimeInDaylight AppleSleepingBreathingDisturbances
            BodyMass Height BodyMassIndex BodyFatPercentage LeanBodyMass WaistCircumference
            """
        let categories = """
            SleepAnalysis AppleStandHour MindfulSession SexualActivity Headache Fatigue Nausea HighHeartRateEvent
            LowHeartRateEvent IrregularHeartRhythmEvent LowCardioFitnessEvent AudioExposureEvent
            HeadphoneAudioExposureEvent EnvironmentalAudioExposureEvent ToothbrushingEvent HandwashingEvent MenstrualFlow
            OvulationTestResult CervicalMucusQuality IntermenstrualBleeding Pregnancy Lactation Contraceptive
            AppleWalkingSteadinessEvent SleepApneaEvent
            """
        for s in quantities.split(whereSeparator: \.isWhitespace) { XCTAssertEqual(known(q + s)?.kind, .quantity, String(s)) }
        for s in categories.split(whereSeparator: \.isWhitespace) { XCTAssertEqual(known(c + s)?.kind, .category, String(s)) }
        XCTAssertEqual(TypeRegistry.all.filter { $0.identifier.hasPrefix(q + "Dietary") }.count, 39)
        for t in TypeRegistry.all {
            XCTAssertEqual(t.kind == .category, t.identifier.hasPrefix(c), t.identifier)
        }
    }

    func testOrderIsGroupedAndCategoriesComeLast() throws {
        let all = TypeRegistry.all
        XCTAssertEqual(all.first?.identifier, q + "StepCount")
        let firstCategory = try XCTUnwrap(all.firstIndex { $0.kind == .category })
        XCTAssertEqual(all[firstCategory].identifier, c + "SleepAnalysis")
        XCTAssertTrue(all[firstCategory...].allSatisfy { $0.kind == .category })
        let heartRate = try XCTUnwrap(all.firstIndex { $0.identifier == q + "HeartRate" })
        let bodyMass = try XCTUnwrap(all.firstIndex { $0.identifier == q + "BodyMass" })
        let protein = try XCTUnwrap(all.firstIndex { $0.identifier == q + "DietaryProtein" })
        XCTAssertTrue(heartRate < bodyMass && bodyMass < protein && protein < firstCategory)
    }

    func testAllNamesListsEveryAliasAndNameOnce() {
        let names = TypeRegistry.allNames
        XCTAssertEqual(Set(names).count, names.count)
        for t in TypeRegistry.all {
            XCTAssertTrue(names.contains(t.alias), t.alias)
            XCTAssertTrue(names.contains(t.name), t.name)
        }
        XCTAssertEqual(names.first, "steps")
    }

    /// Every Record type in the real exports is a registry entry, not a derived one.
    func testRealExportRecordTypesAreKnown() throws {
        let files = ["rgosdin__docs/apple_health_export/export.xml",
                     "bwassim__Health-Data-Analysis/apple_health_export/export.xml",
                     "robmarkcole__applehealthdata/apple_health_export/export.xml",
                     "ashtom__hkimport/export.xml", "grll__apple-health-mcp/export.xml",
                     "danecollins__fitness/export_small.xml", "tdda__applehealthdata/export6s3sample.xml",
                     "ericwolter__apple-healthkit-csv/export.xml"]
        var seen = Set<String>()
        for file in files {
            let path = try TestPaths.realExport(file)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            seen.formUnion(recordTypes(in: bytes))
        }
        XCTAssertGreaterThan(seen.count, 50)
        let knownIDs = Set(TypeRegistry.all.map(\.identifier))
        XCTAssertEqual(seen.subtracting(knownIDs).sorted(), [])
    }

    /// The `type` attribute of every `<Record …>` start tag (a plain byte scan: fast in debug builds too).
    private func recordTypes(in bytes: [UInt8]) -> Set<String> {
        let record = Array("<Record ".utf8), type = Array(" type=\"".utf8)
        func matches(_ pattern: [UInt8], at i: Int) -> Bool {
            i + pattern.count <= bytes.count && bytes[i..<i + pattern.count].elementsEqual(pattern)
        }
        var found = Set<String>(), i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<"), matches(record, at: i) else { i += 1; continue }
            i += record.count - 1  // keep the space: `type` is often the first attribute
            while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
                if bytes[i] == UInt8(ascii: " "), matches(type, at: i) {
                    let start = i + type.count
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
                    found.insert(String(decoding: bytes[start..<end], as: UTF8.self))
                    i = end
                }
                i += 1
            }
        }
        return found
    }
}
