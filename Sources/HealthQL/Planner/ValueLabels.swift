import Foundation
import HealthCore

/// The short names users type for stored enum values:
/// `HKCategoryValueSleepAnalysisAsleepDeep` → `asleep_deep` (also matched by `deep`),
/// `HKCategoryValueSeveritySevere` → `severe`, `HKWorkoutActivityTypeRunning` → `running`.
enum ValueLabels {
    private static let valuePrefix = "HKCategoryValue"
    private static let workoutPrefix = "HKWorkoutActivityType"

    /// Families of category values, longest first so `SleepAnalysis` wins over shorter ones.
    private static let families: [String] = {
        let typeSuffixes = TypeRegistry.all.filter { $0.kind == .category }
            .map { String($0.identifier.dropFirst("HKCategoryTypeIdentifier".count)) }
        return (typeSuffixes + ["Severity", "Presence", "AppetiteChanges", "AppleStandHour", "EnvironmentalAudioExposureEvent"])
            .sorted { $0.count > $1.count }
    }()

    static func label(_ identifier: String) -> String {
        var rest = Substring(identifier)
        if rest.hasPrefix(workoutPrefix) {
            rest = rest.dropFirst(workoutPrefix.count)
        } else if rest.hasPrefix(valuePrefix) {
            rest = rest.dropFirst(valuePrefix.count)
            if let family = families.first(where: { rest.hasPrefix($0) && rest.count > $0.count }) {
                rest = rest.dropFirst(family.count)
            }
        }
        return snakeCase(rest)
    }

    /// Whether what the user typed names `identifier`: the identifier itself, its label, or
    /// the label's last words (`deep` for `asleep_deep`); case-insensitive.
    static func matches(_ typed: String, _ identifier: String) -> Bool {
        let wanted = snakeCase(Substring(typed.trimmingCharacters(in: .whitespaces)))
        let name = label(identifier)
        return typed.lowercased() == identifier.lowercased() || wanted == name || name.hasSuffix("_" + wanted)
    }

    /// "AsleepDeep" → "asleep_deep"; "in bed" → "in_bed"; "REM" → "rem".
    static func snakeCase(_ text: Substring) -> String {
        let chars = Array(text.unicodeScalars)
        var out = ""
        for (i, ch) in chars.enumerated() {
            let upper = ch.properties.isUppercase
            if upper, i > 0 {
                let prev = chars[i - 1]
                let nextLower = i + 1 < chars.count && chars[i + 1].properties.isLowercase
                if prev.properties.isLowercase || ("0"..."9").contains(prev) || (prev.properties.isUppercase && nextLower) {
                    out.append("_")
                }
            }
            if ch == " " || ch == "-" { out.append("_") } else { out.append(String(ch).lowercased()) }
        }
        return out
    }
}
