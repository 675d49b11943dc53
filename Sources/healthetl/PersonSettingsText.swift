import HealthPeople

/// What `healthetl people set` answers: whether it created the person, what changed, and when
/// the change takes effect (the next report and import; a zone rebuilds every day).
enum PersonSettingsText {
    static func describe(_ id: PersonID, created: Bool, before: PersonSettings, after: PersonSettings) -> String {
        let fields: [(String, String?, String?)] = [
            ("name", before.name, after.name), ("birth date", before.birthDate, after.birthDate),
            ("timezone", before.timezone, after.timezone), ("units", before.units, after.units),
            ("max heart rate", before.maxHeartRate.map { "\($0)" }, after.maxHeartRate.map { "\($0)" }),
            ("platform priority", text(before.platformPriority), text(after.platformPriority)),
        ]
        let changed = fields.filter { $0.1 != $0.2 }
        if created {
            let set = changed.map { "\($0.0) \($0.2 ?? "")" }.joined(separator: ", ")
            return "created person \(id)" + (set.isEmpty ? "" : " (\(set))")
                + "; no data yet: healthetl import EXPORT --person \(id) imports theirs"
        }
        guard !changed.isEmpty else { return "\(id): nothing changed" }
        var text = "updated \(id): " + changed.map { "\($0.0) \($0.1 ?? "unset") → \($0.2 ?? "unset")" }.joined(separator: ", ")
        if changed.contains(where: { $0.0 == "units" }) {
            text += "\n  the next healthetl report --person \(id) shows it; the next import rewrites their CSV and workbook"
        }
        if changed.contains(where: { $0.0 == "max heart rate" }) {
            text += "\n  the next import rebuilds every day of \(id), its workouts' zones under the new maximum"
        }
        if changed.contains(where: { $0.0 == "platform priority" }) {
            text += "\n  the next import rebuilds \(id) from both phones' exports, each day under the new priority"
        }
        if changed.contains(where: { $0.0 == "timezone" }) {
            text += "\n  the next import rebuilds every day of \(id) in the new zone"
        }
        return text
    }

    /// `activity=apple-health, sleep=health-connect` (nil: not set).
    static func text(_ priority: [String: String]?) -> String? {
        priority.map { $0.keys.sorted().map { "\($0)=\(priority![$0]!)" }.joined(separator: ", ") }
    }
}
