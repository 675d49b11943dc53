import Foundation
import HealthCore
import HealthPeople
import HealthPipeline

/// `healthetl people [list | show ID | set ID … | remove ID [--yes]] [--out DIR] [--json]`:
/// the people of an output folder.
enum PeopleCommand: Command {
    static let name = "people"
    static let abstract = "list, show, set or remove the people of a family folder"
    static let discussion = """
        actions:
          list            everyone, with their days and last import (the default)
          show ID         one person's facts and every setting of person.json
          set ID ...      set --name, --birthdate, --timezone, --units, --max-heart-rate or --platform-priority
                          (creates the person if new); units take effect on the next report and import, a zone,
                          maximum heart rate or platform priority on the next import (which rebuilds every day)
          remove ID       erase the person, their files and dataset partitions (with --yes)
        """
    static let spec = ArgumentSpec(
        positionals: [Positional(name: "ACTION", help: "list, show, set or remove", optional: true,
                                 kind: .words(["list", "show", "set", "remove"])),
                      Positional(name: "ID", help: "the person (show, set, remove)", optional: true)],
        options: [.out, .json,
                  Option("name", value: "NAME", help: "set: their name"),
                  Option("birthdate", value: "YYYY-MM-DD", help: "set: their birth date (else the export's)"),
                  Option("timezone", value: "ZONE", help: "set: the IANA zone of their local days"),
                  Option("units", value: "metric|imperial", help: "set: what their CSV, workbook and report show"),
                  Option("max-heart-rate", value: "BPM", help: "set: the maximum of their workouts' heart-rate zones"),
                  Option("platform-priority", value: "CATEGORY=PLATFORM,...",
                         help: "set: which phone counts first where their iPhone and Android phone overlap (activity=apple-health)"),
                  .yes])

    static func run(_ args: ParsedArguments) throws {
        let people = People(root: args.root)
        let action = args.positionals.first ?? "list"
        let id = try args.positionals.dropFirst().first.map(PersonID.init)
        try refuseOptions(for: action, args)
        switch (action, id) {
        case ("list", nil):
            let all = try people.list()
            print(args.flag("json") ? try json(all) : table(all))
        case ("show", let id?):
            let facts = try people.facts(of: id)
            print(args.flag("json") ? try json(facts)
                  : (zip(PersonFacts.header, facts.cells).map { "\($0): \($1)" } + facts.exports + facts.zoneLines + facts.settingLines)
                    .joined(separator: "\n"))
        case ("set", let id?):
            guard settable.contains(where: { args.option($0) != nil }) else {
                throw HealthETLError.usage("people set \(id): nothing to set (--name, --birthdate, --timezone, --units, --max-heart-rate or --platform-priority)")
            }
            let created = !people.exists(id)
            let before = created ? PersonSettings() : try people.settings(of: id)
            let maximum = try args.option("max-heart-rate").map { text in
                guard let bpm = Double(text) else { throw HealthETLError.usage("--max-heart-rate '\(text)' is not a number of bpm") }
                return bpm
            }
            let platforms = try args.option("platform-priority").map(PipelineConfig.platformPriority(parsing:))
            let after = try people.update(id, name: args.option("name"), birthDate: args.option("birthdate"),
                                          timezone: args.option("timezone"), units: args.option("units"), maxHeartRate: maximum,
                                          platformPriority: platforms)
            print(args.flag("json") ? try json(try people.facts(of: id))
                  : PersonSettingsText.describe(id, created: created, before: before, after: after))
        case ("remove", let id?):
            guard people.exists(id) else { throw HealthETLError.inputMissing("no person '\(id)' in \(people.root)") }
            guard args.flag("yes") else {
                let files = people.files(of: id), base = people.outputFolder(of: id).path
                throw HealthETLError.usage("people remove \(id) would erase \(files.count) files and folders under "
                    + "\(base) (nothing of anyone else):\n  "
                    + Self.summary(of: files.dropFirst(), under: base).joined(separator: "\n  ")
                    + "\nrun again with --yes to remove them")
            }
            try people.remove(id)
            print("removed \(id)")
        case ("list", _?):
            throw HealthETLError.usage("people list takes no id (people show ID shows one)")
        case ("show", nil), ("set", nil), ("remove", nil):
            throw HealthETLError.usage("people \(action) needs a person id")
        default:
            let hint = Suggestion.closest(to: action, in: ["list", "show", "set", "remove"]).map { " (did you mean '\($0)'?)" } ?? ""
            throw HealthETLError.usage("people: unknown action '\(action)'\(hint): list, show, set or remove\n" + usage)
        }
    }

    /// What `people set` sets.
    private static let settable = ["name", "birthdate", "timezone", "units", "max-heart-rate", "platform-priority"]

    /// Options that only one action takes are refused elsewhere, rather than ignored.
    private static func refuseOptions(for action: String, _ args: ParsedArguments) throws {
        if action != "set", let option = settable.first(where: { args.option($0) != nil }) {
            throw HealthETLError.usage("people \(action): --\(option) is for people set")
        }
        if action != "remove", args.flag("yes") { throw HealthETLError.usage("people \(action): --yes is for people remove") }
    }

    private static func table(_ all: [PersonFacts]) -> String {
        guard !all.isEmpty else { return "no people yet (healthetl import EXPORT --person ID adds one)" }
        let rows = [PersonFacts.header] + all.map(\.cells)
        let widths = PersonFacts.header.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.indices.map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    private static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// `healthetl import-all DIR [--out DIR] [--pipeline FILE] [--jobs 1|2] [--full] [--quiet] [--json]`: a
/// household's nightly run. Every `NAME.zip`, `NAME.xml` or `NAME/` in DIR is imported as
/// person NAME; one broken export does not stop the others; the exit code is the worst one.
enum ImportAllCommand: Command {
    static let name = "import-all"
    static let abstract = "import a household: every NAME.zip, NAME.xml or NAME/ in DIR as person NAME"
    static let discussion = "One broken export does not stop the others; the exit code is the worst one."
    static let spec = ArgumentSpec(
        positionals: [Positional(name: "DIR", help: "the folder of exports, one per person")],
        options: [.out, .pipeline, Option("jobs", value: "1|2", help: "people imported at once (default 1)"), .full, .quiet, .json])

    static func run(_ args: ParsedArguments) throws {
        let config = try ImportCommand.loadPipeline(args.option("pipeline"))
        let jobs = Int(args.option("jobs") ?? "1") ?? 0
        guard jobs == 1 || jobs == 2 else { throw HealthETLError.usage("import-all: --jobs is 1 or 2") }
        let people = People(root: args.option("out") ?? config.out ?? ParsedArguments.defaultOut)
        let quiet = args.flag("quiet"), asJSON = args.flag("json")
        let run = HouseholdRun(people: people, exports: args.positionals[0], pipeline: config, parallel: jobs,
                               full: args.flag("full"))
        let outcomes = try run.run { outcome in
            if asJSON {
                print(outcome.json)
            } else if !quiet || outcome.summary == nil {
                // --quiet (cron): only the failures, on stderr.
                let line = outcome.line + "\n"
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
        guard !outcomes.isEmpty else { throw HealthETLError.inputMissing("\(args.positionals[0]): no exports (NAME.zip, NAME.xml or NAME/)") }
        let code = HouseholdRun.exitCode(of: outcomes)
        if code != 0 { exit(code) }
    }
}

extension PeopleCommand {
    /// The person's top-level files and folders, a folder with the count of what it holds
    /// (`…/csv/ (14 files and folders)`): every kind of output is named, however many tables.
    static func summary(of files: ArraySlice<String>, under base: String) -> [String] {
        var order: [String] = [], inside: [String: Int] = [:]
        for file in files where file.hasPrefix(base + "/") {
            let relative = file.dropFirst(base.count + 1)
            let top = String(relative.prefix { $0 != "/" })
            if inside[top] == nil { order.append(top); inside[top] = 0 }
            if relative.count > top.count { inside[top]! += 1 }
        }
        return order.map { top in
            let path = (base as NSString).appendingPathComponent(top)
            let count = inside[top]!
            return count == 0 ? path : "\(path)/ (\(count) \(count == 1 ? "entry" : "files and folders"))"
        }
    }
}
