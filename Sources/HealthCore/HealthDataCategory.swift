/// The kinds of data a person ranks one phone's platform over the other's for (issue 60: one
/// person across an iPhone and an Android phone; docs/PEOPLE.md, "One person, two phones"),
/// close to Health Connect's own data categories and the Health app's sections.
public enum HealthDataCategory: String, CaseIterable, Sendable, Comparable {
    case activity, body, cycle, heart, nutrition, sleep, vitals, other

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The category of a type identifier (an unknown type: `other`).
    public static func of(_ identifier: String) -> HealthDataCategory {
        if let known = byIdentifier[identifier] { return known }
        if identifier.hasPrefix("HKQuantityTypeIdentifierDietary") { return .nutrition }
        if identifier.hasPrefix("HKQuantityTypeIdentifierDistance") { return .activity }
        return .other
    }

    private static let byIdentifier: [String: HealthDataCategory] = {
        let q = "HKQuantityTypeIdentifier", c = "HKCategoryTypeIdentifier"
        var map: [String: HealthDataCategory] = [:]
        func add(_ category: HealthDataCategory, _ prefix: String, _ names: [String]) {
            for name in names { map[prefix + name] = category }
        }
        add(.activity, q, ["StepCount", "DistanceWalkingRunning", "DistanceCycling", "DistanceSwimming", "DistanceWheelchair",
                           "DistanceDownhillSnowSports", "DistanceCrossCountrySkiing", "DistancePaddleSports",
                           "DistanceRowing", "DistanceSkatingSports", "ActiveEnergyBurned", "BasalEnergyBurned",
                           "TotalEnergyBurned", "FlightsClimbed", "ElevationGained", "AppleExerciseTime", "AppleMoveTime",
                           "AppleStandTime", "PushCount", "SwimmingStrokeCount", "NikeFuel", "Speed", "StepCadence",
                           "CyclingPower", "CyclingSpeed", "CyclingCadence", "CyclingFunctionalThresholdPower",
                           "RunningPower", "RunningSpeed", "RunningStrideLength", "RunningVerticalOscillation",
                           "RunningGroundContactTime", "WalkingSpeed", "WalkingStepLength", "WalkingAsymmetryPercentage",
                           "WalkingDoubleSupportPercentage", "StairAscentSpeed", "StairDescentSpeed",
                           "SixMinuteWalkTestDistance", "AppleWalkingSteadiness", "PhysicalEffort", "VO2Max"])
        add(.activity, c, ["AppleStandHour"])
        add(.body, q, ["BodyMass", "Height", "BodyMassIndex", "BodyFatPercentage", "LeanBodyMass", "WaistCircumference",
                       "BasalMetabolicRate", "BoneMass", "BodyWaterMass"])
        add(.heart, q, ["HeartRate", "RestingHeartRate", "WalkingHeartRateAverage", "HeartRateVariabilitySDNN",
                        "HeartRateVariabilityRMSSD", "HeartRateRecoveryOneMinute", "AtrialFibrillationBurden"])
        add(.heart, c, ["HighHeartRateEvent", "LowHeartRateEvent", "IrregularHeartRhythmEvent"])
        add(.vitals, q, ["OxygenSaturation", "RespiratoryRate", "BodyTemperature", "AppleSleepingWristTemperature",
                         "SkinTemperatureDelta", "BloodPressureSystolic", "BloodPressureDiastolic", "BloodGlucose",
                         "PeripheralPerfusionIndex", "AppleSleepingBreathingDisturbances"])
        add(.sleep, c, ["SleepAnalysis", "SleepApneaEvent"])
        add(.sleep, "", ["HKDataTypeSleepDurationGoal"])
        add(.cycle, q, ["BasalBodyTemperature"])
        add(.cycle, c, ["MenstrualFlow", "MenstrualPeriod", "IntermenstrualBleeding", "PersistentIntermenstrualBleeding",
                        "InfrequentMenstrualCycles", "IrregularMenstrualCycles", "ProlongedMenstrualPeriods",
                        "OvulationTestResult", "CervicalMucusQuality", "SexualActivity", "PregnancyTestResult",
                        "ProgesteroneTestResult", "Contraceptive", "Pregnancy", "Lactation"])
        add(.nutrition, q, ["DietaryWater"])
        return map
    }()
}
