import Foundation

/// How a workout reads in the workbook: a name a person says ("Traditional strength training",
/// not `HKWorkoutActivityTypeTraditionalStrengthTraining`) and local wall-clock times. Here from
/// the stored activity type and the analytics zone; when the store keeps display names and
/// local times of its own (issue 31), these read them instead.
enum WorkoutDisplay {
    static func name(_ activityType: String) -> String {
        let stem = activityType.hasPrefix("HKWorkoutActivityType") ? String(activityType.dropFirst(21)) : activityType
        var words: [String] = []
        var word = ""
        for c in stem {
            if c.isUppercase, !word.isEmpty, !(word.last?.isUppercase ?? false) { words.append(word); word = "" }
            word.append(c)
        }
        if !word.isEmpty { words.append(word) }
        guard let first = words.first else { return activityType }
        return ([first] + words.dropFirst().map { $0.count > 1 && $0.allSatisfy(\.isUppercase) ? $0 : $0.lowercased() })
            .joined(separator: " ")
    }
}

/// Instants as wall-clock seconds in a zone (what a spreadsheet's date-time cell holds).
struct LocalClock: Sendable {
    let zone: TimeZone
    func seconds(_ utcSeconds: Double) -> Double {
        utcSeconds + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: utcSeconds)))
    }
}
