import Foundation
import HealthStore
import PrivateFiles
import SQLite

/// `report/index.html` as an output of a run (pipeline name `report`).
public struct ReportOutput: Output {
    public let goals: ReportGoals
    public let units: UnitSystem
    public init(goals: ReportGoals = ReportGoals(), units: UnitSystem = .metric) { self.goals = goals; self.units = units }

    public var name: String { "report" }
    public var summaryName: String { "report/index.html" }

    public func isMissing(in folder: String) -> Bool {
        !FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("report/index.html"))
    }

    public func stage(from database: Database, in staging: String, folder: String, run: StagingRun,
                      progress: (String) throws -> Void) throws -> StagedFiles {
        try progress("report")
        try ReportWriter.write(from: database, to: (staging as NSString).appendingPathComponent("index.html"), goals: goals,
                               units: units, durability: .syncedWhenPublished)
        return StagedFiles(moves: OutputFolders.moves(from: staging, to: (folder as NSString).appendingPathComponent("report")))
    }
}
