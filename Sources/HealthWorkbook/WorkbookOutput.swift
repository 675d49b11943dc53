import Foundation
import HealthStore
import PrivateFiles
import SQLite

/// `health.xlsx` as an output of a run (pipeline name `xlsx`).
public struct WorkbookOutput: Output {
    public static let fileName = "health.xlsx"
    public let units: UnitSystem
    public init(units: UnitSystem = .metric) { self.units = units }

    public var name: String { "xlsx" }
    public var summaryName: String { Self.fileName }

    public func isMissing(in folder: String) -> Bool {
        !FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(Self.fileName))
    }

    public func stage(from database: Database, in staging: String, folder: String, run: StagingRun,
                      progress: (String) throws -> Void) throws -> StagedFiles {
        try progress("workbook")
        let path = (staging as NSString).appendingPathComponent(Self.fileName)
        try HealthWorkbook.write(from: database, to: path, units: units, durability: .syncedWhenPublished)
        return StagedFiles(moves: [StagedOutput(staged: path, final: (folder as NSString).appendingPathComponent(Self.fileName))])
    }
}
