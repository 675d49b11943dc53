/// Health Connect's enum values as HealthKit names them (docs/HEALTH_CONNECT.md, "Enum values").
enum HealthConnectNames {
    /// ExerciseSessionType → HKWorkoutActivityType: the types docs/HEALTH_CONNECT.md lists; Other for the rest.
    static let exercise: [Int64: String] = [
        4: "Cycling", 5: "Cycling", 8: "FunctionalStrengthTraining", 10: "SocialDance", 20: "HighIntensityIntervalTraining",
        21: "Hiking", 27: "Pilates", 29: "Climbing", 31: "Rowing", 33: "Running", 34: "Running", 38: "DownhillSkiing",
        39: "Snowboarding", 44: "StairClimbing", 45: "TraditionalStrengthTraining", 46: "Flexibility", 48: "Swimming",
        49: "Swimming", 51: "Tennis", 53: "Walking", 55: "TraditionalStrengthTraining", 56: "WheelchairWalkPace",
        57: "Yoga", 58: "Other", 59: "StairClimbing", 60: "Elliptical", 61: "Rowing",
    ]

    static func activityType(_ exerciseType: Int64) -> String {
        "HKWorkoutActivityType" + (exercise[exerciseType] ?? "Other")
    }

    /// Sleep stage types: what each counts as. Awake, awake in bed and out of bed are awake
    /// (Health Connect leaves all three out of sleep); unknown and plain sleeping are asleep.
    static func sleepValue(_ stage: Int64) -> String {
        switch stage {
        case 1, 3, 7: "HKCategoryValueSleepAnalysisAwake"
        case 4: "HKCategoryValueSleepAnalysisAsleepCore"
        case 5: "HKCategoryValueSleepAnalysisAsleepDeep"
        case 6: "HKCategoryValueSleepAnalysisAsleepREM"
        default: "HKCategoryValueSleepAnalysisAsleepUnspecified"
        }
    }

    static let inBed = "HKCategoryValueSleepAnalysisInBed"
    static let asleep = "HKCategoryValueSleepAnalysisAsleepUnspecified"

    /// Exercise segment types Health Connect leaves out of an exercise's time: rest, pause.
    static let pauseSegments: Set<Int64> = [66, 67]

    /// Device types (Device.DEVICE_TYPE_*).
    static let deviceTypes: [Int64: String] = [1: "watch", 2: "phone", 3: "scale", 4: "ring", 5: "head mounted",
                                               6: "fitness band", 7: "chest strap", 8: "smart display"]

    /// `recording_method` 3: entered by hand.
    static let manualEntry: Int64 = 3
}
