import Foundation
import HealthCore
import HealthStore
import HealthPipeline
import HealthReport
import SQLite

/// `healthetl report [--out DIR] [--person ID] [--pipeline FILE] [--open]`: writes
/// `OUT/report/index.html` from the store (every import also rewrites it when something changed).
enum ReportCommand: Command {
    static let name = "report"
    static let usage = "healthetl report [--out DIR] [--person ID] [--pipeline FILE] [--open]"
    static let spec = ArgumentSpec(flags: ["open"], options: ["out", "person", "pipeline"])

    static func run(_ args: ParsedArguments) throws {
        let config = try ImportCommand.loadPipeline(args.option("pipeline"))
        let folder = OutputFolder(path: try args.outFolder)
        guard FileManager.default.fileExists(atPath: folder.databasePath) else {
            throw HealthETLError.inputMissing("\(folder.databasePath): no store yet (run healthetl import first)")
        }
        let database = try Database(path: folder.databasePath, mode: .readOnly)
        let reportFolder = (folder.path as NSString).appendingPathComponent("report")
        try FileManager.default.createDirectory(atPath: reportFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let path = (reportFolder as NSString).appendingPathComponent("index.html")
        try ReportWriter.write(from: database, to: path, goals: config.goals ?? ReportGoals())
        print(path)
        if args.flag("open") { open(path) }
    }

    /// Opens the page with the desktop's browser, where there is one; the path is printed anyway.
    private static func open(_ path: String) {
        for opener in ["/usr/bin/xdg-open", "/usr/bin/open"] where FileManager.default.isExecutableFile(atPath: opener) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: opener)
            process.arguments = [path]
            try? process.run()
            return
        }
        FileHandle.standardError.write(Data("healthetl: no xdg-open or open here; open \(path) in a browser\n".utf8))
    }
}
