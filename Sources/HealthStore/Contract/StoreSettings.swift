import Foundation
import HealthCore
import SQLite

/// The settings a store's analytics were computed under, saved with the store
/// (`settings.analytics`): an incremental run under other settings rebuilds, and a reader
/// (HealthQL, the report) takes the zone and the week start from here. The store owns the
/// format; nobody else writes or parses the line.
package struct StoreSettings: Sendable, Equatable {
    /// The version of the analytics tables (`StoreSchema.analyticsVersion` when written).
    package var schema: Int
    /// The IANA zone of the local days.
    package var zone: String
    /// Source priority patterns, in order.
    package var priority: [String]
    package var heartbeatMaxGapMinutes: Double
    /// 0 = Monday … 6 = Sunday.
    package var weekStart: Int
    /// The workouts' zone maximum set by the pipeline or person (nil: from the birth date).
    package var maxHeartRate: Double?
    /// The valid-day rule's hours (docs/data-quality.md); nil: the default, which the line
    /// leaves out so that a store written before the setting existed still matches.
    package var validDayMinWatchHours: Double?
    /// Whether the days follow the person's zone timeline (`zone` is then the home zone) or
    /// the one zone; the line leaves the one zone out, as stores before issue 48 had it.
    package var localDays: LocalDays
    /// A digest of the per-type source lists an export brought (`SourcePriority.listed`: a
    /// Health Connect export's priority lists); nil: none, which the line leaves out.
    package var listedPriority: String?
    /// Which platform counts first per data category where one person's two phones overlap
    /// (`PlatformPriority.line`); nil: the default (the newer phone), which the line leaves out.
    package var platformPriority: String?

    package init(zone: String, priority: [String], heartbeatMaxGapMinutes: Double, weekStart: Int,
                maxHeartRate: Double? = nil, schema: Int = StoreSchema.analyticsVersion, validDayMinWatchHours: Double? = nil,
                localDays: LocalDays = .zone) {
        self.localDays = localDays
        self.schema = schema; self.zone = zone; self.priority = priority
        self.heartbeatMaxGapMinutes = heartbeatMaxGapMinutes
        self.weekStart = weekStart
        self.maxHeartRate = maxHeartRate
        self.validDayMinWatchHours = validDayMinWatchHours
    }

    /// These settings with `listedPriority` and `platformPriority` set.
    package func with(listedPriority digest: String?, platformPriority: String? = nil) -> StoreSettings {
        var settings = self
        settings.listedPriority = digest
        settings.platformPriority = platformPriority
        return settings
    }

    /// One line that changes whenever the analytics would (the stored form).
    package var line: String {
        "schema=\(schema);zone=\(zone);priority=\(priority.joined(separator: "|"));"
            + "heartbeatGap=\(heartbeatMaxGapMinutes);weekStart=\(weekStart)"
            // Only when set, so that the line of every store without it is what it was.
            + (maxHeartRate.map { ";maxHeartRate=\($0)" } ?? "")
            + (validDayMinWatchHours.map { ";validDayHours=\($0)" } ?? "")
            + (localDays == .zone ? "" : ";localDays=\(localDays.rawValue)")
            + (listedPriority.map { ";listed=\($0)" } ?? "")
            + (platformPriority.map { ";platforms=\($0)" } ?? "")
    }

    /// The fields of a stored line; nil for a line that is not one (a store of another program).
    /// Fields a line lacks keep the pipeline's defaults.
    package init?(line: String) {
        var fields: [String: String] = [:]
        for part in line.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard let zone = fields["zone"] else { return nil }
        self.init(zone: zone, priority: fields["priority"].map { $0.split(separator: "|").map(String.init) } ?? [],
                  heartbeatMaxGapMinutes: fields["heartbeatGap"].flatMap(Double.init) ?? 30,
                  weekStart: fields["weekStart"].flatMap(Int.init) ?? 0,
                  maxHeartRate: fields["maxHeartRate"].flatMap(Double.init),
                  schema: fields["schema"].flatMap(Int.init) ?? 0,
                  validDayMinWatchHours: fields["validDayHours"].flatMap(Double.init),
                  localDays: fields["localDays"].flatMap(LocalDays.init(rawValue:)) ?? .zone)
        listedPriority = fields["listed"]
        platformPriority = fields["platforms"]
    }

    /// Saves these settings in a store (inside the caller's transaction, if any).
    package func save(in database: Database) throws {
        try database.rows("INSERT OR REPLACE INTO settings (key, value) VALUES ('analytics', ?)", [.text(line)])
    }

    /// Saves the zone's name as the person gave it (`UTC`), where Foundation's identifier, which
    /// the line holds, differs (`GMT`): outside the line, so that it never rebuilds a store.
    package static func saveZoneName(_ name: String, in database: Database) throws {
        try set("zone_name", name, in: database)
    }

    /// Sets one key of the `settings` table; nil removes it.
    package static func set(_ key: String, _ value: String?, in database: Database) throws {
        if let value {
            try database.rows("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", [.text(key), .text(value)])
        } else {
            try database.rows("DELETE FROM settings WHERE key = ?", [.text(key)])
        }
    }

    /// What the export a store of before issue 60 was built from said about itself
    /// (`HealthInput.contentState`); a store now keeps it per platform (`StoreExports`).
    package static func inputState(in database: Database) throws -> String? {
        guard try database.hasTable("settings") else { return nil }
        return try value(of: "input_state", in: database)
    }

    /// The platform the store's data came from when it is not an iPhone's (`health-connect`):
    /// kept only then, so that the settings of every Apple store are what they were.
    package static func savePlatform(_ platform: String, in database: Database) throws {
        try set("platform", platform == "apple-health" ? nil : platform, in: database)
    }

    /// Which platform counts first in each data category of a store of one person's two phones,
    /// as its analytics were computed (`PlatformRanks.orderLine`; nil: one platform).
    package static func savePlatformOrder(_ line: String?, in database: Database) throws {
        try set("platform_order", line, in: database)
    }

    package static func platformOrder(in database: Database) throws -> String? {
        try value(of: "platform_order", in: database)
    }

    /// `apple-health` unless the store says otherwise.
    package static func platform(in database: Database) throws -> String {
        guard try database.hasTable("settings") else { return "apple-health" }
        return try value(of: "platform", in: database) ?? "apple-health"
    }

    /// The value of one key of the `settings` table, or nil.
    package static func value(of key: String, in database: Database) throws -> String? {
        try database.rows("SELECT value FROM settings WHERE key = ?", [.text(key)]).first?.first?.string
    }

    /// The zone's name as given, if it names the zone the line holds.
    package static func zoneName(in database: Database) throws -> String? {
        guard let zone = try stored(in: database)?.zone else { return nil }
        let given = try value(of: "zone_name", in: database)
        guard let given, TimeZone(identifier: given)?.identifier == zone else { return zone }
        return given
    }

    /// The line a store holds, as written (nil: none, or no settings table).
    package static func storedLine(in database: Database) throws -> String? {
        guard try database.hasTable("settings") else { return nil }
        return try value(of: "analytics", in: database)
    }

    /// The calendar of a store's local days: along the kept zone timeline when its days follow
    /// it, else the one zone (nil: no settings stored, or a zone this machine does not know).
    /// What every reader of the store (HealthQL, the report, the outputs) dates instants with.
    package static func calendar(in database: Database) throws -> LocalCalendar? {
        guard let settings = try stored(in: database) else { return nil }
        if settings.localDays == .whereRecorded,
           let timeline = try ZoneStore(database: database).storedTimeline(home: settings.zone) {
            return LocalCalendar(timeline: timeline)
        }
        return LocalCalendar(identifier: settings.zone)
    }

    /// The settings a store holds, read.
    package static func stored(in database: Database) throws -> StoreSettings? {
        try storedLine(in: database).flatMap(StoreSettings.init(line:))
    }

    /// Whether `database` was computed under exactly these settings (compared as stored, so a
    /// store of an older analytics version never matches).
    /// `addingPlatform`: this run adds another platform's export to a store of one (issue
    /// 60); the lists that export brings rank its own sources only, which the store has none
    /// of yet, so a store kept without lists still matches.
    package func match(_ database: Database, addingPlatform: Bool = false) throws -> Bool {
        let stored = try Self.storedLine(in: database)
        if stored == line { return true }
        guard addingPlatform, let stored, let parsed = StoreSettings(line: stored), parsed.listedPriority == nil else { return false }
        return stored == with(listedPriority: nil, platformPriority: platformPriority).line
    }
}
