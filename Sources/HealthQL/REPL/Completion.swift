/// Tab completion: keywords, sources (table sources and every type name), fields, functions,
/// and time buckets, matched on the word before the cursor.
package enum Completion {
    static let functions = AggregateFunction.allCases.map(\.rawValue) + TimeFunction.allCases.map(\.rawValue)
    static let metaCommands = [".types", ".schema", ".examples", ".history", ".export", ".clear", ".help", ".quit"]
    /// The words of relative periods (`IN LAST 4 WEEKS`), read by the parser as plain words.
    static let periodWords = ["LAST", "THIS", "DAYS", "WEEKS", "MONTHS", "YEARS"]

    /// Computed once: the catalog is fixed, and Tab asks for them at every press.
    static let fieldNames: [String] = {
        var seen = Set<String>(), out: [String] = []
        for table in TableSource.allCases {
            for f in SourceCatalog.relation(SourceRef(table.rawValue), table: table).fields where seen.insert(f.name).inserted {
                out.append(f.name)
            }
        }
        for name in ["value", "date", "end_date", "duration", "source", "device", "unit", "start", "end"]
            where seen.insert(name).inserted { out.append(name) }
        return out
    }()

    package static func candidates(before text: String) -> [String] {
        let word = String(text.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }.reversed())
        if text.hasPrefix("."), !text.contains(" ") { return metaCommands.filter { $0.hasPrefix(text) } }
        guard !word.isEmpty else { return [] }
        let previous = text.dropLast(word.count).split(whereSeparator: \.isWhitespace).last.map { $0.uppercased() }
        let pool: [String]
        if previous == "FROM" || previous == "JOIN" || text.hasPrefix(".schema") {
            pool = SourceCatalog.allNames
        } else {
            pool = Keyword.allCases.map(\.rawValue) + periodWords + functions + ExpressionCompiler.buckets + fieldNames
                + SourceCatalog.allNames
        }
        let lower = word.lowercased()
        var seen = Set<String>()
        return pool.filter { $0.lowercased().hasPrefix(lower) && seen.insert($0.lowercased()).inserted }
    }
}
