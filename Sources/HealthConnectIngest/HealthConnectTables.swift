/// Every Health Connect record table this reader reads, in the order it reads them, and what
/// each becomes in the store: the HealthKit type (or, where HealthKit has none, a type of the
/// same form named for Health Connect's, listed in docs/HEALTH_CONNECT.md), the unit the value
/// is stored in, and the factor from Health Connect's stored unit. The table is the whole
/// mapping: `HealthConnectReader` only follows it. Times are epoch milliseconds; zone offsets
/// are seconds.
struct RecordTable: Sendable {
    enum Shape: Sendable {
        /// `start_time`, `start_zone_offset`, `end_time`, `end_zone_offset`.
        case interval
        /// `time`, `zone_offset`.
        case instant
    }

    /// One value column that becomes one record of `type`.
    struct Value: Sendable {
        var column: String
        var type: String
        var unit: String
        var factor: Double = 1
    }

    /// Samples in a child table (`parent_key`), each one record at its own instant.
    struct Series: Sendable {
        var child: String
        var timeColumn: String
        var valueColumn: String
        var type: String
        var unit: String
        var factor: Double = 1
    }

    enum Kind: Sendable {
        /// One record per value column that is not NULL.
        case values([Value])
        /// A category record whose value is read from `column` (nil: the table has none).
        case category(type: String, column: String?, values: [Int64: String])
        case series(Series)
        /// Two values and their correlation, as an Apple export holds blood pressure.
        case bloodPressure
        case sleep
        case exercise
    }

    /// An enum column kept as HealthKit's metadata key and value (nil for a value with none).
    struct Metadata: Sendable {
        var column: String
        var key: String
        var values: [Int64: String]
    }

    var name: String
    var shape: Shape
    var kind: Kind
    /// Health Connect's data category (`health_data_category_priority_table`): its priority
    /// list decides which app's records count where several overlap.
    var category: Int
    var metadata: [Metadata] = []
    /// Columns the reader needs besides the ones every record table has: the kind's, then the
    /// metadata's.
    var columns: [String] {
        let values: [String] = switch kind {
        case .values(let values): values.map(\.column)
        case .category(_, let column, _): column.map { [$0] } ?? []
        case .series, .sleep: []
        case .bloodPressure: ["systolic", "diastolic"]
        case .exercise: ["exercise_type"]
        }
        return values + metadata.map(\.column)
    }

    /// The types this table's records are stored as.
    var types: [String] {
        switch kind {
        case .values(let values): values.map(\.type)
        case .category(let type, _, _): [type]
        case .series(let s): [s.type]
        case .bloodPressure: [Self.quantity + "BloodPressureSystolic", Self.quantity + "BloodPressureDiastolic"]
        case .sleep: [Self.categoryType + "SleepAnalysis"]
        case .exercise: [Self.exerciseTime]
        }
    }

    /// An exercise session's time less its pauses and rests: the exercise minutes of the day.
    static let exerciseTime = quantity + "AppleExerciseTime"

    /// Tables of child rows (`parent_key` → this table's `row_id`) the reader reads with this one.
    var children: [String] {
        switch kind {
        case .series(let s): [s.child]
        case .sleep: ["sleep_stages_table"]
        case .exercise: ["exercise_segments_table", "exercise_laps_table", "exercise_route_table"]
        default: []
        }
    }
}

/// Health Connect's data categories (HealthDataCategory).
enum DataCategory {
    static let activity = 1, bodyMeasurements = 2, cycleTracking = 3, nutrition = 4, sleep = 5, vitals = 6, wellness = 7
}

extension RecordTable {
    static let quantity = "HKQuantityTypeIdentifier", categoryType = "HKCategoryTypeIdentifier"
    static let notApplicable = "HKCategoryValueNotApplicable"

    static func value(_ table: String, _ shape: Shape, _ column: String, _ type: String, _ unit: String,
                      factor: Double = 1, category: Int) -> RecordTable {
        RecordTable(name: table, shape: shape, kind: .values([Value(column: column, type: quantity + type, unit: unit, factor: factor)]),
                    category: category)
    }

    func keeping(_ entry: Metadata) -> RecordTable {
        var table = self
        table.metadata.append(entry)
        return table
    }

    static func series(_ parent: String, _ child: String, _ value: String, _ type: String, _ unit: String,
                       time: String = "epoch_millis", category: Int) -> RecordTable {
        RecordTable(name: parent, shape: .interval, kind: .series(Series(child: child, timeColumn: time, valueColumn: value,
                                                                         type: quantity + type, unit: unit)),
                    category: category)
    }

    /// Mass in grams, as Health Connect stores it.
    static let all: [RecordTable] = [
        value("steps_record_table", .interval, "count", "StepCount", "count", category: DataCategory.activity),
        value("distance_record_table", .interval, "distance", "DistanceWalkingRunning", "m", category: DataCategory.activity),
        value("active_calories_burned_record_table", .interval, "energy", "ActiveEnergyBurned", "cal", category: DataCategory.activity),
        value("total_calories_burned_record_table", .interval, "energy", "TotalEnergyBurned", "kcal", factor: 0.001,
              category: DataCategory.activity),
        value("floors_climbed_record_table", .interval, "floors", "FlightsClimbed", "count", category: DataCategory.activity),
        value("elevation_gained_record_table", .interval, "elevation", "ElevationGained", "m", category: DataCategory.activity),
        value("wheelchair_pushes_record_table", .interval, "count", "PushCount", "count", category: DataCategory.activity),
        value("vo2_max_record_table", .instant, "vo2_milliliters_per_minute_kilogram", "VO2Max", "mL/min·kg",
              category: DataCategory.activity),
        series("heart_rate_record_table", "heart_rate_record_series_table", "beats_per_minute", "HeartRate", "count/min",
               category: DataCategory.vitals),
        series("SpeedRecordTable", "speed_record_table", "speed", "Speed", "m/s", category: DataCategory.activity),
        series("PowerRecordTable", "power_record_table", "power", "CyclingPower", "W", category: DataCategory.activity),
        series("StepsCadenceRecordTable", "steps_cadence_record_table", "rate", "StepCadence", "count/min",
               category: DataCategory.activity),
        series("CyclingPedalingCadenceRecordTable", "cycling_pedaling_cadence_record_table", "revolutions_per_minute",
               "CyclingCadence", "count/min", category: DataCategory.activity),
        series("skin_temperature_record_table", "skin_temperature_delta_table", "delta", "SkinTemperatureDelta", "degC",
               category: DataCategory.vitals),
        value("resting_heart_rate_record_table", .instant, "beats_per_minute", "RestingHeartRate", "count/min",
              category: DataCategory.vitals),
        value("heart_rate_variability_rmssd_record_table", .instant, "heart_rate_variability_millis",
              "HeartRateVariabilityRMSSD", "ms", category: DataCategory.vitals),
        value("oxygen_saturation_record_table", .instant, "percentage", "OxygenSaturation", "%", factor: 0.01,
              category: DataCategory.vitals),
        value("respiratory_rate_record_table", .instant, "rate", "RespiratoryRate", "count/min", category: DataCategory.vitals),
        value("body_temperature_record_table", .instant, "temperature", "BodyTemperature", "degC", category: DataCategory.vitals),
        value("basal_body_temperature_record_table", .instant, "temperature", "BasalBodyTemperature", "degC",
              category: DataCategory.cycleTracking),
        RecordTable(name: "blood_pressure_record_table", shape: .instant, kind: .bloodPressure, category: DataCategory.vitals),
        // mmol/L of glucose (180.156 g/mol), in HealthKit's own unit string.
        value("blood_glucose_record_table", .instant, "level", "BloodGlucose", "mmol<180.15588000005408>/L",
              category: DataCategory.vitals)
            .keeping(Metadata(column: "relation_to_meal", key: "HKBloodGlucoseMealTime", values: [3: "1", 4: "2"])),
        value("weight_record_table", .instant, "weight", "BodyMass", "g", category: DataCategory.bodyMeasurements),
        value("height_record_table", .instant, "height", "Height", "m", category: DataCategory.bodyMeasurements),
        value("body_fat_record_table", .instant, "percentage", "BodyFatPercentage", "%", factor: 0.01,
              category: DataCategory.bodyMeasurements),
        value("lean_body_mass_record_table", .instant, "mass", "LeanBodyMass", "g", category: DataCategory.bodyMeasurements),
        value("bone_mass_record_table", .instant, "mass", "BoneMass", "kg", factor: 0.001, category: DataCategory.bodyMeasurements),
        value("body_water_mass_record_table", .instant, "body_water_mass", "BodyWaterMass", "kg", factor: 0.001,
              category: DataCategory.bodyMeasurements),
        value("basal_metabolic_rate_record_table", .instant, "basal_metabolic_rate", "BasalMetabolicRate", "W",
              category: DataCategory.bodyMeasurements),
        value("hydration_record_table", .interval, "volume", "DietaryWater", "L", category: DataCategory.nutrition),
        RecordTable(name: "nutrition_record_table", shape: .interval, kind: .values(nutrients), category: DataCategory.nutrition),
        RecordTable(name: "sleep_session_record_table", shape: .interval, kind: .sleep, category: DataCategory.sleep),
        RecordTable(name: "exercise_session_record_table", shape: .interval, kind: .exercise, category: DataCategory.activity),
        RecordTable(name: "mindfulness_session_record_table", shape: .interval,
                    kind: .category(type: categoryType + "MindfulSession", column: nil, values: [:]), category: DataCategory.wellness),
        RecordTable(name: "menstruation_flow_record_table", shape: .instant,
                    kind: .category(type: categoryType + "MenstrualFlow", column: "flow",
                                    values: [0: "HKCategoryValueMenstrualFlowUnspecified", 1: "HKCategoryValueMenstrualFlowLight",
                                             2: "HKCategoryValueMenstrualFlowMedium", 3: "HKCategoryValueMenstrualFlowHeavy"]),
                    category: DataCategory.cycleTracking),
        RecordTable(name: "menstruation_period_record_table", shape: .interval,
                    kind: .category(type: categoryType + "MenstrualPeriod", column: nil, values: [:]),
                    category: DataCategory.cycleTracking),
        RecordTable(name: "ovulation_test_record_table", shape: .instant,
                    kind: .category(type: categoryType + "OvulationTestResult", column: "result",
                                    values: [0: "HKCategoryValueOvulationTestResultIndeterminate",
                                             1: "HKCategoryValueOvulationTestResultLuteinizingHormoneSurge",
                                             2: "HKCategoryValueOvulationTestResultEstrogenSurge",
                                             3: "HKCategoryValueOvulationTestResultNegative"]),
                    category: DataCategory.cycleTracking),
        // Health Connect's appearance; its 0 (unknown) and 6 (unusual) have no HealthKit value.
        RecordTable(name: "cervical_mucus_record_table", shape: .instant,
                    kind: .category(type: categoryType + "CervicalMucusQuality", column: "appearance",
                                    values: [1: "HKCategoryValueCervicalMucusQualityDry", 2: "HKCategoryValueCervicalMucusQualitySticky",
                                             3: "HKCategoryValueCervicalMucusQualityCreamy", 4: "HKCategoryValueCervicalMucusQualityWatery",
                                             5: "HKCategoryValueCervicalMucusQualityEggWhite"]),
                    category: DataCategory.cycleTracking),
        RecordTable(name: "intermenstrual_bleeding_record_table", shape: .instant,
                    kind: .category(type: categoryType + "IntermenstrualBleeding", column: nil, values: [:]),
                    category: DataCategory.cycleTracking),
        RecordTable(name: "sexual_activity_record_table", shape: .instant,
                    kind: .category(type: categoryType + "SexualActivity", column: nil, values: [:]),
                    category: DataCategory.cycleTracking,
                    metadata: [Metadata(column: "protection_used", key: "HKSexualActivityProtectionUsed", values: [1: "1", 2: "0"])]),
    ]

    /// The nutrition table's columns that HealthKit has a type for (grams unless named).
    static let nutrients: [Value] = [
        Value(column: "energy", type: quantity + "DietaryEnergyConsumed", unit: "cal"),
    ] + [
        ("protein", "Protein"), ("total_fat", "FatTotal"), ("saturated_fat", "FatSaturated"),
        ("monounsaturated_fat", "FatMonounsaturated"), ("polyunsaturated_fat", "FatPolyunsaturated"),
        ("cholesterol", "Cholesterol"), ("total_carbohydrate", "Carbohydrates"), ("dietary_fiber", "Fiber"),
        ("sugar", "Sugar"), ("sodium", "Sodium"), ("potassium", "Potassium"), ("calcium", "Calcium"), ("iron", "Iron"),
        ("vitamin_a", "VitaminA"), ("vitamin_c", "VitaminC"), ("vitamin_d", "VitaminD"), ("vitamin_e", "VitaminE"),
        ("vitamin_k", "VitaminK"), ("vitamin_b6", "VitaminB6"), ("vitamin_b12", "VitaminB12"), ("thiamin", "Thiamin"),
        ("riboflavin", "Riboflavin"), ("niacin", "Niacin"), ("folate", "Folate"), ("biotin", "Biotin"),
        ("pantothenic_acid", "PantothenicAcid"), ("phosphorus", "Phosphorus"), ("iodine", "Iodine"),
        ("magnesium", "Magnesium"), ("zinc", "Zinc"), ("selenium", "Selenium"), ("copper", "Copper"),
        ("manganese", "Manganese"), ("chromium", "Chromium"), ("molybdenum", "Molybdenum"), ("chloride", "Chloride"),
        ("caffeine", "Caffeine"),
    ].map { Value(column: $0.0, type: quantity + "Dietary" + $0.1, unit: "g") }

    /// Nutrition columns with no HealthKit type: counted and named when they hold values.
    static let nutrientsWithoutType = ["trans_fat", "unsaturated_fat", "energy_from_fat", "folic_acid"]

    /// The tables every Health Connect database has, whatever its version: without them it is
    /// some other SQLite database.
    static let identifying = ["application_info_table", "device_info_table", "steps_record_table"]

    /// Tables that hold no health records (apps, devices, logs, settings, migration state).
    static let bookkeeping: Set<String> = [
        "android_metadata", "sqlite_sequence", "application_info_table", "device_info_table", "activity_date_table",
        "change_logs_table", "change_log_request_table", "health_data_category_priority_table", "preference_table",
        "access_logs_table", "migration_entity_table", "pre_migration_category_priority_table",
    ]

    /// Columns that identify a row or repeat what the reader reads (Health Connect's own local
    /// dates and times, its dedupe key, the writing app's ids): never counted as not read.
    static let identityColumns: Set<String> = [
        "uuid", "client_record_id", "client_record_version", "dedupe_hash", "local_date", "local_date_time",
        "local_date_time_start_time", "local_date_time_end_time", "has_route",
    ]

    /// The columns of every record table (RecordHelper).
    static let common = ["row_id", "uuid", "last_modified_time", "app_info_id", "device_info_id", "recording_method"]
    var timeColumns: [String] { shape == .interval ? ["start_time", "start_zone_offset", "end_time", "end_zone_offset"] : ["time", "zone_offset"] }
}
