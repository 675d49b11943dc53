import Foundation
import HealthCore
import SQLite

/// `healthetl repl`: reads statements (over several lines until complete), runs them, prints
/// tables; meta commands start with a dot.
package final class Repl {
    let engine: QueryEngine
    let history: History
    let reader: LineReader
    private var lastResult: QueryResult?
    let write: (String) -> Void

    package static let prompt = "healthql> "
    package static let continuation = "     ...> "

    /// `reader` makes the line source over the REPL's history (the command line's terminal
    /// editor); plain lines without one.
    package init(engine: QueryEngine, historyPath: String?, reader: ((History) -> LineReader)? = nil,
                write: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) }) {
        self.engine = engine
        let history = History(path: historyPath)
        self.history = history
        self.reader = reader?(history) ?? PlainLineReader()
        self.write = write
    }

    package func run() {
        write("HealthQL on \(engine.store.database.path) (zone \(engine.store.timeZone.identifier)). "
              + "End statements with ';'. .examples for ready questions, .help for help.\n")
        if let today = engine.todayDescription { write(today + ".\n") }
        var buffer = StatementBuffer()
        while let line = reader.readLine(prompt: buffer.isEmpty ? Self.prompt : Self.continuation) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if buffer.isEmpty {
                if trimmed.isEmpty { continue }
                if trimmed.hasPrefix(".") {
                    if !meta(trimmed) { return }
                    continue
                }
            }
            if trimmed.isEmpty {
                if let statement = buffer.finish() { execute(statement) }   // a blank line ends an unfinished statement
                continue
            }
            for statement in buffer.add(line) { execute(statement) }
        }
        if let statement = buffer.finish() { execute(statement) }   // the end of piped input ends the last one
        write("\n")
    }

    func execute(_ text: String) {
        history.add(text)
        do {
            let result = try engine.run(text)
            lastResult = result
            write(ResultFormatter.table(result) + "\n")
        } catch let error as HealthQLError {
            write("error: " + error.pointer(in: text) + "\n")
        } catch let error as SQLiteError where error.isInterrupted {
            // Ctrl-C while it ran (`Database.interruptOnSIGINT`): the statement stops, the session goes on.
            write("interrupted\n")
        } catch {
            write("error: \(error)\n")
        }
    }

    // MARK: meta commands

    /// Runs a dot command; false ends the session.
    private func meta(_ line: String) -> Bool {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch parts[0].lowercased() {
        case ".quit", ".exit":
            return false
        case ".help":
            write(Self.help)
        case ".clear":
            write("\u{1B}[2J\u{1B}[H")
        case ".history":
            for (i, entry) in history.entries.enumerated() { write("\(String(i + 1).leftPadded(4))  \(entry)\n") }
        case ".examples", ".example":
            examples(parts.dropFirst().first)
        case ".types":
            types()
        case ".schema":
            guard parts.count == 2 else { write("usage: .schema <type>\n"); break }
            schema(parts[1])
        case ".export":
            guard parts.count == 3, parts[1].lowercased() == "csv" else { write("usage: .export csv FILE\n"); break }
            guard let lastResult else { write("nothing to export yet: run a query first\n"); break }
            let csv = ResultFormatter.csv(lastResult)
            if FileManager.default.createFile(atPath: parts[2], contents: Data(csv.utf8), attributes: [.posixPermissions: 0o600]) {
                write("wrote \(lastResult.rows.count) rows to \(parts[2])\n")
            } else {
                write("error: cannot write \(parts[2])\n")
            }
        default:
            write("unknown command \(parts[0])." + Suggestion.hint(for: parts[0], in: Completion.metaCommands) + " .help lists them\n")
        }
        return true
    }

    private func types() {
        do {
            let rows = try engine.store.database.rows("""
                SELECT t.identifier, count(s.id) FROM types t JOIN sample_data s ON s.type_id = t.id
                GROUP BY t.identifier ORDER BY count(s.id) DESC
                """)
            write("sources: \(SourceCatalog.tableNames.joined(separator: ", "))\ntypes in this store:\n")
            for row in rows {
                let type = TypeRegistry.type(for: row[0].string ?? "")
                let samples = ResultFormatter.grouped(row[1].int ?? 0)
                write("  \(type.alias.padded(32)) \(samples.leftPadded(10)) samples  \(type.aggregation.rawValue)\n")
            }
        } catch {
            write("error: \(error)\n")
        }
    }

    private func schema(_ name: String) {
        do {
            let ref = SourceRef(name)
            let relation: Relation = switch try SourceCatalog.resolve(ref) {
            case .table(let table): SourceCatalog.relation(ref, table: table)
            case .type(let type): SourceCatalog.relation(ref, type: type, reading: .samples, params: Parameters())
            }
            write("\(relation.summary):\n")
            for field in relation.fields {
                write("  \(field.name.padded(20)) \(String(describing: field.kind).padded(8)) \(field.natural ? "*" : "")\n")
            }
            if case .type(let type) = try SourceCatalog.resolve(ref), type.aggregation == .cumulative {
                write("aggregates of value read the source-merged series (one value per day, or per hour with GROUP BY hour)\n")
            }
        } catch {
            write("error: \(error.message)\n")
        }
    }

    static let help = """
    Statements end at ';' (they may span lines: "...>" asks for more); a blank line ends one too.
      SELECT <items> FROM <source> [JOIN <source> ON …] [WHERE …] [GROUP BY …] [HAVING …]
             [ORDER BY … ASC|DESC] [LIMIT n]
    Meta commands:
      .types            types in this store (and the other sources)
      .schema <type>    fields of a source (* = selected by SELECT *)
      .examples [N]     a dozen ready questions; with N, run question N
      .history          statements entered (kept across sessions)
      .export csv FILE  write the last result as CSV
      .clear            clear the screen
      .help             this text
      .quit             leave (or Ctrl-D)
    Keys: ↑/↓ history, Tab completes keywords, types and fields.

    """
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
