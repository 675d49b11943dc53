import Foundation
import HealthCore
import HealthStore
import PrivateFiles
import SQLite

/// Writes `report/index.html` from a store, atomically (written beside, then renamed), 0600.
package enum ReportWriter {
    /// The page of the store `database`.
    package static func page(from database: Database, goals: ReportGoals, units: UnitSystem = .metric) throws -> String {
        ReportPage(data: try ReportData.load(from: database), goals: goals, units: units).html
    }

    /// Writes the page of `database` to `path` (its folder must exist).
    package static func write(from database: Database, to path: String, goals: ReportGoals, units: UnitSystem = .metric,
                             durability: Durability = .synced) throws {
        let file = try AtomicOutputFile(path: path, bufferSize: 1 << 20, durability: durability)
        try file.write(Array(try page(from: database, goals: goals, units: units).utf8))
        try file.commit()
    }
}
