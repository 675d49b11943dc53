/// What maps to what (docs/FHIR.md): a HealthKit type's LOINC code where one exists (the
/// codes HealthKitOnFHIR uses), its HealthKit coding always, its UCUM unit, the factor from
/// the store's unit, and its observation category.
struct FHIRCode: Sendable {
    var loinc: String?
    var display: String
    /// The HealthKit coding's code (a type identifier, or the name of a figure).
    var healthKit: String
    /// UCUM code and the unit shown.
    var ucum: String
    var unit: String
    /// Store value × factor = the FHIR value (oxygen saturation: a fraction → %).
    var factor = 1.0
    var category: Category

    /// `socialHistory`: the cycles (LOINC files 8665-2 and 3144-3 as history, class H&P.HX).
    enum Category: String, Sendable { case vitalSigns = "vital-signs", activity, socialHistory = "social-history" }

    static let loincSystem = "http://loinc.org"
    static let healthKitSystem = "http://developer.apple.com/documentation/healthkit"
    static let ucumSystem = "http://unitsofmeasure.org"
    static let categorySystem = "http://terminology.hl7.org/CodeSystem/observation-category"

    /// Sparse vitals, written sample by sample.
    static let samples: [String: FHIRCode] = [
        "HKQuantityTypeIdentifierRestingHeartRate": .init(loinc: "40443-4", display: "Heart rate --resting",
            healthKit: "HKQuantityTypeIdentifierRestingHeartRate", ucum: "/min", unit: "beats/minute", category: .vitalSigns),
        "HKQuantityTypeIdentifierHeartRateVariabilitySDNN": .init(loinc: "80404-7",
            display: "R-R interval.standard deviation (Heart rate variability)",
            healthKit: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", ucum: "ms", unit: "ms", category: .vitalSigns),
        "HKQuantityTypeIdentifierOxygenSaturation": .init(loinc: "59408-5",
            display: "Oxygen saturation in Arterial blood by Pulse oximetry",
            healthKit: "HKQuantityTypeIdentifierOxygenSaturation", ucum: "%", unit: "%", factor: 100, category: .vitalSigns),
        "HKQuantityTypeIdentifierRespiratoryRate": .init(loinc: "9279-1", display: "Respiratory rate",
            healthKit: "HKQuantityTypeIdentifierRespiratoryRate", ucum: "/min", unit: "breaths/minute", category: .vitalSigns),
        "HKQuantityTypeIdentifierBodyTemperature": .init(loinc: "8310-5", display: "Body temperature",
            healthKit: "HKQuantityTypeIdentifierBodyTemperature", ucum: "Cel", unit: "°C", category: .vitalSigns),
        "HKQuantityTypeIdentifierBodyMass": .init(loinc: "29463-7", display: "Body weight",
            healthKit: "HKQuantityTypeIdentifierBodyMass", ucum: "kg", unit: "kg", category: .vitalSigns),
        "HKQuantityTypeIdentifierHeight": .init(loinc: "8302-2", display: "Body height",
            healthKit: "HKQuantityTypeIdentifierHeight", ucum: "m", unit: "m", category: .vitalSigns),
        "HKQuantityTypeIdentifierBodyMassIndex": .init(loinc: "39156-5", display: "Body mass index (BMI) [Ratio]",
            healthKit: "HKQuantityTypeIdentifierBodyMassIndex", ucum: "kg/m2", unit: "kg/m2", category: .vitalSigns),
        // No LOINC code of HealthKitOnFHIR's for these two: the HealthKit coding alone.
        "HKQuantityTypeIdentifierVO2Max": .init(loinc: nil, display: "VO2 max",
            healthKit: "HKQuantityTypeIdentifierVO2Max", ucum: "mL/kg/min", unit: "mL/kg/min", category: .vitalSigns),
        "HKQuantityTypeIdentifierBloodGlucose": .init(loinc: nil, display: "Blood glucose",
            healthKit: "HKQuantityTypeIdentifierBloodGlucose", ucum: "mg/dL", unit: "mg/dL", category: .vitalSigns),
    ]

    /// The daily analytics, one Observation per day and metric (`HealthStore.fhirDays`' names).
    static let daily: [(metric: String, code: FHIRCode)] = [
        ("steps", .init(loinc: "55423-8", display: "Number of steps in unspecified time Pedometer",
                        healthKit: "HKQuantityTypeIdentifierStepCount", ucum: "{steps}", unit: "steps", category: .activity)),
        ("distance", .init(loinc: nil, display: "Walking and running distance",
                           healthKit: "HKQuantityTypeIdentifierDistanceWalkingRunning", ucum: "m", unit: "m", category: .activity)),
        ("active_energy", .init(loinc: "41981-2", display: "Calories burned",
                                healthKit: "HKQuantityTypeIdentifierActiveEnergyBurned", ucum: "kcal", unit: "kcal", category: .activity)),
        ("exercise", .init(loinc: "55411-3", display: "Exercise duration",
                           healthKit: "HKQuantityTypeIdentifierAppleExerciseTime", ucum: "min", unit: "min", category: .activity)),
        ("sleep", .init(loinc: "93832-4", display: "Sleep duration",
                        healthKit: "HKCategoryTypeIdentifierSleepAnalysis", ucum: "min", unit: "min", category: .activity)),
    ]

    static let heartRate = FHIRCode(loinc: "8867-4", display: "Heart rate", healthKit: "HKQuantityTypeIdentifierHeartRate",
                                    ucum: "/min", unit: "beats/minute", category: .vitalSigns)
    static let bloodPressure = FHIRCode(loinc: "85354-9", display: "Blood pressure panel with all children optional",
                                        healthKit: "HKCorrelationTypeIdentifierBloodPressure", ucum: "mm[Hg]", unit: "mmHg",
                                        category: .vitalSigns)
    static let systolic = FHIRCode(loinc: "8480-6", display: "Systolic blood pressure",
                                   healthKit: "HKQuantityTypeIdentifierBloodPressureSystolic", ucum: "mm[Hg]", unit: "mmHg",
                                   category: .vitalSigns)
    static let diastolic = FHIRCode(loinc: "8462-4", display: "Diastolic blood pressure",
                                    healthKit: "HKQuantityTypeIdentifierBloodPressureDiastolic", ucum: "mm[Hg]", unit: "mmHg",
                                    category: .vitalSigns)
    static let exerciseActivity = FHIRCode(loinc: "73985-4", display: "Exercise activity", healthKit: "HKWorkoutTypeIdentifier",
                                           ucum: "", unit: "", category: .activity)
    /// A workout's figures, as components.
    static let workoutDuration = FHIRCode(loinc: "55411-3", display: "Exercise duration", healthKit: "HKWorkout.duration",
                                          ucum: "min", unit: "min", category: .activity)
    static let workoutDistance = FHIRCode(loinc: nil, display: "Workout distance", healthKit: "HKWorkout.totalDistance",
                                          ucum: "m", unit: "m", category: .activity)
    static let workoutEnergy = FHIRCode(loinc: "41981-2", display: "Calories burned", healthKit: "HKWorkout.totalEnergyBurned",
                                        ucum: "kcal", unit: "kcal", category: .activity)
    /// The day's heart-rate statistics (HealthKit's `HKStatisticsOptions` names).
    static let statistics = [("minimum", "HKStatisticsOptionDiscreteMin"), ("mean", "HKStatisticsOptionDiscreteAverage"),
                             ("maximum", "HKStatisticsOptionDiscreteMax")]
}
