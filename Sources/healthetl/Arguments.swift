import HealthCore
import HealthPeople

/// A small declarative argument parser (the shape of swift-argument-parser, without the
/// dependency): a command declares its flags and options; parsing returns them or a
/// usage error (exit 64).
struct ArgumentSpec {
    var flags: Set<String> = []
    var options: Set<String> = []
    var positionals: [String] = []
    /// Positionals that may follow the required ones (`people show ID`).
    var optionalPositionals: [String] = []
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
    /// The store in that folder.
    var storePath: String { get throws { try outFolder + "/health.sqlite" } }
}

enum ArgumentParser {
    static func parse(_ args: ArraySlice<String>, spec: ArgumentSpec, command: String) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = args.startIndex
        while i < args.endIndex {
            let arg = args[i]
            if arg.hasPrefix("--") {
                var name = String(arg.dropFirst(2))
                var inlineValue: String?
                if let eq = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                if spec.flags.contains(name) {
                    guard inlineValue == nil else { throw HealthETLError.usage("--\(name) takes no value") }
                    parsed.flags.insert(name)
                } else if spec.options.contains(name) {
                    if let inlineValue {
                        parsed.options[name] = inlineValue
                    } else {
                        i += 1
                        guard i < args.endIndex else { throw HealthETLError.usage("--\(name) needs a value") }
                        parsed.options[name] = args[i]
                    }
                } else {
                    throw HealthETLError.usage("\(command): unknown option \(arg)")
                }
            } else {
                parsed.positionals.append(arg)
            }
            i += 1
        }
        let allowed = spec.positionals.count...(spec.positionals.count + spec.optionalPositionals.count)
        guard allowed.contains(parsed.positionals.count) else {
            let names = spec.positionals + spec.optionalPositionals.map { "[\($0)]" }
            let expected = names.isEmpty ? "no arguments" : names.joined(separator: " ")
            throw HealthETLError.usage("\(command): expected \(expected)")
        }
        return parsed
    }
}
