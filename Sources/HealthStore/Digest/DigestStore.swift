import Foundation
import HealthCore
import SQLite

/// A day as the nightly digest reads it (docs/report-and-workbook.md, "The digest").
package struct DigestDay: Sendable, Equatable {
    package var date: CivilDate
    package var steps: Double?
    package var sleepMinutes: Double?
    package var restingHeartRate: Double?
    /// A day known to be incomplete (`daily_analytics.partial_day`): never counted.
    package var partial: Bool

    package init(date: CivilDate, steps: Double? = nil, sleepMinutes: Double? = nil, restingHeartRate: Double? = nil,
                partial: Bool = false) {
        self.date = date; self.steps = steps; self.sleepMinutes = sleepMinutes; self.restingHeartRate = restingHeartRate
        self.partial = partial
    }
}

/// One thing an import changed, in a line a person reads in a cron mail.
package struct DigestChange: Sendable, Equatable, Codable {
    /// `new-days`, `best`, `streak`, `baseline`, `gap`.
    package var kind: String
    package var text: String
    package init(kind: String, text: String) { self.kind = kind; self.text = text }
}

/// The digest's reads and its one write: the days it compares, and the changes of the last
/// import that changed the store (`settings.changes`, JSON), which the report shows at its top.
extension HealthStore {
    /// Every day with analytics: steps, sleep, the day's resting heart rate, partial or not.
    package func digestDays() throws -> [DigestDay] {
        guard try database.hasTable("daily_analytics") else { return [] }
        let hasPartial = try database.rows("PRAGMA table_info(daily_analytics)").contains { $0[1].string == "partial_day" }
        return try database.rows("""
            SELECT a.date, a.steps, a.sleep_total_minutes, m.average, \(hasPartial ? "a.partial_day" : "0")
            FROM daily_analytics a LEFT JOIN daily_metrics m
              ON m.date = a.date AND m.type = 'HKQuantityTypeIdentifierRestingHeartRate'
            ORDER BY a.date
            """).compactMap { r in
            guard let date = r[0].string.flatMap({ CivilDate(iso: $0) }) else { return nil }
            return DigestDay(date: date, steps: r[1].double, sleepMinutes: r[2].double, restingHeartRate: r[3].double,
                             partial: (r[4].int ?? 0) != 0)
        }
    }

    /// The days of the store at `path`, if there is one (the published store before a run).
    package static func digestDays(atPath path: String) -> [DigestDay] {
        guard FileManager.default.fileExists(atPath: path), let store = try? HealthStore(path: path) else { return [] }
        return (try? store.digestDays()) ?? []
    }

    package func saveChanges(_ changes: [DigestChange]) throws {
        // Sorted keys: the same changes are the same bytes in every run (an incremental store
        // compares byte for byte with a full one).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(changes), as: UTF8.self)
        try database.rows("INSERT OR REPLACE INTO settings (key, value) VALUES ('changes', ?)", [.text(json)])
    }

    /// The changes of the last import that changed the store (none for an older store).
    package func latestChanges() throws -> [DigestChange] {
        guard try database.hasTable("settings"),
              let json = try database.rows("SELECT value FROM settings WHERE key = 'changes'").first?.first?.string else { return [] }
        return (try? JSONDecoder().decode([DigestChange].self, from: Data(json.utf8))) ?? []
    }
}
