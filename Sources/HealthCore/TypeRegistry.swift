import Synchronization

/// Whether a type's records carry a number with a unit (`HKQuantityTypeIdentifier…`) or an enum value
/// (`HKCategoryTypeIdentifier…`).
public enum HealthTypeKind: String, Sendable { case quantity, category }

/// How values of a type combine over a period (docs/FORMAT.md, "How a day is counted").
public enum Aggregation: String, Sendable {
    /// Summed, merged across sources by priority (steps, distances, energy, flights, exercise/stand
    /// minutes, strokes, dietary intake, push count, NikeFuel, time in daylight, falls, inhaler usage,
    /// insulin delivery, alcoholic beverages, water …).
    case cumulative
    /// Arithmetic mean / min / max (body mass, blood pressure, glucose, SpO2, HRV, speeds, UV index …).
    case discrete
    /// Time-weighted mean: heart rate only (HeartRate).
    case timeWeighted
    /// Sound levels in dBASPL: energy (LEQ) average.
    case leq
    /// Category types.
    case category
}

/// One HealthKit quantity or category type, with the names users type and the unit values are stored in.
public struct HealthType: Sendable, Hashable {
    /// The full identifier as it appears in `Record@type`: "HKQuantityTypeIdentifierStepCount".
    public let identifier: String
    /// snake_case of the part after the prefix: "step_count", "heart_rate_variability_sdnn", "vo2_max".
    public let name: String
    /// Short alias ("steps", "hrv", "weight"); equal to `name` when no shorter alias is obvious.
    public let alias: String
    public let kind: HealthTypeKind
    public let aggregation: Aggregation
    /// The unit values are converted into (a unit `UnitConverter` knows); nil for category types and
    /// for quantity types the registry does not know.
    public let canonicalUnit: String?

    // The identifier determines every other field, so it alone is hashed and compared.
    public static func == (a: HealthType, b: HealthType) -> Bool { a.identifier == b.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

/// Every HealthKit quantity and category type identifier of iOS 18 / watchOS 11 (HKTypeIdentifiers.h),
/// plus the deprecated `AudioExposureEvent` and `HKDataTypeSleepDurationGoal`, which real exports contain.
public enum TypeRegistry {
    /// Known types in a stable order, grouped: activity, vitals, body, lab, hearing, nutrition, other, categories.
    public static let all: [HealthType] = activity + vitals + body + lab + hearing + nutrition + other + healthConnect
        + categories + healthConnectCategories

    /// The registry entry, or one derived from the identifier for types Apple adds later
    /// (name = alias = snake_case, quantity → discrete with unit nil, category → category). Never fails.
    public static func type(for identifier: String) -> HealthType {
        if let known = byIdentifier[identifier] { return known }
        return derivedCache.withLock { cache in
            if let seen = cache[identifier] { return seen }
            let made = derive(identifier)
            if cache.count < maxDerivedCached { cache[identifier] = made }
            return made
        }
    }

    /// Resolves a user-typed name: alias, snake_case name, the full identifier, or the suffix ("StepCount");
    /// case-insensitive. nil when unknown.
    public static func lookup(_ text: String) -> HealthType? {
        byText[normalized(text)]
    }

    /// Known names and aliases for suggestions ("Did you mean 'steps'?"): each type's alias, then its
    /// name when different, in registry order.
    public static var allNames: [String] { names }

    // MARK: - Tables

    private static func q(_ suffix: String, _ alias: String?, _ aggregation: Aggregation, _ unit: String) -> HealthType {
        let name = snakeCase(suffix)
        return HealthType(identifier: quantityPrefix + suffix, name: name, alias: alias ?? name, kind: .quantity,
                          aggregation: aggregation, canonicalUnit: unit)
    }
    private static func q(_ suffix: String, _ aggregation: Aggregation, _ unit: String) -> HealthType {
        q(suffix, nil, aggregation, unit)
    }
    private static func c(_ suffix: String, _ alias: String? = nil) -> HealthType {
        let name = snakeCase(suffix)
        return HealthType(identifier: categoryPrefix + suffix, name: name, alias: alias ?? name, kind: .category,
                          aggregation: .category, canonicalUnit: nil)
    }

    private static let activity: [HealthType] = [
        q("StepCount", "steps", .cumulative, "count"),
        q("DistanceWalkingRunning", "walking_running_distance", .cumulative, "m"),
        q("DistanceCycling", "cycling_distance", .cumulative, "m"),
        q("DistanceSwimming", "swimming_distance", .cumulative, "m"),
        q("DistanceWheelchair", "wheelchair_distance", .cumulative, "m"),
        q("DistanceDownhillSnowSports", "downhill_snow_sports_distance", .cumulative, "m"),
        q("DistanceCrossCountrySkiing", "cross_country_skiing_distance", .cumulative, "m"),
        q("DistancePaddleSports", "paddle_sports_distance", .cumulative, "m"),
        q("DistanceRowing", "rowing_distance", .cumulative, "m"),
        q("DistanceSkatingSports", "skating_sports_distance", .cumulative, "m"),
        q("PushCount", "pushes", .cumulative, "count"),
        q("SwimmingStrokeCount", "swimming_strokes", .cumulative, "count"),
        q("FlightsClimbed", "flights", .cumulative, "count"),
        q("NikeFuel", .cumulative, "count"),
        q("AppleExerciseTime", "exercise_time", .cumulative, "min"),
        q("AppleStandTime", "stand_time", .cumulative, "min"),
        q("AppleMoveTime", "move_time", .cumulative, "min"),
        q("ActiveEnergyBurned", "active_energy", .cumulative, "kcal"),
        q("BasalEnergyBurned", "resting_energy", .cumulative, "kcal"),
        q("PhysicalEffort", .discrete, "kcal/hr·kg"),  // kcal/(kg·hr), i.e. METs
        q("WorkoutEffortScore", "effort_score", .discrete, "appleEffortScore"),
        q("EstimatedWorkoutEffortScore", "estimated_effort_score", .discrete, "appleEffortScore"),
        q("CyclingSpeed", .discrete, "m/s"),
        q("CyclingPower", .discrete, "W"),
        q("CyclingCadence", .discrete, "count/min"),
        q("CyclingFunctionalThresholdPower", "ftp", .discrete, "W"),
        q("RunningSpeed", .discrete, "m/s"),
        q("RunningPower", .discrete, "W"),
        q("RunningStrideLength", "stride_length", .discrete, "m"),
        q("RunningVerticalOscillation", "vertical_oscillation", .discrete, "m"),
        q("RunningGroundContactTime", "ground_contact_time", .discrete, "ms"),
        q("CrossCountrySkiingSpeed", .discrete, "m/s"),
        q("PaddleSportsSpeed", .discrete, "m/s"),
        q("RowingSpeed", .discrete, "m/s"),
        q("WalkingSpeed", .discrete, "m/s"),
        q("WalkingStepLength", "step_length", .discrete, "m"),
        q("WalkingDoubleSupportPercentage", "double_support", .discrete, "%"),
        q("WalkingAsymmetryPercentage", "walking_asymmetry", .discrete, "%"),
        q("SixMinuteWalkTestDistance", "six_minute_walk", .discrete, "m"),
        q("StairAscentSpeed", .discrete, "m/s"),
        q("StairDescentSpeed", .discrete, "m/s"),
        q("AppleWalkingSteadiness", "walking_steadiness", .discrete, "%"),
    ]

    private static let vitals: [HealthType] = [
        q("HeartRate", "heart_rate", .timeWeighted, "count/min"),
        q("RestingHeartRate", "resting_heart_rate", .discrete, "count/min"),
        q("WalkingHeartRateAverage", "walking_heart_rate", .discrete, "count/min"),
        q("HeartRateVariabilitySDNN", "hrv", .discrete, "ms"),
        q("HeartRateRecoveryOneMinute", "heart_rate_recovery", .discrete, "count/min"),
        q("AtrialFibrillationBurden", "afib_burden", .discrete, "%"),
        q("OxygenSaturation", "spo2", .discrete, "%"),
        q("RespiratoryRate", .discrete, "count/min"),
        q("BodyTemperature", .discrete, "degC"),
        q("BasalBodyTemperature", "basal_temperature", .discrete, "degC"),
        q("AppleSleepingWristTemperature", "wrist_temperature", .discrete, "degC"),
        q("BloodPressureSystolic", "systolic", .discrete, "mmHg"),
        q("BloodPressureDiastolic", "diastolic", .discrete, "mmHg"),
        q("VO2Max", "vo2max", .discrete, "mL/min·kg"),
        q("PeripheralPerfusionIndex", "perfusion_index", .discrete, "%"),
        q("AppleSleepingBreathingDisturbances", "breathing_disturbances", .discrete, "count"),
    ]

    private static let body: [HealthType] = [
        q("BodyMass", "weight", .discrete, "kg"),
        q("Height", .discrete, "m"),
        q("BodyMassIndex", "bmi", .discrete, "count"),
        q("BodyFatPercentage", "body_fat", .discrete, "%"),
        q("LeanBodyMass", "lean_mass", .discrete, "kg"),
        q("WaistCircumference", "waist", .discrete, "m"),
    ]

    private static let lab: [HealthType] = [
        q("BloodGlucose", "glucose", .discrete, "mg/dL"),
        q("BloodAlcoholContent", "blood_alcohol", .discrete, "%"),
        q("InsulinDelivery", "insulin", .cumulative, "IU"),
        q("ElectrodermalActivity", "electrodermal", .discrete, "S"),
        q("ForcedVitalCapacity", "fvc", .discrete, "L"),
        q("ForcedExpiratoryVolume1", "fev1", .discrete, "L"),
        // UnitConverter has no flow dimension yet: raw "L/min" values pass through unconverted.
        q("PeakExpiratoryFlowRate", "peak_flow", .discrete, "L/min"),
        q("InhalerUsage", "inhaler", .cumulative, "count"),
        q("NumberOfTimesFallen", "falls", .cumulative, "count"),
        q("NumberOfAlcoholicBeverages", "alcoholic_beverages", .cumulative, "count"),
    ]

    private static let hearing: [HealthType] = [
        q("EnvironmentalAudioExposure", "environmental_audio", .leq, "dBASPL"),
        q("HeadphoneAudioExposure", "headphone_audio", .leq, "dBASPL"),
        // Apple aggregates the reduction as an equivalent continuous level too.
        q("EnvironmentalSoundReduction", "sound_reduction", .leq, "dBASPL"),
    ]

    private static let nutrition: [HealthType] = [
        q("DietaryEnergyConsumed", "dietary_energy", .cumulative, "kcal"),
        q("DietaryProtein", "protein", .cumulative, "g"),
        q("DietaryCarbohydrates", "carbs", .cumulative, "g"),
        q("DietaryFiber", "fiber", .cumulative, "g"),
        q("DietarySugar", "sugar", .cumulative, "g"),
        q("DietaryFatTotal", "fat", .cumulative, "g"),
        q("DietaryFatSaturated", "saturated_fat", .cumulative, "g"),
        q("DietaryFatMonounsaturated", "monounsaturated_fat", .cumulative, "g"),
        q("DietaryFatPolyunsaturated", "polyunsaturated_fat", .cumulative, "g"),
        q("DietaryCholesterol", "cholesterol", .cumulative, "g"),
        q("DietarySodium", "sodium", .cumulative, "g"),
        q("DietaryPotassium", "potassium", .cumulative, "g"),
        q("DietaryChloride", "chloride", .cumulative, "g"),
        q("DietaryCalcium", "calcium", .cumulative, "g"),
        q("DietaryIron", "iron", .cumulative, "g"),
        q("DietaryMagnesium", "magnesium", .cumulative, "g"),
        q("DietaryPhosphorus", "phosphorus", .cumulative, "g"),
        q("DietaryZinc", "zinc", .cumulative, "g"),
        q("DietaryCopper", "copper", .cumulative, "g"),
        q("DietaryManganese", "manganese", .cumulative, "g"),
        q("DietarySelenium", "selenium", .cumulative, "g"),
        q("DietaryChromium", "chromium", .cumulative, "g"),
        q("DietaryMolybdenum", "molybdenum", .cumulative, "g"),
        q("DietaryIodine", "iodine", .cumulative, "g"),
        q("DietaryVitaminA", "vitamin_a", .cumulative, "g"),
        q("DietaryVitaminB6", "vitamin_b6", .cumulative, "g"),
        q("DietaryVitaminB12", "vitamin_b12", .cumulative, "g"),
        q("DietaryVitaminC", "vitamin_c", .cumulative, "g"),
        q("DietaryVitaminD", "vitamin_d", .cumulative, "g"),
        q("DietaryVitaminE", "vitamin_e", .cumulative, "g"),
        q("DietaryVitaminK", "vitamin_k", .cumulative, "g"),
        q("DietaryThiamin", "thiamin", .cumulative, "g"),
        q("DietaryRiboflavin", "riboflavin", .cumulative, "g"),
        q("DietaryNiacin", "niacin", .cumulative, "g"),
        q("DietaryFolate", "folate", .cumulative, "g"),
        q("DietaryBiotin", "biotin", .cumulative, "g"),
        q("DietaryPantothenicAcid", "pantothenic_acid", .cumulative, "g"),
        q("DietaryCaffeine", "caffeine", .cumulative, "g"),
        q("DietaryWater", "water", .cumulative, "L"),
    ]

    private static let other: [HealthType] = [
        // Apple: "the UV index the user was exposed to", Discrete (Arithmetic): averaged, never summed.
        q("UVExposure", "uv_index", .discrete, "count"),
        q("TimeInDaylight", "daylight", .cumulative, "min"),
        q("UnderwaterDepth", .discrete, "m"),
        q("WaterTemperature", .discrete, "degC"),
        // Not an HKQuantityTypeIdentifier, but real iOS 14+ exports carry it as a Record type (unit "hr").
        HealthType(identifier: "HKDataTypeSleepDurationGoal", name: "sleep_duration_goal", alias: "sleep_goal",
                   kind: .quantity, aggregation: .discrete, canonicalUnit: "min"),
    ]

    /// Health Connect's records that HealthKit has no type for (docs/HEALTH_CONNECT.md): named
    /// in HealthKit's form, so that they are stored, counted and queried like every other type.
    private static let healthConnect: [HealthType] = [
        q("HeartRateVariabilityRMSSD", "hrv_rmssd", .discrete, "ms"),
        q("TotalEnergyBurned", "total_energy", .cumulative, "kcal"),
        q("ElevationGained", "elevation_gained", .cumulative, "m"),
        q("BasalMetabolicRate", "basal_metabolic_rate", .discrete, "kcal/d"),
        q("BoneMass", "bone_mass", .discrete, "kg"),
        q("BodyWaterMass", "body_water_mass", .discrete, "kg"),
        q("Speed", "speed", .discrete, "m/s"),
        q("StepCadence", "step_cadence", .discrete, "count/min"),
        q("SkinTemperatureDelta", "skin_temperature_delta", .discrete, "degC"),
    ]
    private static let healthConnectCategories: [HealthType] = [c("MenstrualPeriod", "menstrual_period")]

    private static let categories: [HealthType] = [
        c("SleepAnalysis"),
        c("AppleStandHour", "stand_hour"),
        c("MindfulSession", "mindful"),
        c("SexualActivity"),
        c("HighHeartRateEvent", "high_heart_rate"),
        c("LowHeartRateEvent", "low_heart_rate"),
        c("IrregularHeartRhythmEvent", "irregular_rhythm"),
        c("LowCardioFitnessEvent", "low_cardio_fitness"),
        c("AudioExposureEvent"),  // iOS 13 only; replaced by EnvironmentalAudioExposureEvent
        c("EnvironmentalAudioExposureEvent", "environmental_audio_event"),
        c("HeadphoneAudioExposureEvent", "headphone_audio_event"),
        c("ToothbrushingEvent", "toothbrushing"),
        c("HandwashingEvent", "handwashing"),
        c("AppleWalkingSteadinessEvent", "walking_steadiness_event"),
        c("SleepApneaEvent", "sleep_apnea"),
        // Reproductive health.
        c("MenstrualFlow"),
        c("IntermenstrualBleeding", "spotting"),
        c("PersistentIntermenstrualBleeding", "persistent_spotting"),
        c("InfrequentMenstrualCycles"),
        c("IrregularMenstrualCycles"),
        c("ProlongedMenstrualPeriods"),
        c("OvulationTestResult", "ovulation_test"),
        c("PregnancyTestResult", "pregnancy_test"),
        c("ProgesteroneTestResult", "progesterone_test"),
        c("CervicalMucusQuality", "cervical_mucus"),
        c("Pregnancy"),
        c("Lactation"),
        c("Contraceptive"),
        c("BleedingDuringPregnancy"),
        c("BleedingAfterPregnancy"),
        // Symptoms.
        c("AbdominalCramps"),
        c("Acne"),
        c("AppetiteChanges"),
        c("BladderIncontinence"),
        c("Bloating"),
        c("BreastPain"),
        c("ChestTightnessOrPain", "chest_pain"),
        c("Chills"),
        c("Constipation"),
        c("Coughing"),
        c("Diarrhea"),
        c("Dizziness"),
        c("DrySkin"),
        c("Fainting"),
        c("Fatigue"),
        c("Fever"),
        c("GeneralizedBodyAche", "body_ache"),
        c("HairLoss"),
        c("Headache"),
        c("Heartburn"),
        c("HotFlashes"),
        c("LossOfSmell"),
        c("LossOfTaste"),
        c("LowerBackPain"),
        c("MemoryLapse"),
        c("MoodChanges"),
        c("Nausea"),
        c("NightSweats"),
        c("PelvicPain"),
        c("RapidPoundingOrFlutteringHeartbeat", "palpitations"),
        c("RunnyNose"),
        c("ShortnessOfBreath"),
        c("SinusCongestion"),
        c("SkippedHeartbeat"),
        c("SleepChanges"),
        c("SoreThroat"),
        c("VaginalDryness"),
        c("Vomiting"),
        c("Wheezing"),
    ]

    // MARK: - Indexes (built once)

    private static let quantityPrefix = "HKQuantityTypeIdentifier"
    private static let categoryPrefix = "HKCategoryTypeIdentifier"

    /// Exact identifier → type: the hot path. First entry wins (the tests check there are no duplicates).
    private static let byIdentifier: [String: HealthType] = {
        var map: [String: HealthType] = [:]
        map.reserveCapacity(all.count)
        for t in all where map[t.identifier] == nil { map[t.identifier] = t }
        return map
    }()

    /// Normalized alias, name, identifier and suffix → type. First entry wins (the tests check that every
    /// type is reachable by all four).
    private static let byText: [String: HealthType] = {
        var map: [String: HealthType] = [:]
        map.reserveCapacity(all.count * 4)
        for t in all {
            for key in [t.alias, t.name, t.identifier, String(suffix(of: t.identifier))] {
                let k = normalized(key)
                if map[k] == nil { map[k] = t }
            }
        }
        return map
    }()

    private static let names: [String] = {
        var seen = Set<String>(), out: [String] = []
        for t in all {
            for n in [t.alias, t.name] where seen.insert(n).inserted { out.append(n) }
        }
        return out
    }()

    /// Types derived for identifiers the registry does not know, so a new type met millions of times
    /// is derived once. Bounded: garbage identifiers cannot grow it without limit.
    private static let derivedCache = Mutex<[String: HealthType]>([:])
    private static let maxDerivedCached = 4096

    // MARK: - Helpers

    private static func derive(_ identifier: String) -> HealthType {
        var name = snakeCase(suffix(of: identifier))
        if name.isEmpty { name = snakeCase(identifier) }
        if name.isEmpty { name = "unknown" }
        if identifier.hasPrefix(categoryPrefix) {
            return HealthType(identifier: identifier, name: name, alias: name, kind: .category,
                              aggregation: .category, canonicalUnit: nil)
        }
        return HealthType(identifier: identifier, name: name, alias: name, kind: .quantity,
                          aggregation: .discrete, canonicalUnit: nil)
    }

    /// The part after the `HK…TypeIdentifier` (or `HKDataType`) prefix; the whole string when there is none.
    private static func suffix(of identifier: String) -> Substring {
        if identifier.hasPrefix("HK"), let r = identifier.firstRange(of: "TypeIdentifier") {
            return identifier[r.upperBound...]
        }
        if identifier.hasPrefix("HKDataType") { return identifier.dropFirst("HKDataType".count) }
        return identifier[...]
    }

    /// "HeartRateVariabilitySDNN" → "heart_rate_variability_sdnn", "VO2Max" → "vo2_max",
    /// "DietaryVitaminB6" → "dietary_vitamin_b6", "UVExposure" → "uv_exposure".
    /// A word starts at an upper-case letter that follows a lower-case letter or a digit, or that ends a
    /// run of capitals and is followed by a lower-case letter. Digits stay with the word before them.
    private static func snakeCase<S: StringProtocol>(_ text: S) -> String {
        let chars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (i, ch) in chars.enumerated() {
            if isUpper(ch), i > 0 {
                let prev = chars[i - 1]
                let nextIsLower = i + 1 < chars.count && isLower(chars[i + 1])
                if isLower(prev) || isDigit(prev) || (isUpper(prev) && nextIsLower) { out.append("_") }
            }
            if ch == " " || ch == "-" {
                out.append("_")
            } else {
                out.append(contentsOf: String(ch).lowercased().unicodeScalars)
            }
        }
        return String(out)
    }

    /// What a user may type → the key of `byText`: trimmed, lower-cased, spaces and hyphens as underscores.
    private static func normalized<S: StringProtocol>(_ text: S) -> String {
        var scalars = Substring(text).unicodeScalars[...]
        while let f = scalars.first, isSpace(f) { scalars.removeFirst() }
        while let l = scalars.last, isSpace(l) { scalars.removeLast() }
        var out = String.UnicodeScalarView()
        for ch in scalars {
            if ch == " " || ch == "-" { out.append("_") } else { out.append(ch) }
        }
        return String(out).lowercased()
    }

    private static func isUpper(_ c: Unicode.Scalar) -> Bool { c.properties.isUppercase }
    private static func isLower(_ c: Unicode.Scalar) -> Bool { c.properties.isLowercase }
    private static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
    private static func isSpace(_ c: Unicode.Scalar) -> Bool { c.properties.isWhitespace }
}
