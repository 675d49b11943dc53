import HealthCore
import HealthOutputs
import HealthPeople
import HealthPipeline

/// One option of a command, declared once with its help text (the shape of
/// swift-argument-parser's `@Option`/`@Flag`, without the dependency): usage lines, `--help`
/// and `healthetl help CMD` are generated from these declarations.
struct Option: Sendable {
    let name: String
    /// The value's placeholder (`DIR`); nil for a flag, which takes none.
    let value: String?
    let help: String

    init(_ name: String, value: String? = nil, help: String) {
        self.name = name; self.value = value; self.help = help
    }

    var isFlag: Bool { value == nil }
    /// `--out DIR`, `--full`.
    var synopsis: String { "--\(name)" + (value.map { " " + $0 } ?? "") }
    /// What its value is, for the shell completions (nil for a flag).
    var kind: ValueKind? { value.map(ValueKind.init(placeholder:)) }
}

/// What an argument's value is, so the completions can offer it: a path, a folder, an IANA
/// zone, a person of the output folder, one of a few words, or free text (nothing to offer).
/// Read from the placeholder a declaration already has (`DIR`, `ZONE`, `metric|imperial`).
enum ValueKind: Equatable, Sendable {
    case path, folder, zone, person, text
    case words([String])

    init(placeholder: String) {
        switch placeholder {
        case "FILE", "EXPORT": self = .path
        case "DIR": self = .folder
        case "ZONE": self = .zone
        case "ID": self = .person
        case _ where placeholder.contains("|"): self = .words(placeholder.split(separator: "|").map(String.init))
        default: self = .text
        }
    }
}

/// A positional argument, with its help text.
struct Positional: Sendable {
    let name: String
    let help: String
    /// May be left out (`people [ACTION] [ID]`).
    var optional = false
    /// What it is, for the completions: by default read from its name (`EXPORT`, `DIR`, `ID`).
    var kind: ValueKind

    init(name: String, help: String, optional: Bool = false, kind: ValueKind? = nil) {
        self.name = name; self.help = help; self.optional = optional
        self.kind = kind ?? ValueKind(placeholder: name)
    }
}

/// What a command accepts.
struct ArgumentSpec: Sendable {
    var positionals: [Positional] = []
    var options: [Option] = []

    func option(named name: String) -> Option? { options.first { $0.name == name } }
}

struct ParsedArguments {
    var flags: Set<String> = []
    var options: [String: String] = [:]
    var positionals: [String] = []

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func option(_ name: String) -> String? { options[name] }

    /// The default output folder (`out`), for `--out` left out (and no `out` in the pipeline).
    static let defaultOut = "out"
    /// `--out`, or the default: the folder every command but `import` works on.
    var root: String { option("out") ?? Self.defaultOut }
    /// `--person ID`, validated (64 when refused).
    var person: PersonID? { get throws { try option("person").map(PersonID.init) } }
    /// The folder a command works on: `--out`, or with `--person ID` that person's folder in it.
    var outFolder: String {
        get throws { try person.map { People(root: root).outputFolder(of: $0).path } ?? root }
    }
    /// That folder, laid out as every output of the registry publishes there.
    var outputFolder: OutputFolder {
        get throws { OutputFolder(path: try outFolder, layout: OutputRegistry.standard.layout) }
    }
    /// The store in that folder.
    var storePath: String { get throws { try outFolder + "/health.sqlite" } }
}

enum ArgumentParser {
    /// Parses `args` against `spec`; a mistake is a usage error (64) that says what was
    /// expected, with a "did you mean" for a mistyped option.
    static func parse(_ args: ArraySlice<String>, spec: ArgumentSpec, command: String) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = args.startIndex
        var onlyPositionals = false
        while i < args.endIndex {
            let arg = args[i]
            if !onlyPositionals && arg == "--" {
                onlyPositionals = true
            } else if !onlyPositionals && arg.hasPrefix("--") {
                var name = String(arg.dropFirst(2))
                var inlineValue: String?
                if let eq = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                guard let option = spec.option(named: name) else {
                    let hint = Suggestion.closest(to: name, in: spec.options.map(\.name)).map { " (did you mean --\($0)?)" } ?? ""
                    throw HealthETLError.usage("\(command): unknown option \(arg)\(hint)\n" + Help.usageLine(command, spec))
                }
                if option.isFlag {
                    guard inlineValue == nil else { throw HealthETLError.usage("\(command): --\(name) takes no value") }
                    parsed.flags.insert(name)
                } else if let inlineValue {
                    parsed.options[name] = inlineValue
                } else {
                    i += 1
                    guard i < args.endIndex else {
                        throw HealthETLError.usage("\(command): --\(name) needs a value (\(option.synopsis): \(option.help))")
                    }
                    parsed.options[name] = args[i]
                }
            } else {
                parsed.positionals.append(arg)
            }
            i += 1
        }
        let required = spec.positionals.filter { !$0.optional }.count
        guard (required...spec.positionals.count).contains(parsed.positionals.count) else {
            let names = spec.positionals.map { $0.optional ? "[\($0.name)]" : $0.name }
            let expected = names.isEmpty ? "no arguments" : names.joined(separator: " ")
            throw HealthETLError.usage("\(command): expected \(expected)\n" + Help.usageLine(command, spec))
        }
        return parsed
    }
}

/// "Did you mean": the closest name by edit distance, if it is close enough to be a typo.
enum Suggestion {
    static func closest(to word: String, in names: [String]) -> String? {
        let scored = names.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        // A prefix (`--pers`) counts as close; else at most a third of the letters differ.
        if best.0.hasPrefix(word.lowercased()) && !word.isEmpty { return best.0 }
        return best.1 <= max(1, best.0.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }
}
