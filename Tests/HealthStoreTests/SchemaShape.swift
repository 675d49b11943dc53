import Foundation
import SQLite

/// A store's schema as two stores are compared by: every `sqlite_master` entry with its SQL
/// normalized, and every table's columns (`PRAGMA table_info`). Column order is left out: an
/// upgrade adds a column at the end of its table (`ALTER TABLE … ADD COLUMN`), where a fresh
/// store has it among the others, and so has every store upgraded since version 4.
struct SchemaShape: Equatable, CustomStringConvertible {
    /// `type name ON table: SQL` per entry, sorted.
    let entries: [String]
    /// `table.column type NOT NULL? DEFAULT? PK n` per column, sorted.
    let columns: [String]

    init(of database: Database) throws {
        let master = try database.rows("SELECT type, name, tbl_name, sql FROM sqlite_master")
        entries = master.map { row in
            let sql = row[3].string.map(Self.normalized) ?? "(made by SQLite)"
            return "\(row[0].string ?? "") \(row[1].string ?? "") ON \(row[2].string ?? ""): \(sql)"
        }.sorted()
        var columns: [String] = []
        for table in try Self.tables(of: database) {
            for column in try database.rows("PRAGMA table_info('\(table)')") {
                let notNull = column[3].int == 1 ? " NOT NULL" : ""
                let defaultValue = column[4].string.map { " DEFAULT \($0)" } ?? ""
                columns.append("\(table).\(column[1].string ?? "") \(column[2].string ?? "")\(notNull)\(defaultValue) PK \(column[5].int ?? 0)")
            }
        }
        self.columns = columns.sorted()
    }

    /// Short: a failure's message says the difference (`difference(from:)`).
    var description: String { "\(entries.count) entries, \(columns.count) columns" }

    /// The store's tables (not SQLite's own).
    static func tables(of database: Database) throws -> [String] {
        try database.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .compactMap { $0.first?.string }
    }

    /// Whitespace runs as one space, none inside parentheses' edges; a table's column definitions
    /// and constraints sorted, for the order a column was added in is not part of the shape.
    static func normalized(_ sql: String) -> String {
        var text = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        text = text.replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
        guard text.hasPrefix("CREATE TABLE"), let open = text.firstIndex(of: "(") else { return text }
        var depth = 0, parts: [String] = [], part = ""
        var index = text.index(after: open)
        while index < text.endIndex {
            let character = text[index]
            if character == "(" { depth += 1 }
            if character == ")" {
                if depth == 0 { break }
                depth -= 1
            }
            if character == ",", depth == 0 {
                parts.append(part.trimmingCharacters(in: .whitespaces))
                part = ""
            } else {
                part.append(character)
            }
            index = text.index(after: index)
        }
        parts.append(part.trimmingCharacters(in: .whitespaces))
        let suffix = index < text.endIndex ? text[text.index(after: index)...] : ""
        return text[..<open] + "(" + parts.sorted().joined(separator: ", ") + ")" + suffix
    }

    /// What `self` has that `other` lacks and the other way round, for a failure's message.
    func difference(from other: SchemaShape) -> String {
        let mine = Set(entries + columns), theirs = Set(other.entries + other.columns)
        return "only here: \(mine.subtracting(theirs).sorted())\nonly there: \(theirs.subtracting(mine).sorted())"
    }
}
