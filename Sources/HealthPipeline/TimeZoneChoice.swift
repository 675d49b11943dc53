import Foundation
import HealthCore
import HealthIngest
import HealthStore
import SQLite

/// Which IANA zone a run's local days use, and why: the run summary says both.
///
/// A zone the user configured wins (`--timezone`, a person's setting, the pipeline's). Without
/// one, a server's own zone is the wrong guess (a cron server runs in UTC; the phone was in
/// Seoul), so: the zone of the earlier imports into the same folder (a nightly run never flips
/// it and rebuilds), else the export's own — its records' `HKTimeZone` metadata, else the zone
/// of its locale's region whose offset at the `ExportDate` is the offset printed there — and
/// only when the export says nothing, the machine's.
package struct TimeZoneChoice: Sendable, Equatable {
    package var zone: TimeZone
    package var reason: String
    /// The zone's name as the user or the store gave it: Foundation on Linux calls `UTC`
    /// "GMT", which a summary must not print back to someone who asked for UTC.
    package var name: String
    /// The local days mode of the earlier imports, when the zone is theirs (a store of this
    /// analytics version): a nightly run without options keeps what the first run chose.
    package var earlierLocalDays: LocalDays?

    package init(zone: TimeZone, reason: String, name: String? = nil) {
        self.zone = zone
        self.reason = reason
        self.name = name ?? zone.identifier
    }

    /// The mode of a run that configures none: the earlier imports', else the days follow the
    /// timeline when no zone is configured (`configured`), else the one zone.
    package func localDays(configured: Bool) -> LocalDays {
        configured ? .zone : earlierLocalDays ?? .whereRecorded
    }

    /// The zone for a run that configures none.
    static func unconfigured(source: any HealthInput, publishedStore: String?) throws -> TimeZoneChoice {
        if let store = publishedStore, let (zone, name, localDays) = earlierZone(in: store) {
            var choice = TimeZoneChoice(zone: zone, reason: "the zone of the earlier imports into this folder", name: name)
            choice.earlierLocalDays = localDays
            return choice
        }
        let hints = try source.zoneHints()
        if let name = hints.timeZoneName, let zone = TimeZone(identifier: name) {
            return TimeZoneChoice(zone: zone, reason: hints.timeZoneReason ?? "HKTimeZone metadata in the export")
        }
        if let offset = hints.exportOffsetSeconds, let date = hints.exportDate {
            let printed = Self.offsetText(offset)
            if let zone = zone(withOffset: offset, at: date, region: region(of: hints.locale)) {
                return TimeZoneChoice(zone: zone, reason: "the ExportDate's offset \(printed) in the locale's region (\(hints.locale ?? ""))")
            }
            if let zone = TimeZone(secondsFromGMT: offset) {
                return TimeZoneChoice(zone: zone, reason: "the ExportDate's offset \(printed) (a fixed offset: no daylight saving time)")
            }
        }
        return TimeZoneChoice(zone: .current, reason: "the machine's zone (the export names none)")
    }

    /// The zone of the last run stored in `path`, if there is one, and its local days mode if
    /// its analytics are of this version (a store before issue 48 moves to the timeline).
    static func earlierZone(in path: String) -> (TimeZone, String, LocalDays?)? {
        guard FileManager.default.fileExists(atPath: path),
              let db = try? Database(path: path, mode: .readOnly),
              let name = try? HealthStore(database: db).lastRun()?.timeZone,
              let zone = TimeZone(identifier: name) else { return nil }
        let settings = (try? StoreSettings.stored(in: db)) ?? nil
        return (zone, name, settings.flatMap { $0.schema == StoreSchema.analyticsVersion ? $0.localDays : nil })
    }

    /// `KR` of `ko-Kore_KR`, `US` of `en_US`.
    static func region(of locale: String?) -> String? {
        guard let last = locale?.split(whereSeparator: { $0 == "_" || $0 == "-" }).last, last.count == 2,
              last.allSatisfy({ $0.isUppercase }) else { return nil }
        return String(last)
    }

    /// The first zone of `region` (in the system's `zone.tab` order, where the main zone of a
    /// country comes first) whose offset at `date` is `offset`.
    static func zone(withOffset offset: Int, at date: Timestamp, region: String?) -> TimeZone? {
        guard let region else { return nil }
        let instant = Date(timeIntervalSince1970: date.seconds)
        for name in zones(ofRegion: region) {
            if let zone = TimeZone(identifier: name), zone.secondsFromGMT(for: instant) == offset { return zone }
        }
        return nil
    }

    /// Zone names of a country from the tz database's `zone.tab` (Linux and macOS ship it).
    static func zones(ofRegion region: String) -> [String] {
        for path in ["/usr/share/zoneinfo/zone.tab", "/usr/share/zoneinfo/zone1970.tab"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            return text.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: "\t")
                guard fields.count >= 3, !line.hasPrefix("#"), fields[0].split(separator: ",").contains(Substring(region))
                else { return nil }
                return String(fields[2])
            }
        }
        return []
    }

    static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return sign + String(format: "%02d%02d", minutes / 60, minutes % 60)
    }
}
