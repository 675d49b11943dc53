import Foundation
import HealthCore
import HealthQL
import SQLite

/// `healthetl query "HEALTHQL" [--out DIR] [--person ID] [--format table|csv|json]`.
enum QueryCommand: Command {
    static let name = "query"
    static let abstract = "run one HealthQL query on the store"
    static let discussion = "Example: healthetl query \"SELECT sum(value) FROM steps GROUP BY month\""
    static let spec = ArgumentSpec(
        positionals: [Positional(name: "HEALTHQL", help: "the query (quoted)")],
        options: [.out, .person, Option("format", value: "table|csv|json", help: "how to print the result (default table)"), .now,
                  Option("time-limit", value: "SECONDS", help: Option.timeLimit.help + " (default: none)")])

    static func run(_ args: ParsedArguments) throws {
        let formatName = args.option("format") ?? "table"
        guard let format = OutputFormat(rawValue: formatName) else {
            throw HealthETLError.usage("query: --format must be table, csv or json (not '\(formatName)')")
        }
        let text = args.positionals[0]
        try args.refuseFamilyFolderWithoutPerson(name)
        let started = QueryEngine.monotonicNow()
        let engine = try QueryEngine(storePath: args.storePath)
        engine.timeLimit = try args.timeLimit(name, default: nil)
        try setNow(args, on: engine)
        do {
            let result = try engine.run(text, started: started)
            let output = ResultFormatter.format(result, as: format)
            // "\r\n" is one Character in Swift: look at the last scalar.
            print(output, terminator: output.unicodeScalars.last == "\n" ? "" : "\n")
            // A table shows its notes; CSV and JSON stay data, their notes go to stderr.
            if format != .table {
                for note in result.notes { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
            }
        } catch let error as HealthQLError {
            // A mistake in the query is a usage error (64), shown with a caret under it.
            throw HealthETLError.usage(error.pointer(in: text))
        } catch let error as SQLiteError where error.isInterrupted {
            // Past --time-limit: the query asked too much of this store (64), not a fault of ours.
            throw HealthETLError.usage("query: \(error.description): narrow it (a shorter period, an aggregate) or raise --time-limit")
        }
    }
}

/// `healthetl repl [--out DIR] [--person ID]`: an interactive HealthQL session; history in `DIR/.healthetl/repl_history`.
enum ReplCommand: Command {
    static let name = "repl"
    static let abstract = "an interactive HealthQL session (history in OUT/.healthetl/repl_history)"
    static let spec = ArgumentSpec(options: [.out, .person, .now])

    static func run(_ args: ParsedArguments) throws {
        try args.refuseFamilyFolderWithoutPerson(name)
        let engine = try QueryEngine(storePath: args.storePath)
        try setNow(args, on: engine)
        // Ctrl-C while a statement runs stops the statement, not the session (at the prompt the
        // line editor reads Ctrl-C as a key: it drops the line).
        engine.store.database.interruptOnSIGINT()
        Repl(engine: engine, historyPath: try args.outFolder + "/.healthetl/repl_history", reader: { history -> any LineReader in
            TerminalLineEditor.isAvailable
                ? TerminalLineEditor(history: history, complete: Completion.candidates(before:)) : PlainLineReader()
        }).run()
    }
}

/// `--now DATE`: relative dates count from it instead of the data's last complete day (64 when unreadable).
func setNow(_ args: ParsedArguments, on engine: QueryEngine) throws {
    guard let text = args.option("now") else { return }
    do {
        try engine.setNow(text)
    } catch {
        throw HealthETLError.usage(error.message)
    }
}
