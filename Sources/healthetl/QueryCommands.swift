import Foundation
import HealthCore
import HealthQL

/// `healthetl query "HEALTHQL" [--out DIR] [--person ID] [--format table|csv|json]`.
enum QueryCommand: Command {
    static let name = "query"
    static let usage = "healthetl query \"HEALTHQL\" [--out DIR] [--person ID] [--format table|csv|json]"
    static let spec = ArgumentSpec(options: ["out", "person", "format"], positionals: ["HEALTHQL"])

    static func run(_ args: ParsedArguments) throws {
        let formatName = args.option("format") ?? "table"
        guard let format = OutputFormat(rawValue: formatName) else {
            throw HealthETLError.usage("query: --format must be table, csv or json (not '\(formatName)')")
        }
        let text = args.positionals[0]
        let engine = try QueryEngine(storePath: args.storePath)
        do {
            let result = try engine.run(text)
            let output = ResultFormatter.format(result, as: format)
            // "\r\n" is one Character in Swift: look at the last scalar.
            print(output, terminator: output.unicodeScalars.last == "\n" ? "" : "\n")
        } catch let error as HealthQLError {
            // A mistake in the query is a usage error (64), shown with a caret under it.
            throw HealthETLError.usage(error.pointer(in: text))
        }
    }
}

/// `healthetl repl [--out DIR] [--person ID]`: an interactive HealthQL session; history in `DIR/.healthetl/repl_history`.
enum ReplCommand: Command {
    static let name = "repl"
    static let usage = "healthetl repl [--out DIR] [--person ID]"
    static let spec = ArgumentSpec(options: ["out", "person"])

    static func run(_ args: ParsedArguments) throws {
        let engine = try QueryEngine(storePath: args.storePath)
        Repl(engine: engine, historyPath: try args.outFolder + "/.healthetl/repl_history", reader: { history -> any LineReader in
            TerminalLineEditor.isAvailable
                ? TerminalLineEditor(history: history, complete: Completion.candidates(before:)) : PlainLineReader()
        }).run()
    }
}
