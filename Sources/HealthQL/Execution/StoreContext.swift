import Foundation
import HealthCore
import HealthStore
import SQLite

/// A published store opened for queries: read-only, with the calendar (zone, or a traveller's
/// timeline) and week start its analytics were computed in, and HealthQL's SQL functions registered.
package final class StoreContext {
    package let database: Database
    /// The home zone (one zone: the zone).
    package let timeZone: TimeZone
    /// The store's local days (`StoreSettings.calendar`): every local date and clock HealthQL prints.
    let calendar: LocalCalendar
    /// 0 = Monday … 6 = Sunday.
    package let weekStart: Int
    let hasHourlyMetrics: Bool
    /// Stores of schema 3 and older have no ECG tables until their next import.
    let hasECGRecordings: Bool
    private var storedValueCache: [String: [String]] = [:]

    /// Opens `path` read-only; a missing store is the user's to fix (exit 66), not an internal error.
    package convenience init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw HealthETLError.inputMissing("\(path): no store here (run `healthetl import` first)")
        }
        try self.init(database: Database(path: path, mode: .readOnly))
    }

    package init(database: Database) throws {
        self.database = database
        try database.execute("PRAGMA query_only = ON")
        // A query's sorts and temporary indexes stay in memory: no temporary file of health data
        // outside the output folder (issue 46; an import keeps its own in the state folder).
        try database.execute("PRAGMA temp_store = MEMORY")
        let settings = try StoreSettings.stored(in: database)
        let zoneName = settings?.zone ?? (try? HealthStore(database: database).lastRecordedZone()) ?? nil
        timeZone = zoneName.flatMap(TimeZone.init(identifier:)) ?? .current
        calendar = try StoreSettings.calendar(in: database) ?? LocalCalendar(timeZone: timeZone)
        weekStart = settings?.weekStart ?? 0
        hasHourlyMetrics = try database.hasTable("hourly_metrics")
        hasECGRecordings = try database.hasTable("ecg_recordings")
        try SQLFunctions.register(on: database, calendar: calendar, weekStart: weekStart)
    }

    /// The distinct identifiers stored in a name field (sleep stages, workout types), cached.
    func storedValues(of field: Field) throws(HealthQLError) -> [String] {
        guard let sql = field.storedValuesSQL else { return [] }
        let key = sql + "|" + field.storedValuesBindings.map(\.description).joined(separator: "|")
        if let cached = storedValueCache[key] { return cached }
        do {
            let values = try database.rows(sql, field.storedValuesBindings).compactMap { $0.first?.string }
            storedValueCache[key] = values
            return values
        } catch {
            throw HealthQLError("Cannot read the stored values of '\(field.name)': \(error)", at: .start)
        }
    }

    func clock(now: Timestamp, today: CivilDate? = nil) -> QueryClock {
        QueryClock(now: now, calendar: calendar, weekStart: weekStart, today: today)
    }
}
