import Foundation
import HealthCore
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
        try args.refuseFamilyFolderWithoutPerson(name)
        print(try StoreStatus(folder: OutputFolder(path: try args.outFolder)).report())
    }
}

/// `healthetl reset [--out DIR] [--person ID] [--keep-profile] [--yes]`: start over (see `StoreReset`,
/// `ResetPlan`). Without `--yes` it lists what it would remove and changes nothing (64), as
/// `people remove` does.
enum ResetCommand: Command {
    static let name = "reset"
    static let usage = "healthetl reset [--out DIR] [--person ID] [--keep-profile] [--yes]"
    static let spec = ArgumentSpec(flags: ["keep-profile", "yes"], options: ["out", "person"])

    static func run(_ args: ParsedArguments) throws {
        let person = try args.person
        let folder = OutputFolder(path: try args.outFolder)
        let people = People(root: args.root)
        let partitions = person.map { people.datasetPartitions(of: $0) } ?? []
        let keepProfile = args.flag("keep-profile")
        guard args.flag("yes") else {
            throw HealthETLError.usage(ResetText.dryRun(folder: folder, plan: ResetPlan(folder: folder), partitions: partitions,
                                                        keepProfile: keepProfile, person: person, root: args.root))
        }
        var text: String
        do {
            text = try StoreReset(folder: folder).run(keepProfile: keepProfile)
        } catch let error as HealthETLError where !partitions.isEmpty && !keepProfile {
            // Partitions whose store is gone already are still the person's outputs.
            guard case .inputMissing = error else { throw error }
            text = "Removed from \(folder.path): nothing (no store)"
        }
        if let person, !keepProfile, !partitions.isEmpty {
            try people.removeDatasetPartitions(of: person)
            text += "\n" + partitions.map { "  " + $0 }.joined(separator: "\n")
        }
        print(text + ResetText.kept(folder: folder, person: person, root: args.root, keepProfile: keepProfile))
    }
}
