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
        let folder = try args.outputFolder
        guard FileManager.default.fileExists(atPath: folder.databasePath) else {
            throw HealthETLError.inputMissing("\(folder.databasePath): no store yet (run healthetl import first)")
        }
        try folder.refusePlantedLinks()
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

    /// Opens the page with the desktop's browser, where there is one; the path is printed anyway
    /// (issue 45). Without a display there is no browser to open, and xdg-open would only print
    /// its errors over the next prompt (or start a text browser in this terminal): it is not run.
    /// The opener's own output is kept; one line says when it could not open the page.
    private static func open(_ path: String) {
        let environment = ProcessInfo.processInfo.environment
        func say(_ text: String) { FileHandle.standardError.write(Data("healthetl: \(text); open \(path) in a browser\n".utf8)) }
        #if os(Linux)
        guard environment["DISPLAY"]?.isEmpty == false || environment["WAYLAND_DISPLAY"]?.isEmpty == false else {
            return say("no browser to open here (no display)")
        }
        #endif
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        guard let opener = ["xdg-open", "open"].lazy.flatMap({ name in folders.map { $0 + "/" + name } })
            .first(where: FileManager.default.isExecutableFile(atPath:)) else { return say("no xdg-open or open here") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return say("\(opener) did not start") }
        // xdg-open hands the page to the browser and returns; a failure returns at once too.
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if !process.isRunning && process.terminationStatus != 0 {
            say("no browser could open it (\((opener as NSString).lastPathComponent) exited \(process.terminationStatus))")
        }
    }
}
