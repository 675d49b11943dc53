/// The entries by the ends of their names, for "the first entry that is not Finder litter whose
/// name ends in `/` + path": a trie of name segments read from the right, where the node of a
/// path (`workout-routes/r.gpx`: `r.gpx`, then `workout-routes`) lists, in archive order, the
/// entries whose names end in those segments after at least one more `/`. Built in one pass
/// over the names (work in proportion to their length); a lookup then costs the length of its
/// path, however many entries the archive holds.
///
/// Segments are split at the scalar `/`, which no canonical decomposition holds and nothing
/// composes with: a name that ends in `/` + path under `String.hasSuffix` (canonical
/// equivalence) ends in segments equal to the path's, so it is on the path's list. The list's
/// entries are checked with that same `hasSuffix`, in order: the first to pass is the scan's
/// answer. (All but absurd names pass at the head; one whose grapheme joins across a `/` may
/// not, and then the next is tried.)
struct ZipSuffixIndex: Sendable {
    /// A node below `parent`, one segment further left.
    private struct Step: Hashable, Sendable {
        var parent: Int
        var segment: Substring
    }

    private var children: [Step: Int] = [:]
    /// Per node (0 is the root, the empty suffix), the first and last of its list (-1: none).
    private var head: [Int] = [-1], tail: [Int] = [-1]
    /// The lists: an entry and the next place on the same list (-1: the end).
    private var listed: [(entry: Int, next: Int)] = []
    /// Answers given, by the path's exact bytes: a path asked again (a route referenced as
    /// `/workout-routes/r.gpx` and as `/./workout-routes/r.gpx`) walks no list twice.
    private var answers: [[UInt8]: Int?] = [:]

    init(_ entries: [ZipArchive.Entry]) {
        for (index, entry) in entries.enumerated() where !entry.isJunk {
            var node = 0
            // Every suffix that starts after a `/`: all segments but the first, right to left.
            for segment in Self.segments(entry.name).dropFirst().reversed() {
                node = child(of: node, segment)
                listed.append((index, -1))
                if tail[node] < 0 { head[node] = listed.count - 1 } else { listed[tail[node]].next = listed.count - 1 }
                tail[node] = listed.count - 1
            }
        }
    }

    /// The first of `entries` (those the index was built from) that is not Finder litter and
    /// whose name ends in `/` + `path`: what `entries.firstIndex` with that test finds.
    mutating func first(endingWith path: String, in entries: [ZipArchive.Entry]) -> Int? {
        let key = Array(path.utf8)
        if let known = answers[key] { return known }
        var node = 0
        for segment in Self.segments(path).reversed() {
            guard let next = children[Step(parent: node, segment: segment)] else {
                node = -1
                break
            }
            node = next
        }
        let suffix = "/" + path
        var place = node < 0 ? -1 : head[node]
        while place >= 0, !entries[listed[place].entry].name.hasSuffix(suffix) { place = listed[place].next }
        let answer = place < 0 ? nil : listed[place].entry
        answers[key] = answer
        return answer
    }

    private mutating func child(of parent: Int, _ segment: Substring) -> Int {
        let step = Step(parent: parent, segment: segment)
        if let node = children[step] { return node }
        head.append(-1)
        tail.append(-1)
        children[step] = head.count - 1
        return head.count - 1
    }

    /// `name` cut at every scalar `/` (empty segments kept: `a//b` is `a`, ``, `b`).
    static func segments(_ name: String) -> [Substring] {
        let scalars = name.unicodeScalars
        var parts: [Substring] = []
        var start = scalars.startIndex
        for index in scalars.indices where scalars[index] == "/" {
            parts.append(Substring(scalars[start..<index]))
            start = scalars.index(after: index)
        }
        parts.append(Substring(scalars[start...]))
        return parts
    }
}
