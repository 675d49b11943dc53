import Foundation
import HealthCore
import HealthOutputs
import HealthPeople
import HealthPipeline

/// A subcommand: its name, what it does (one line for the overview, more for its help) and
/// what it accepts; `Help` generates the texts from these.
protocol Command {
    static var name: String { get }
    static var abstract: String { get }
    static var discussion: String { get }
    static var spec: ArgumentSpec { get }
    static func run(_ args: ParsedArguments) throws
}

/// Every command, in the order `healthetl help` lists them (the help, the man page and the
/// completions are generated from this list).
enum Commands {
    static var all: [any Command.Type] {
        [ImportCommand.self, ImportAllCommand.self, PeopleCommand.self, ReportCommand.self, ExportFHIRCommand.self, QueryCommand.self,
         ReplCommand.self, MCPCommand.self, StatusCommand.self, ResetCommand.self, CompletionsCommand.self]
    }
}

extension Command {
    static var discussion: String { "" }
    static var usage: String { Help.usageLine(name, spec) }
}

/// `healthetl import EXPORT [OTHER-EXPORT] [--out DIR] [--person ID] [--pipeline FILE] [--timezone ZONE] [--local-days where-recorded|zone] [--full] [--same-person] [--quiet] [--json]`
enum ImportCommand: Command {
    static let name = "import"
    static let abstract = "import an Apple Health or Health Connect export: the first run builds the store, later ones add what is new"
    static let discussion = """
        Writes OUT/health.sqlite, OUT/csv/, OUT/parquet/, OUT/report/index.html and OUT/health.xlsx (the pipeline's
        "outputs" choose). A later import of a newer export adds only its new records; a changed setting (time zone,
        source priority, units, CSV dialect, goals) takes effect then, and the summary says what was rewritten and why.
        A killed import resumes when run again. One person's iPhone and Android exports go into one store (a person
        who switched phones): import each, or both at once (always a full build); docs/PEOPLE.md. Exit codes: 0 ok, 64 usage, 65 not a usable export, 66 not found,
        73 cannot create output, 74 I/O error, 75 another run holds the folder.
        """
    static let spec = ArgumentSpec(
        positionals: [Positional(name: "EXPORT", help: "export.zip, export.xml, the unzipped apple_health_export folder, or health_connect_export.zip (or its .db)"),
                      Positional(name: "OTHER-EXPORT", help: "the same person's export of the other platform, read with EXPORT into one store built from both",
                                 optional: true, kind: .path)],
        options: [.out, .person, .pipeline, .timezone, .localDays, .full, .samePerson, .quiet, .json])

    static func run(_ args: ParsedArguments) throws {
        var config = try loadPipeline(args.option("pipeline"))
        if let mode = args.option("local-days") { config.localDays = mode }
        let quiet = args.flag("quiet")
        let interactive = !quiet && isatty(STDERR_FILENO) == 1
        let progress = interactive ? TerminalProgressLine().handler : nil
        let out = args.option("out") ?? config.out ?? ParsedArguments.defaultOut
        let summary: RunSummary
        if let person = try args.person {
            summary = try People(root: out).runImport(args.positionals[0], for: person, pipeline: config,
                                                      timezone: args.option("timezone"), full: args.flag("full"),
                                                      progress: progress, moreExports: Array(args.positionals.dropFirst()),
                                                      samePerson: args.flag("same-person"))
        } else {
            let zone = try config.configuredTimeZone(override: args.option("timezone"))
            var options = ImportJob.Options(export: args.positionals[0], out: out, timeZone: zone, config: config,
                                            outputs: try OutputRegistry.standard.outputs(for: config),
                                            layout: OutputRegistry.standard.layout, progress: progress, full: args.flag("full"))
            (options.moreExports, options.samePerson) = (Array(args.positionals.dropFirst()), args.flag("same-person"))
            summary = try ImportJob(options: options).run()
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
    static let abstract = "show the last runs, what the store holds and any import waiting to resume"
    static let spec = ArgumentSpec(options: [.out, .person])

    static func run(_ args: ParsedArguments) throws {
        try args.refuseFamilyFolderWithoutPerson(name)
        print(try StoreStatus(folder: try args.outputFolder).report())
    }
}

/// `healthetl reset [--out DIR] [--person ID] [--keep-profile] [--yes]`: start over (see `StoreReset`,
/// `ResetPlan`). Without `--yes` it lists what it would remove and changes nothing (64), as
/// `people remove` does.
enum ResetCommand: Command {
    static let name = "reset"
    static let abstract = "start over: remove every output of a folder (with --yes)"
    static let discussion = """
        Removes the store (health.sqlite), what every output publishes (\(OutputRegistry.standard.layout.published.joined(separator: ", ")))
        and the run state in .healthetl/ (run log, checkpoints, REPL history); with --person also the person's partitions of OUT/dataset. Keeps a
        person's settings (person.json) and, in a family folder, everyone in people/. Without --yes it lists what
        it would remove and changes nothing (exit 64).
        """
    static let spec = ArgumentSpec(options: [
        .out, .person,
        Option("keep-profile", help: "keep the samples and profile; clear only analytics and anchors (the next import recomputes every day)"),
        .yes,
    ])

    static func run(_ args: ParsedArguments) throws {
        let person = try args.person
        let folder = try args.outputFolder
        let people = People(root: args.root)
        let partitions = person.map { people.datasetPartitions(of: $0) } ?? []
        let keepProfile = args.flag("keep-profile")
        guard args.flag("yes") else {
            throw HealthETLError.usage(ResetText.dryRun(folder: folder, plan: ResetPlan(folder: folder), partitions: partitions,
                                                        keepProfile: keepProfile, person: person, root: args.root))
        }
        // Partitions whose store is gone already are still the person's outputs: they go too.
        let text = try StoreReset(folder: folder).run(keepProfile: keepProfile, alongside: partitions)
        print(text + ResetText.kept(folder: folder, person: person, root: args.root, keepProfile: keepProfile))
    }
}
