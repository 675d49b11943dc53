import Foundation
import HealthCore
import HealthStore
import SQLite

/// One line of `healthetl people`: who, and what their store holds.
public struct PersonFacts: Codable, Sendable, Equatable {
    public var id: String
    public var name: String?
    /// The person's setting, else the export's (`Me`).
    public var birthDate: String?
    /// The zone the person's last import used (their setting, else the pipeline's or the export's).
    public var timezone: String?
    public var firstDay: String?
    public var lastDay: String?
    /// When the last import finished (UTC).
    public var lastImport: String?
    public var samples: Int
    public var days: Int
    /// The person's own settings that `healthetl people show` lists beside the facts (unset:
    /// the pipeline's apply).
    public var units: String?
    public var sourcePriority: [String]?
    /// The zone set in `person.json` (`timezone` above falls back to the last import's).
    public var timezoneSetting: String?
    public var birthDateSetting: String?
    public var maxHeartRate: Double?
    /// The zones the person's store shows them in, a stretch a line in time order (issue 48):
    /// "Asia/Tokyo 2024-02-01 – 2024-02-10", the first and last open ("… – 2024-01-31").
    public var zoneTimeline: [String] = []
    /// The exports the store holds, one per platform (a person who switched phones has two).
    public var exports: [String] = []
    public var platformPriority: [String: String]?

    /// Reads the facts of `id` from their settings and their published store (none yet: no days).
    public init(id: PersonID, in people: People) throws {
        let settings = try people.settings(of: id)
        self.id = id.rawValue
        name = settings.name
        birthDate = settings.birthDate
        timezone = settings.timezone
        timezoneSetting = settings.timezone
        birthDateSetting = settings.birthDate
        units = settings.units
        maxHeartRate = settings.maxHeartRate
        sourcePriority = settings.sourcePriority
        platformPriority = settings.platformPriority
        samples = 0
        days = 0
        let storePath = people.outputFolder(of: id).databasePath
        guard FileManager.default.fileExists(atPath: storePath) else { return }
        let store = try HealthStore(path: storePath)
        if birthDate == nil { birthDate = try store.profile()?.dateOfBirth?.iso8601 }
        (firstDay, lastDay, days) = try store.dayRange()
        samples = Int(try store.rowCount(of: "sample_data"))
        let run = try store.lastRun()
        lastImport = run?.finishedUTC
        if timezone == nil { timezone = run?.timeZone }
        exports = try StoreExports.read(from: store.database).lines
        zoneTimeline = try ZoneStore(database: store.database).storedTimeline(home: timezone ?? "UTC")?.spans.map(\.text) ?? []
    }

    /// `people show`'s lines of the zone timeline, after the facts (none for a store without one).
    public var zoneLines: [String] {
        zoneTimeline.isEmpty ? [] : ["zone timeline (from the export's HKTimeZone evidence):"] + zoneTimeline.map { "  " + $0 }
    }

    /// The columns of `healthetl people`.
    public static let header = ["id", "name", "birth date", "time zone", "first day", "last day", "last import",
                                "samples", "days"]

    /// Every setting of `person.json`, as `healthetl people show` lists them after the facts.
    public var settingLines: [String] {
        let unset = "(not set: the pipeline's)"
        return ["settings (person.json; `healthetl people set` changes them):",
                "  name: " + (name ?? unset),
                "  birth date: " + (birthDateSetting ?? "(not set: the export's)"),
                "  timezone: " + (timezoneSetting ?? unset),
                "  units: " + (units ?? unset),
                "  max heart rate: " + (maxHeartRate.map { "\($0) bpm" } ?? "(not set: 208 − 0.7 × age)"),
                "  source priority: " + (sourcePriority.map { $0.joined(separator: ", ") } ?? unset),
                "  platform priority: " + (platformPriority.map { p in p.keys.sorted().map { "\($0)=\(p[$0]!)" }.joined(separator: ", ") }
                                           ?? "(not set: the newer phone counts first)")]
    }

    public var cells: [String] {
        [id, name ?? "", birthDate ?? "", timezone ?? "", firstDay ?? "", lastDay ?? "", lastImport ?? "",
         String(samples), String(days)]
    }
}
