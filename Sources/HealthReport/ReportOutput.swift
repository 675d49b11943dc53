import Foundation
import HealthCore
import HealthStore
import PrivateFiles
import SQLite

/// `report/index.html` as an output of a run (pipeline name `report`).
package struct ReportOutput: Output {
    package let goals: ReportGoals
    package let units: UnitSystem
    package init(goals: ReportGoals = ReportGoals(), units: UnitSystem = .metric) { self.goals = goals; self.units = units }

    package var name: String { "report" }
    package var summaryName: String { "report/index.html" }
    package var published: [String] { [name] }

    package func isMissing(in folder: String) -> Bool {
        !FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("report/index.html"))
    }

    package func stage(from database: Database, in staging: String, folder: String, run: StagingRun,
                      progress: (String) throws -> Void) throws -> StagedFiles {
        try progress("report")
        try ReportWriter.write(from: database, to: (staging as NSString).appendingPathComponent("index.html"), goals: goals,
                               units: units, durability: .syncedWhenPublished)
        return StagedFiles(moves: OutputFolders.moves(from: staging, to: (folder as NSString).appendingPathComponent("report")))
    }
}
