import Foundation
import HealthCore
import HealthStore
import SQLite

/// One person's exports of several platforms (issue 60; docs/PEOPLE.md, "One person, two
/// phones"): opened together, kept per platform with the store (`StoreExports`), and read again
/// together whenever a store that holds both is rebuilt.
enum PersonExports {
    /// `paths`: one export, or one per platform (`import --full iphone.zip android.zip`).
    static func open(_ paths: [String], scratch: String, trying formats: [any HealthInputFormat.Type]) throws -> any HealthInput {
        let parts = try paths.map { try InputFormats.open($0, scratch: scratch, trying: formats) }
        guard parts.count > 1 else { return parts[0] }
        var seen: [InputPlatform: String] = [:]
        for part in parts {
            if let earlier = seen[part.platform] {
                throw HealthETLError.usage("""
                    \(earlier) and \(part.path) are both \(part.platform.displayName) exports: give one export per platform \
                    (each export holds everything its phone has; the newest is all that is needed)
                    """)
            }
            seen[part.platform] = part.path
        }
        return CombinedInput(parts)
    }

    /// The exports the published store at `path` holds (none: no store, or one that cannot be read).
    static func stored(in path: String) -> StoreExports {
        guard FileManager.default.fileExists(atPath: path), let database = try? Database(path: path, mode: .readOnly) else {
            return StoreExports()
        }
        return (try? StoreExports.read(from: database)) ?? StoreExports()
    }

    /// `source` with the store's exports of its other platforms, for a rebuild (`why`), read
    /// again from where they were imported; `source` alone when the store holds no other.
    static func withOthers(_ source: any HealthInput, stored: StoreExports, scratch: String,
                           trying formats: [any HealthInputFormat.Type], why: String, out: String) throws -> any HealthInput {
        let others = stored.entries.filter { $0.platform != source.platform }
        guard !others.isEmpty else { return source }
        var parts: [any HealthInput] = []
        for entry in others {
            let missing = """
                the store in \(out) holds your \(entry.platform.displayName) export too\
                \(entry.path.isEmpty ? "" : ", imported from \(entry.path)"), and it is rebuilt (\(why)): \
                that export is needed again\(entry.path.isEmpty ? "" : " and is not there"). Nothing was changed. \
                Give both: healthetl import --full \(source.path) YOUR-\(entry.platform == .appleHealth ? "EXPORT.ZIP" : "HEALTH-CONNECT.ZIP") \
                --out \(out)
                """
            guard !entry.path.isEmpty, FileManager.default.fileExists(atPath: entry.path) else {
                throw HealthETLError.inputMissing(missing)
            }
            let part = try InputFormats.open(entry.path, scratch: scratch, trying: formats)
            guard part.platform == entry.platform else {
                throw HealthETLError.dataUnusable("\(entry.path) is no longer a \(entry.platform.displayName) export: " + missing)
            }
            parts.append(part)
        }
        return CombinedInput(parts + [source])
    }

    /// Keeps each of `source`'s exports in the store, beside those of `kept` (the store's others).
    static func record(_ source: any HealthInput, replacing kept: StoreExports, in database: Database) throws {
        var exports = kept
        for part in source.parts {
            let lists = part.sourcePriority
            exports = exports.setting(.init(platform: part.platform, path: absolute(part.path), kind: part.kindName,
                                            state: try part.contentState(),
                                            lists: lists.isEmpty ? nil : lists))
        }
        try exports.save(in: database)
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }
}
