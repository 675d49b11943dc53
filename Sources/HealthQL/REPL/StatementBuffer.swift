/// Lines typed into the REPL, gathered into statements as psql and sqlite3 do: a statement ends
/// at `;` (outside quotes and comments) or at a blank line, never merely because what was typed
/// so far happens to parse (`SELECT type, count(*)` ⏎ `FROM workouts` ⏎ `GROUP BY type;` is one
/// statement). A mistake more text cannot fix (`SELEC …`) is reported at once.
package struct StatementBuffer {
    package private(set) var lines: [String] = []

    package init() {}

    package var isEmpty: Bool { lines.isEmpty }

    /// Adds a line; returns the statements it completed (several when a line holds `a; b;`).
    package mutating func add(_ line: String) -> [String] {
        lines.append(line)
        let text = lines.joined(separator: "\n")
        let (statements, rest) = Self.split(text)
        if !statements.isEmpty {
            lines = rest.allSatisfy(\.isWhitespace) ? [] : [rest]
            return statements
        }
        if Self.cannotBeCompleted(text) {
            lines = []
            return [text]
        }
        return []
    }

    /// A blank line or the end of input: what was typed so far, as one statement.
    package mutating func finish() -> String? {
        defer { lines = [] }
        let text = lines.joined(separator: "\n")
        return text.allSatisfy(\.isWhitespace) ? nil : text
    }

    /// Statements ended by `;` (each with its `;`), and the text after the last one.
    static func split(_ text: String) -> (statements: [String], rest: String) {
        var statements: [String] = []
        var current = ""
        var quote: Character?, inComment = false
        var previous: Character = " "
        for c in text {
            current.append(c)
            if inComment {
                if c == "\n" { inComment = false }
            } else if let open = quote {
                if c == open { quote = nil }   // '' inside a string closes and reopens: same state after both
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "-", previous == "-" {
                inComment = true
            } else if c == ";" {
                if !current.dropLast().allSatisfy({ $0.isWhitespace || $0 == ";" }) {
                    statements.append(current.trimmingWhitespace)
                }
                current = ""
            }
            previous = inComment ? " " : c
        }
        return (statements, current)
    }

    /// The text fails to parse at a token before its end: no further line can fix it.
    static func cannotBeCompleted(_ text: String) -> Bool {
        do {
            _ = try Parser.parse(text)
            return false
        } catch {
            return !error.isIncomplete
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
