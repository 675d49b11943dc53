import Foundation
import HealthAnalytics
import HealthStore
import SQLite

/// Why a run that could have added to the published store rebuilt it instead, in the words
/// of the run summary ("zone changed (Europe/Berlin → America/New_York): every day rebuilt").
enum RebuildReason {
    /// Nil when there is no published store (a first import says nothing) or it cannot be read
    /// (the run then says what is wrong with it elsewhere).
    static func explain(publishedStore path: String, settings: AnalyticsSettings) -> String? {
        guard FileManager.default.fileExists(atPath: path),
              let database = try? Database(path: path, mode: .readOnly) else { return nil }
        guard let version = try? HealthStore(database: database).schemaVersion(),
              (StoreSchema.oldestUpgradable...StoreSchema.version).contains(version) else {
            return "the store is of another version: rebuilt from this export"
        }
        let store = HealthStore(database: database)
        guard let stored = try? StoreSettings.storedLine(in: database) else {
            return "the store holds no analytics settings: rebuilt from this export"
        }
        if (try? store.lastRunID()) == nil {
            return "the store records no finished run: rebuilt from this export"
        }
        // The zone as the runs name it (`UTC`, where the fingerprint holds Foundation's `GMT`).
        var old = stored
        if let name = try? store.lastRun()?.timeZone,
           let zone = TimeZone(identifier: name), name != zone.identifier {
            old = old.replacingOccurrences(of: "zone=\(zone.identifier);", with: "zone=\(name);")
        }
        let changes = SettingsDifference.changes(from: old, to: settings.fingerprint)
        guard !changes.isEmpty else { return nil }
        return changes.joined(separator: ", ") + ": rebuilt every day from this export"
    }
}
