import Foundation
import HealthCore
import SQLite

/// The exports a store holds, one per platform (issue 60: a person who switched phones has an
/// iPhone's export and an Android phone's in one store), kept in `settings.exports`: where
/// each was last imported from (nothing of when: two runs of the same exports make the same
/// store; the run log has the times), what its input said about itself (`HealthInput.
/// contentState`, for the next run's question whether it only adds), and the priority lists
/// it brought. A rebuild of a store of two platforms reads both again from here; `status` and
/// `people show` list them.
package struct StoreExports: Sendable, Equatable, Codable {
    package struct Entry: Sendable, Equatable, Codable {
        package var platform: InputPlatform
        /// The path as the person gave it, made absolute.
        package var path: String
        package var kind: String
        package var state: String?
        /// The export's own per-type source lists (`HealthInput.sourcePriority`), if any.
        package var lists: [String: [String]]?

        package init(platform: InputPlatform, path: String, kind: String, state: String?, lists: [String: [String]]?) {
            self.platform = platform; self.path = path; self.kind = kind; self.state = state; self.lists = lists
        }
    }

    package private(set) var entries: [Entry] = []

    package init(entries: [Entry] = []) { self.entries = entries.sorted { $0.platform.rawValue < $1.platform.rawValue } }

    package var platforms: [InputPlatform] { entries.map(\.platform) }

    package func entry(_ platform: InputPlatform) -> Entry? { entries.first { $0.platform == platform } }

    /// These exports with `entry` in its platform's place.
    package func setting(_ entry: Entry) -> StoreExports {
        StoreExports(entries: entries.filter { $0.platform != entry.platform } + [entry])
    }

    /// The per-type lists of every export (a Health Connect export's), merged.
    package var lists: [String: [String]] {
        entries.reduce(into: [:]) { all, entry in all.merge(entry.lists ?? [:]) { a, _ in a } }
    }

    /// A store's exports. A store made before issue 60 has none kept: its one platform's, with
    /// its `input_state`, and no path (it was never asked for).
    package static func read(from database: Database) throws -> StoreExports {
        guard try database.hasTable("settings") else { return StoreExports() }
        if let text = try StoreSettings.value(of: "exports", in: database),
           let decoded = try? JSONDecoder().decode(StoreExports.self, from: Data(text.utf8)) {
            return decoded
        }
        guard try database.hasTable("runs"), try HealthStore(database: database).lastRunID() != nil,
              let platform = InputPlatform(rawValue: try StoreSettings.platform(in: database)) else { return StoreExports() }
        return StoreExports(entries: [Entry(platform: platform, path: "", kind: "",
                                            state: try StoreSettings.inputState(in: database), lists: nil)])
    }

    /// `status`'s and `people show`'s lines: each export, where it was last imported from.
    package var lines: [String] {
        entries.map { e in "\(e.platform.displayName) export: " + (e.path.isEmpty ? "(imported before paths were kept)" : e.path) }
    }

    package func save(in database: Database) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try StoreSettings.set("exports", String(decoding: try encoder.encode(self), as: UTF8.self), in: database)
    }
}
