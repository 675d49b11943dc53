import HealthCore
import SQLite

/// What is checked before a row of a Health Connect database is read, so that a file that is
/// not one, is damaged, or was made to attack the reader is refused at once with a sentence
/// (exit 65) and nothing written: SQLite's own integrity check of every page, no trigger or
/// view (Health Connect's database has none, and they are off on this connection anyway), the
/// tables that make it Health Connect's, a schema version this reader knows or one a little
/// newer (read for what is known; the rest named), and for each record table the columns and
/// the child-table indexes the reader relies on (a table without them is named, not read: the
/// index keeps the read linear).
enum HealthConnectCheck {
    /// The newest `PRAGMA user_version` whose tables this reader was written against
    /// (docs/HEALTH_CONNECT.md: AOSP's LAST_ROLLED_OUT_DB_VERSION in 2025).
    static let knownVersion: Int64 = 14
    /// A newer version than this is not a schema this reader can partly read: Health Connect
    /// adds one version a release or two, so 10 more is years of changes (or a forged file).
    static let newestReadable: Int64 = knownVersion + 10
    /// More apps or devices than any phone has: the file was made, not exported.
    static let maximumApps = 100_000

    struct Result: Sendable {
        var version: Int64
        /// The catalogue's tables present with every column they need, in reading order.
        var readable: [RecordTable]
        /// Rows of those tables: what progress counts.
        var rows: Int64
        var notes: [String]
        var notRead = FileNotes()
    }

    static func run(_ database: Database, name: String) throws -> Result {
        try reading(name) { try check(database, name: name) }
    }

    /// `body`'s SQLite failures as the input's: the file is damaged or not what it claims (exit 65).
    static func reading<T>(_ name: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw HealthETLError.dataUnusable("\(name): not a readable SQLite database (\(error.description))")
        }
    }

    private static func check(_ database: Database, name: String) throws -> Result {
        let integrity = try database.rows("PRAGMA quick_check(5)").compactMap { $0.first?.string }
        guard integrity == ["ok"] else {
            throw HealthETLError.dataUnusable("\(name): the database is damaged (SQLite's check: \(integrity.joined(separator: "; ")))")
        }
        let schema = try database.rows("SELECT type, name FROM sqlite_schema").map { ($0[0].string ?? "", $0[1].string ?? "") }
        let code = schema.filter { $0.0 == "trigger" || $0.0 == "view" }
        guard code.isEmpty else {
            throw HealthETLError.dataUnusable("\(name): the database holds " + code.map { "a \($0.0) '\(PrintableText.escaped($0.1))'" }
                .joined(separator: ", ") + ", which Health Connect's database never has: not read")
        }
        let tables = Set(schema.filter { $0.0 == "table" }.map(\.1))
        let missing = RecordTable.identifying.filter { !tables.contains($0) }
        guard missing.isEmpty else {
            throw HealthETLError.dataUnusable("\(name): a SQLite database, but not a Health Connect export "
                + "(it has no \(missing.joined(separator: ", ")))")
        }
        let version = try database.scalar("PRAGMA user_version").int ?? 0
        guard version <= newestReadable, version > 0 else {
            throw HealthETLError.dataUnusable("\(name): Health Connect schema version \(version) is not one this reads "
                + "(known: up to \(knownVersion); a newer one is read up to \(newestReadable))")
        }
        for (table, most) in [("application_info_table", maximumApps), ("device_info_table", maximumApps)] {
            let count = try database.scalar("SELECT count(*) FROM \(table)").int ?? 0
            guard count <= most else {
                throw HealthETLError.dataUnusable("\(name): \(count) rows in \(table), more than any phone holds: not read")
            }
        }
        var result = Result(version: version, readable: [], rows: 0, notes: [])
        if version > knownVersion {
            result.notes.append("\(name): Health Connect schema version \(version) is newer than \(knownVersion), the newest "
                + "this program knows: what it knows is read, the rest is named below")
        }
        var known: Set<String> = RecordTable.bookkeeping
        for table in RecordTable.all {
            known.insert(table.name)
            known.formUnion(table.children)
            guard tables.contains(table.name) else { continue }
            let present = try columns(of: table.name, in: database)
            // Columns the reader does not keep (a session's title and notes, a measurement's
            // location …), counted in the same pass as the rows and named with their filled values.
            let read = Set(RecordTable.common + table.timeColumns + table.columns).union(RecordTable.identityColumns)
            let unkept = present.subtracting(read).sorted()
            let counts = try database.rows("SELECT " + (["*"] + unkept.map(quoted)).map { "count(\($0))" }.joined(separator: ", ")
                + " FROM " + quoted(table.name)).first?.map { $0.int ?? 0 } ?? []
            let rows = counts.first ?? 0
            if let problem = try unreadable(table, columns: present, tables: tables, in: database) {
                if rows > 0 { result.notRead.append("\(table.name): \(rows) records (\(problem))") }
                continue
            }
            result.readable.append(table)
            result.rows += rows
            for (column, filled) in zip(unkept, counts.dropFirst()) where filled > 0 {
                let why = RecordTable.nutrientsWithoutType.contains(column) ? "no HealthKit type" : "not kept"
                result.notRead.append("\(table.name).\(PrintableText.escaped(column)): \(filled) values (\(why))")
            }
        }
        for table in tables.sorted() where !known.contains(table) && !table.hasPrefix("sqlite_") {
            let rows = try count(table, in: database)
            if rows > 0 { result.notRead.append("\(PrintableText.escaped(table)): \(rows) rows (no home in the store)") }
        }
        return result
    }

    /// Why the reader cannot read `table`, or nil: a column it needs is missing, or a child
    /// table, its columns or its index on `parent_key`.
    private static func unreadable(_ table: RecordTable, columns present: Set<String>, tables: Set<String>,
                                   in database: Database) throws -> String? {
        let needed = RecordTable.common + table.timeColumns + table.columns
        let missing = needed.filter { !present.contains($0) }
        if !missing.isEmpty { return "no column \(missing.joined(separator: ", "))" }
        for child in table.children {
            guard tables.contains(child) else { return "no table \(child)" }
            guard try columns(of: child, in: database).contains("parent_key") else { return "\(child) has no parent_key" }
            let indexed = try database.rows("SELECT name FROM pragma_index_list(?)", [.text(child)]).compactMap { $0[0].string }
                .contains { index in
                    (try? database.rows("SELECT name FROM pragma_index_info(?)", [.text(index)]).first?.first?.string) == "parent_key"
                }
            if !indexed { return "\(child) has no index on parent_key, which Health Connect creates" }
        }
        return nil
    }

    static func columns(of table: String, in database: Database) throws -> Set<String> {
        Set(try database.rows("SELECT name FROM pragma_table_xinfo(?)", [.text(table)]).compactMap { $0[0].string })
    }

    private static func count(_ table: String, in database: Database) throws -> Int64 {
        try database.scalar("SELECT count(*) FROM " + quoted(table)).int ?? 0
    }

    /// A name from the file as an SQL identifier: quoted, its quotes doubled (the file chose it).
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
