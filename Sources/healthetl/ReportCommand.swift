import Foundation
import HealthCore
import HealthPeople
import HealthStore
import HealthPipeline
import HealthReport
import SQLite

/// `healthetl report [--out DIR] [--person ID] [--pipeline FILE] [--open]`: writes
/// `OUT/report/index.html` from the store (every import also rewrites it when something changed).
enum ReportCommand: Command {
    static let name = "report"
    static let abstract = "write OUT/report/index.html from the store, in the current units and goals"
    static let spec = ArgumentSpec(options: [.out, .person, .pipeline, Option("open", help: "open the page in the browser")])

    static func run(_ args: ParsedArguments) throws {
        let pipeline = try ImportCommand.loadPipeline(args.option("pipeline"))
        try args.refuseFamilyFolderWithoutPerson(name)
        // The person's settings over the pipeline's, as their imports use them: a changed
        // `units` shows in the next report, not only after the next import.
        let config = try args.person.map { try People(root: args.root).config(for: $0, pipeline: pipeline) } ?? pipeline
        let folder = OutputFolder(path: try args.outFolder)
        guard FileManager.default.fileExists(atPath: folder.databasePath) else {
            throw HealthETLError.inputMissing("\(folder.databasePath): no store yet (run healthetl import first)")
        }
        let database = try Database(path: folder.databasePath, mode: .readOnly)
        let reportFolder = (folder.path as NSString).appendingPathComponent("report")
        try FileManager.default.createDirectory(atPath: reportFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let path = (reportFolder as NSString).appendingPathComponent("index.html")
        try ReportWriter.write(from: database, to: path, goals: config.goals ?? ReportGoals(), units: try config.unitSystem())
        if let note = try zoneNote(config, database) { FileHandle.standardError.write(Data("healthetl: note: \(note)\n".utf8)) }
        print(path)
        if args.flag("open") { open(path) }
    }

    /// A zone set since the last import cannot move the stored days; the report says so
    /// rather than silently showing the old zone's days.
    private static func zoneNote(_ config: PipelineConfig, _ database: Database) throws -> String? {
        guard let configured = config.timezone, let zone = TimeZone(identifier: configured),
              let stored = try HealthStore(database: database).lastRun()?.timeZone,
              let storedZone = TimeZone(identifier: stored), storedZone != zone else { return nil }
        return "the timezone setting is \(configured) but the stored days are in \(stored); the next import rebuilds them"
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
