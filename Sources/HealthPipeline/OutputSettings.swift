import Foundation
import HealthCore
import HealthStore
import SQLite

/// The settings that change how the outputs show the store without changing the store itself:
/// units (CSV, workbook, report), the CSV dialect and the report's goals. They are saved with
/// the store (`settings` row `outputs`), so that a run after `people set ID --units imperial`
/// or a pipeline's new goals rewrites the files even when the export brings nothing new, and
/// says why.
struct OutputSettings: Equatable {
    var units: String
    var csvDialect: String
    var goals: ReportGoals

    init(_ config: PipelineConfig) {
        units = config.units ?? "metric"
        csvDialect = config.csvDialect ?? "rfc4180"
        goals = (config.goals ?? ReportGoals()).resolved
    }

    /// `key=value` pairs, one per setting, in a fixed order.
    var fields: [(String, String)] {
        let g = goals
        let goalText = [("steps", g.steps), ("activeEnergyKcal", g.activeEnergyKcal), ("exerciseMinutes", g.exerciseMinutes),
                        ("standHours", g.standHours), ("sleepHours", g.sleepHours)]
            .map { "\($0.0) \($0.1.map { String(format: "%g", $0) } ?? "-")" }.joined(separator: ", ")
        return [("units", units), ("csvDialect", csvDialect), ("goals", goalText)]
    }

    var fingerprint: String { fields.map { "\($0.0)=\($0.1)" }.joined(separator: ";") }

    func save(in database: Database) throws {
        try HealthStore(database: database).recordOutputsFingerprint(fingerprint)
    }

    /// What differs from the settings the store's outputs were last written with, one phrase
    /// each ("units changed (metric → imperial)"); nil when the store has none recorded (written
    /// by an earlier version: the outputs are then rewritten once, to be sure).
    func changes(since database: Database) throws -> [String]? {
        guard let stored = try HealthStore(database: database).outputsFingerprint() else {
            return nil
        }
        return SettingsDifference.changes(from: stored, to: fingerprint)
    }
}

/// Compares two `key=value;key=value` settings lines (the store's `analytics` and `outputs`
/// rows) and names what changed.
enum SettingsDifference {
    /// The names users know the analytics settings by.
    static let labels = ["zone": "zone", "priority": "source priority", "sleepDayStart": "sleepDayStartHour",
                         "heartbeatGap": "heartbeatMaxGapMinutes", "weekStart": "weekStart", "schema": "analytics version",
                         "validDayHours": "validDayMinWatchHours", "localDays": "local days",
                         "units": "units", "csvDialect": "CSV dialect", "goals": "goals"]

    static func fields(_ line: String) -> [(String, String)] {
        line.split(separator: ";", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// What a key a line leaves out means (`localDays`: stores before issue 48 had one zone).
    static let omitted = ["localDays": LocalDays.zone.rawValue]

    static func changes(from old: String, to new: String) -> [String] {
        let before = Dictionary(fields(old), uniquingKeysWith: { a, _ in a })
        let after = fields(new)
        // A key only the old line has is a change to its omitted meaning.
        let dropped = omitted.filter { key, _ in before[key] != nil && !after.contains { $0.0 == key } }
        return (after + dropped.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }).compactMap { key, value in
            let was = before[key] ?? omitted[key] ?? "unset"
            guard was != value else { return nil }
            let label = labels[key] ?? key
            return "\(label) changed (\(was.isEmpty ? "none" : was) → \(value.isEmpty ? "none" : value))"
        }
    }
}
