import Foundation
import HealthCore
import HealthOutputs
import HealthPeople
import HealthPipeline

protocol Command {
    static var name: String { get }
    static var usage: String { get }
    static var spec: ArgumentSpec { get }
    static func run(_ args: ParsedArguments) throws
}

/// `healthetl import EXPORT [--out DIR] [--person ID] [--pipeline FILE] [--timezone ZONE] [--full] [--quiet] [--json]`
enum ImportCommand: Command {
    static let name = "import"
    static let usage = "healthetl import EXPORT [--out DIR] [--person ID] [--pipeline FILE] [--timezone ZONE] [--full] [--quiet] [--json]"
    static let spec = ArgumentSpec(flags: ["full", "quiet", "json"], options: ["out", "person", "pipeline", "timezone"],
                                   positionals: ["EXPORT"])

    static func run(_ args: ParsedArguments) throws {
        let config = try loadPipeline(args.option("pipeline"))
        let quiet = args.flag("quiet")
        let interactive = !quiet && isatty(STDERR_FILENO) == 1
        let progress = interactive ? TerminalProgressLine().handler : nil
        let out = args.option("out") ?? config.out ?? ParsedArguments.defaultOut
        let summary: RunSummary
        if let person = try args.person {
            summary = try People(root: out).importJob(args.positionals[0], for: person, pipeline: config,
                                                      timezone: args.option("timezone"), full: args.flag("full"),
                                                      progress: progress).run()
        } else {
            let zone = try config.configuredTimeZone(override: args.option("timezone"))
            summary = try ImportJob(options: .init(export: args.positionals[0], out: out, timeZone: zone, config: config,
                                                   outputs: try OutputRegistry.standard.outputs(for: config),
                                                   progress: progress, full: args.flag("full"))).run()
        }
        if args.flag("json") {
            print(summary.json)
        } else if !quiet {
            FileHandle.standardError.write(Data((summary.text + "\n").utf8))
        }
    }

    /// `--pipeline FILE`, else `pipelines/default.json` if present, else built-in defaults.
    static func loadPipeline(_ path: String?) throws -> PipelineConfig {
        if let path { return try PipelineConfig.load(path) }
        let fallback = "pipelines/default.json"
        return FileManager.default.fileExists(atPath: fallback) ? try PipelineConfig.load(fallback) : PipelineConfig()
    }
}

/// `healthetl status [--out DIR] [--person ID]`: the last runs and what the store holds.
enum StatusCommand: Command {
    static let name = "status"
    static let usage = "healthetl status [--out DIR] [--person ID]"
    static let spec = ArgumentSpec(options: ["out", "person"])

    static func run(_ args: ParsedArguments) throws {
        print(try StoreStatus(folder: OutputFolder(path: try args.outFolder)).report())
    }
}

/// `healthetl reset [--out DIR] [--person ID] [--keep-profile]`: start over (see `StoreReset`).
enum ResetCommand: Command {
    static let name = "reset"
    static let usage = "healthetl reset [--out DIR] [--person ID] [--keep-profile]"
    static let spec = ArgumentSpec(flags: ["keep-profile"], options: ["out", "person"])

    static func run(_ args: ParsedArguments) throws {
        print(try StoreReset(folder: OutputFolder(path: try args.outFolder)).run(keepProfile: args.flag("keep-profile")))
    }
}
