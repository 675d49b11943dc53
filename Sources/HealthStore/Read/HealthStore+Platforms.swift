import HealthCore
import SQLite

extension HealthStore {
    /// One stored measurement of a body type, for the question whether two platforms' records
    /// are one person's (`SamePerson.across`).
    package struct Measurement: Sendable, Equatable {
        package var type: String
        package var startMicroseconds: Int64
        package var value: Double
    }

    /// The types whose measurements tell two people apart, or show one person: a body's mass
    /// and height, which a scale or a person enters on both phones.
    package static let identifyingTypes = ["HKQuantityTypeIdentifierBodyMass", "HKQuantityTypeIdentifierHeight"]

    /// The measurements of `identifyingTypes` stored from `platform`'s sources (at most `limit`,
    /// newest first). A source stored before version 12 counts as the store's own platform.
    package func measurements(from platform: InputPlatform, limit: Int = 5000) throws -> [Measurement] {
        let own = try StoreSettings.platform(in: database)
        let column = try StoreSchema.columns(of: "sources", in: database).contains("platform") ? "s.platform" : "NULL"
        let types = Self.identifyingTypes.map { "'\($0)'" }.joined(separator: ",")
        return try database.rows("""
            SELECT t.identifier, d.start_us, d.value FROM sample_data d
              JOIN types t ON t.id = d.type_id JOIN sources s ON s.id = d.source_id
              WHERE t.identifier IN (\(types)) AND d.value IS NOT NULL AND ifnull(\(column), ?) = ?
              ORDER BY d.start_us DESC LIMIT ?
            """, [.text(own), .text(platform.rawValue), .integer(Int64(limit))])
            .compactMap { row in
                guard let type = row[0].string, let start = row[1].int, let value = row[2].double else { return nil }
                return Measurement(type: type, startMicroseconds: start, value: value)
            }
    }

    /// How many records of `identifyingTypes` this store's load dropped as exact copies (of
    /// the same app's measurement, which a scale writes to both phones under one name).
    package func copiedMeasurements() throws -> Int {
        guard try database.hasTable("duplicate_copies") else { return 0 }
        let types = Self.identifyingTypes.map { "'\($0)'" }.joined(separator: ",")
        return Int(try database.scalar("""
            SELECT ifnull(sum(c.copies), 0) FROM duplicate_copies c JOIN types t ON t.id = c.type_id
              WHERE t.identifier IN (\(types))
            """).int ?? 0)
    }

    /// The source names of the store that only `platform`'s sources bear, or nil when every
    /// source is of that platform. An anchor (by type and source name) is this platform's only
    /// for those: a scale's app on both phones has one name and two histories.
    package func sourceNames(onlyOf platform: InputPlatform) throws -> Set<String>? {
        guard try StoreSchema.columns(of: "sources", in: database).contains("platform") else { return nil }
        let own = try StoreSettings.platform(in: database)
        var names: [String: Bool] = [:], allOfIt = true
        for row in try database.rows("SELECT name, ifnull(platform, ?) FROM sources", [.text(own)]) {
            let mine = row[1].string == platform.rawValue
            allOfIt = allOfIt && mine
            if let name = row[0].string { names[name] = (names[name] ?? true) && mine }
        }
        return allOfIt ? nil : Set(names.filter(\.value).keys)
    }

    /// The platforms of the store's sources (a store made before version 12: its own).
    package func sourcePlatforms() throws -> Set<InputPlatform> {
        let own = InputPlatform(rawValue: try StoreSettings.platform(in: database)) ?? .appleHealth
        guard try StoreSchema.columns(of: "sources", in: database).contains("platform") else {
            return try database.scalar("SELECT count(*) FROM sources").int ?? 0 > 0 ? [own] : []
        }
        return Set(try database.rows("SELECT DISTINCT platform FROM sources").map {
            $0[0].string.flatMap(InputPlatform.init(rawValue:)) ?? own
        })
    }
}
