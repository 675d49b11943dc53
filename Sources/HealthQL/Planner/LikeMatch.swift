/// `field LIKE 'pattern'`: text fields compare in SQLite (`%` any run, `_` one character,
/// ASCII case-insensitive); names of values (`type LIKE 'run%'`) match their printed labels
/// here and become the list of stored identifiers, as `=` does.
extension ExpressionCompiler {
    mutating func like(_ l: Expr, _ r: Expr, at: Anchor, in clause: Clause, insideAggregate: Bool) throws(HealthQLError) -> Compiled {
        guard case .text(let pattern)? = try folder.fold(r) else {
            throw HealthQLError("LIKE needs a pattern in quotes, e.g. source LIKE '%Watch%'", at: r.position)
        }
        let a = try compile(l, in: clause, insideAggregate: insideAggregate)
        switch a.kind {
        case .text, .date:
            return Compiled("(\(a.sql) LIKE \(params.add(.text(pattern))))", .boolean)
        case .label:
            let stored = try a.field.map { f throws(HealthQLError) in try store.storedValues(of: f) } ?? []
            let matching = stored.filter { LikePattern.matches(pattern, ValueLabels.label($0)) || LikePattern.matches(pattern, $0) }
            let list = matching.map { params.add(.text($0)) }.joined(separator: ", ")
            return Compiled("(\(a.sql) IN (\(list)))", .boolean)
        default:
            throw HealthQLError("LIKE compares text; '\(l.text)' is not text", at: at.position)
        }
    }
}

/// SQL's LIKE in Swift, for names matched before the query runs.
enum LikePattern {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        matches(Array(pattern.lowercased()), 0, Array(text.lowercased()), 0)
    }

    private static func matches(_ p: [Character], _ i: Int, _ t: [Character], _ j: Int) -> Bool {
        var i = i, j = j
        // Iterative with one backtrack point: linear for the patterns people write, never exponential.
        var star: (p: Int, t: Int)?
        while j < t.count {
            if i < p.count, p[i] == "%" { star = (i, j); i += 1; continue }
            if i < p.count, p[i] == "_" || p[i] == t[j] { i += 1; j += 1; continue }
            guard let s = star else { return false }
            i = s.p + 1
            j = s.t + 1
            star = (s.p, s.t + 1)
        }
        while i < p.count, p[i] == "%" { i += 1 }
        return i == p.count
    }
}
