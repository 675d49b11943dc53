/// Category samples carry an enum name as value. iOS 8–9 wrote numbers for some, and
/// iOS 16 renamed `…Asleep` to `…AsleepUnspecified`; both map to today's names.
enum CategoryValues {
    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"

    static func canonical(_ value: String?, type: String) -> String? {
        guard let value else { return nil }
        guard type == sleepType else { return value }
        switch value {
        case "0": return "HKCategoryValueSleepAnalysisInBed"
        case "1", "HKCategoryValueSleepAnalysisAsleep": return "HKCategoryValueSleepAnalysisAsleepUnspecified"
        case "2": return "HKCategoryValueSleepAnalysisAwake"
        case "3": return "HKCategoryValueSleepAnalysisAsleepCore"
        case "4": return "HKCategoryValueSleepAnalysisAsleepDeep"
        case "5": return "HKCategoryValueSleepAnalysisAsleepREM"
        default: return value
        }
    }
}
