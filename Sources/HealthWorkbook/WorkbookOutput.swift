import Foundation
import HealthCore
import HealthStore
import PrivateFiles
import SQLite

/// `health.xlsx` as an output of a run (pipeline name `xlsx`).
package struct WorkbookOutput: Output {
    package static let fileName = "health.xlsx"
    package let units: UnitSystem
    package init(units: UnitSystem = .metric) { self.units = units }

    package var name: String { "xlsx" }
    package var summaryName: String { Self.fileName }
    package var published: [String] { [Self.fileName] }

    package func isMissing(in folder: String) -> Bool {
        !FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(Self.fileName))
    }

    package func stage(from database: Database, in staging: String, folder: String, run: StagingRun,
                      progress: (String) throws -> Void) throws -> StagedFiles {
        try progress("workbook")
        let path = (staging as NSString).appendingPathComponent(Self.fileName)
        try HealthWorkbook.write(from: database, to: path, units: units, durability: .syncedWhenPublished)
        return StagedFiles(moves: [StagedOutput(staged: path, final: (folder as NSString).appendingPathComponent(Self.fileName))])
    }
}
