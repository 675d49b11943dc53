/// A mistake in a query, or a question the store cannot answer: what went wrong, where,
/// and (when one is close) what the user probably meant.
public struct HealthQLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var position: SourcePosition
    /// The text ended before the statement did (an open parenthesis, quote or clause):
    /// the REPL reads another line instead of reporting it.
    public var isIncomplete: Bool

    package init(_ message: String, at position: SourcePosition, incomplete: Bool = false) {
        self.message = message; self.position = position; isIncomplete = incomplete
    }

    public var description: String { "\(position): \(message)" }

    /// The offending line of `query` with a caret under the position, for terminals.
    public func pointer(in query: String) -> String {
        let lines = query.split(separator: "\n", omittingEmptySubsequences: false)
        guard position.line >= 1, position.line <= lines.count else { return description }
        let line = lines[position.line - 1]
        let caret = String(repeating: " ", count: max(0, position.column - 1)) + "^"
        return "\(description)\n  \(line)\n  \(caret)"
    }
}

/// "Did you mean …?": the closest candidate by edit distance, if close enough to be a typo.
enum Suggestion {
    /// Words people write for a name HealthQL spells otherwise (`average` for `avg`).
    static let synonyms: [String: String] = [
        "average": "avg", "mean": "avg", "median": "p50", "std": "stddev", "stdev": "stddev", "total": "sum",
        "minimum": "min", "maximum": "max", "var": "variance",
    ]

    static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased())
        var best: (name: String, distance: Int)?
        let names = Array(candidates)
        let known = Set(names)
        let aliases = synonyms.filter { known.contains($0.value) }
        if let name = aliases[word.lowercased()] { return name }
        for (alias, name) in aliases.sorted(by: { $0.key < $1.key })
        where Self.distance(target, Array(alias)) <= min(3, max(1, target.count / 3)) {
            return name
        }
        for candidate in names {
            let d = distance(target, Array(candidate.lowercased()))
            if d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        // A third of the word may be wrong (at least one edit, at most three).
        let allowed = min(3, max(1, target.count / 3))
        if let best, best.distance <= allowed { return best.name }
        return abbreviated(word, in: candidates)
    }

    /// A name written short: `resting_hr` for `resting_heart_rate`, `hr` for `heart_rate`,
    /// `walk_dist` for `walking_distance_m`. Each typed word is the start of a name's word or the
    /// initials of several, in order, from the name's first word; the shortest name that fits wins.
    static func abbreviated(_ word: String, in candidates: some Sequence<String>) -> String? {
        let typed = word.lowercased().split(separator: "_")
        guard word.count >= 3 else { return nil }
        var best: String?
        for candidate in candidates {
            let words = candidate.lowercased().split(separator: "_")
            guard words.count >= typed.count, fits(typed[...], words[...]) else { continue }
            if best == nil || candidate.count < best!.count { best = candidate }
        }
        return best
    }

    private static func fits(_ typed: ArraySlice<Substring>, _ words: ArraySlice<Substring>) -> Bool {
        guard let first = typed.first else { return true }   // later words may be left out: `hr_var` → `…_sdnn`
        guard !words.isEmpty else { return false }
        if words.first!.hasPrefix(first), fits(typed.dropFirst(), words.dropFirst()) { return true }
        // Initials: `hr` covers `heart` `rate`.
        let n = first.count
        if n >= 2, words.count >= n, zip(first, words.prefix(n)).allSatisfy({ $0 == $1.first }) {
            return fits(typed.dropFirst(), words.dropFirst(n))
        }
        return false
    }

    /// " Did you mean 'x'?" or "".
    static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { " Did you mean '\($0)'?" } ?? ""
    }

    /// Edit distance where swapping two neighbours counts one edit (`FORM` → `FROM`):
    /// the optimal-string-alignment variant of Damerau–Levenshtein.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
