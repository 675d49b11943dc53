import CSV
import Foundation
import HealthCore
import HealthDedupe
import HealthEmit
import HealthStore

/// A pipeline definition (`pipelines/default.json`, `pipelines/nightly.json`): README.md, "Pipelines".
public struct PipelineConfig: Codable, Sendable, Equatable {
    public var timezone: String?
    /// `where-recorded` or `zone` (`--local-days`): see `LocalDays`. Unset: where recorded when
    /// no zone is configured, else the configured zone.
    public var localDays: String?
    public var weekStart: String?
    public var outputs: [String]?
    public var sourcePriority: [String]?
    /// Per data category (`activity`, `sleep` …), the platform that counts first where one
    /// person's iPhone and Android phone both recorded: `apple-health`, `health-connect` or
    /// `newer-phone` (the default). docs/PEOPLE.md, "One person, two phones".
    public var platformPriority: [String: String]?
    public var anchorOverlapSeconds: Double?
    /// Read for older pipeline files, and ignored: a night is dated by its wake-up day
    /// (docs/sleep-nights.md), not by a clock cutoff.
    public var sleepDayStartHour: Int?
    public var heartbeatMaxGapMinutes: Double?
    /// The maximum heart rate of the workouts' zones (docs/vitals-hrv-workouts.md); unset: from
    /// the profile's birth date (208 − 0.7 × age).
    public var maxHeartRate: Double?
    /// The worn hours (hours holding a heart-rate sample) that make a day valid
    /// (docs/data-quality.md); default 10.
    public var validDayMinWatchHours: Double?
    public var out: String?
    /// Records loaded between two checkpoint commits (default 250,000: a second or two of work;
    /// each commit costs a write-ahead-log checkpoint).
    public var checkpointRecords: Int?
    /// The report's daily goals (steps, activeEnergyKcal, exerciseMinutes, standHours, sleepHours).
    public var goals: ReportGoals?
    /// `metric` (the default) or `imperial`: what CSV, the workbook and the report show.
    public var units: String?
    /// `rfc4180` (the default) or `excel-semicolon` (`;`, decimal comma, UTF-8 BOM).
    public var csvDialect: String?

    public init() {}

    /// What a pipeline without `outputs` writes.
    public static let allOutputs = ["sqlite", "csv", "parquet", "report", "xlsx"]

    /// The `units` setting (a usage error when it is neither name).
    package func unitSystem() throws -> UnitSystem {
        guard let name = units else { return .metric }
        guard let system = UnitSystem(rawValue: name) else {
            throw HealthETLError.usage("units '\(name)' is neither metric nor imperial")
        }
        return system
    }

    /// The `csvDialect` setting (a usage error when unknown).
    public func dialect() throws -> CSVDialect {
        guard let name = csvDialect else { return .rfc4180 }
        guard let dialect = CSVDialect(name: name) else {
            throw HealthETLError.usage("csvDialect '\(name)' is neither rfc4180 nor excel-semicolon")
        }
        return dialect
    }

    public static func load(_ path: String) throws -> PipelineConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HealthETLError.inputMissing("\(path): pipeline file not found")
        }
        return try PipelineFile.decode(data, path: path)
    }

    /// The zone the user configured for local days: the option (`--timezone`), else the
    /// pipeline's (or a person's) `timezone`; nil when neither is set, and the import then
    /// takes the export's own zone (`TimeZoneChoice`).
    package func configuredTimeZone(override: String?) throws -> TimeZoneChoice? {
        let name = override ?? timezone
        guard let name, !name.isEmpty else { return nil }
        guard let zone = TimeZone(identifier: name) else {
            throw HealthETLError.usage("unknown time zone '\(name)' (expected an IANA name such as Europe/Berlin)")
        }
        return TimeZoneChoice(zone: zone, reason: override != nil ? "the --timezone option" : "the timezone setting", name: name)
    }
}

extension PipelineConfig {
    /// `activity=apple-health,sleep=health-connect` (`people set --platform-priority`) as the
    /// setting's map, checked: a category or platform that is not one is a usage error (64).
    public static func platformPriority(parsing text: String) throws -> [String: String] {
        var map: [String: String] = [:]
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else {
                throw HealthETLError.usage("platform priority '\(part)' is not CATEGORY=PLATFORM (e.g. activity=apple-health)")
            }
            map[pair[0]] = pair[1]
        }
        _ = try PlatformPriority(map)
        return map
    }
}
