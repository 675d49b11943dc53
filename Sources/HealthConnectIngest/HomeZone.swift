import Foundation
import HealthCore
import SQLite

/// The person's home zone, read from what Health Connect keeps: every record's UTC offset
/// (Health Connect stores offsets, not zone names). The home zone is the IANA zone whose offset
/// agrees with the records' at the most of their instants, summer and winter alike (a UTC+1
/// winter and a UTC+2 summer say Central Europe, not two trips); ties go to this machine's zone,
/// then to a zone from a short list of the most used, then by name. Records made at another
/// offset are then evidence of where the person was (`zoneName(offset:at:)`), as `HKTimeZone`
/// metadata is in an Apple export.
struct HomeZone: Sendable {
    var zone: TimeZone?
    var reason: String
    var latestOffset: Int?
    var latestInstant: Timestamp?

    /// Zones preferred among equals, each standing for its offsets' region.
    static let common = ["Europe/London", "Europe/Berlin", "Europe/Helsinki", "Europe/Moscow", "America/New_York",
                         "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Sao_Paulo", "Asia/Kolkata",
                         "Asia/Shanghai", "Asia/Tokyo", "Asia/Seoul", "Australia/Sydney", "Pacific/Auckland", "UTC"]

    /// The offsets of a month's records, with an instant of each and how many.
    struct Evidence { var instant: Int64; var offset: Int; var count: Int64 }

    static func infer(from database: Database, tables: [RecordTable]) throws -> HomeZone {
        // Merged by month and offset across tables: a few hundred entries however many records.
        var byMonth: [Int64: Evidence] = [:]
        var latest: (Int64, Int)?
        for table in tables {
            let (time, offset) = table.shape == .interval ? ("start_time", "start_zone_offset") : ("time", "zone_offset")
            let rows = try database.rows("""
                SELECT min(\(time)), \(offset), count(*), max(\(time)) FROM "\(table.name)"
                WHERE \(time) IS NOT NULL AND \(offset) BETWEEN -64800 AND 64800
                GROUP BY \(time) / 2592000000, \(offset)
                """)
            for row in rows {
                guard let instant = row[0].int, let offset = row[1].int, let count = row[2].int, let last = row[3].int else { continue }
                let key = (instant / 2_592_000_000) * 100_000 + offset
                byMonth[key, default: Evidence(instant: instant, offset: Int(offset), count: 0)].count += count
                if latest.map({ last > $0.0 }) ?? true { latest = (last, Int(offset)) }
            }
        }
        var home = HomeZone(zone: nil, reason: "", latestOffset: latest?.1,
                            latestInstant: latest.map { Timestamp(microseconds: $0.0 * 1000) })
        let evidence = Array(byMonth.values)
        let total = evidence.reduce(0) { $0 + $1.count }
        guard total > 0 else { return home }
        let (zone, agreeing) = best(for: evidence)
        home.zone = zone
        home.reason = "the records' UTC offsets (Health Connect keeps no zone names): \(zone.identifier) agrees with "
            + "\(agreeing) of \(total) records"
        return home
    }

    static func best(for evidence: [Evidence]) -> (TimeZone, Int64) {
        var bestScore: Int64 = -1
        var winners: [String] = []
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            guard let zone = TimeZone(identifier: identifier) else { continue }
            var score: Int64 = 0
            for e in evidence where zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(e.instant) / 1000)) == e.offset {
                score += e.count
            }
            if score > bestScore { (bestScore, winners) = (score, [identifier]) } else if score == bestScore { winners.append(identifier) }
        }
        let pick = winners.first { $0 == TimeZone.current.identifier }
            ?? common.first { winners.contains($0) }
            ?? winners.sorted().first ?? "UTC"
        return (TimeZone(identifier: pick) ?? TimeZone(identifier: "UTC")!, bestScore)
    }

    /// The zone a record made at `offset` (seconds east of UTC) at `instant` was made in: the
    /// home zone when it agrees, else the fixed zone of that offset (`GMT+0900`).
    func zoneName(offset: Int, at instant: Int64) -> String {
        if let zone, zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000)) == offset { return zone.identifier }
        return TimeZone(secondsFromGMT: offset)?.identifier ?? zone?.identifier ?? "UTC"
    }
}
