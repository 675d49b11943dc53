import SQLite

/// Every row of a store's tables as text, to tell whether an upgrade kept them.
struct StoreRows: Equatable, CustomStringConvertible {
    /// Per table, its columns (sorted) and each row as `column=value` pairs in that order, sorted.
    let tables: [String: (columns: [String], rows: [String])]

    init(of database: Database) throws {
        var tables: [String: (columns: [String], rows: [String])] = [:]
        for table in try SchemaShape.tables(of: database) {
            let columns = try Self.columns(of: table, in: database).sorted()
            tables[table] = (columns, try Self.rows(of: table, columns: columns, in: database))
        }
        self.tables = tables
    }

    /// The rows of `table`, each as the values of `columns` (those of the store before an upgrade).
    static func rows(of table: String, columns: [String], in database: Database) throws -> [String] {
        try database.rows("SELECT \(columns.joined(separator: ", ")) FROM \(table)").map { row in
            zip(columns, row).map { "\($0)=\($1)" }.joined(separator: " ")
        }.sorted()
    }

    static func columns(of table: String, in database: Database) throws -> [String] {
        try database.rows("PRAGMA table_info('\(table)')").compactMap { $0[1].string }
    }

    /// One row in every table, each column given a value of its declared type (every constraint
    /// of the store's tables holds for it: `CHECK (id = 1)`, NOT NULL, one row per UNIQUE).
    static func fillEveryTable(_ database: Database) throws {
        for table in try SchemaShape.tables(of: database) {
            let columns = try database.rows("PRAGMA table_info('\(table)')")
            let values = columns.map { column -> String in
                switch column[2].string?.uppercased() {
                case "INTEGER": "1"
                case "REAL": "1.5"
                default: "'\(table)'"
                }
            }
            let names = columns.compactMap { $0[1].string }.joined(separator: ", ")
            try database.execute("INSERT INTO \(table) (\(names)) VALUES (\(values.joined(separator: ", ")))")
        }
    }

    /// Short: a failure's message says the difference (`difference(from:)`).
    var description: String { "\(tables.count) tables, \(tables.values.map(\.rows.count).reduce(0, +)) rows" }

    /// The tables whose columns or rows differ, with both sides, for a failure's message.
    func difference(from other: StoreRows) -> String {
        Set(tables.keys).union(other.tables.keys).sorted().compactMap { table in
            let (mine, theirs) = (tables[table], other.tables[table])
            guard mine?.columns != theirs?.columns || mine?.rows != theirs?.rows else { return nil }
            return "\(table): \(mine?.rows ?? []) against \(theirs?.rows ?? [])"
        }.joined(separator: "\n")
    }

    static func == (lhs: StoreRows, rhs: StoreRows) -> Bool {
        Set(lhs.tables.keys) == Set(rhs.tables.keys)
            && lhs.tables.allSatisfy { rhs.tables[$0.key]?.columns == $0.value.columns && rhs.tables[$0.key]?.rows == $0.value.rows }
    }
}
