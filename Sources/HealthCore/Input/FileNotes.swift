/// What the reader says about the files beside the XML (ECG and clinical files it could not
/// read, lines it skipped): every one counted, the first `namedLimit` named (issue 56: a zip of
/// a million bad files made 104 MB of notes, one 99 MB `runs.log` line and a 16 s `status`).
/// The notes are the files' names as the export spells them; `RunSummary` makes them safe to print.
package struct FileNotes: Codable, Sendable, Equatable {
    package static let namedLimit = 20
    package private(set) var named: [String] = []
    package private(set) var count = 0

    package init() {}

    package mutating func append(_ note: String) {
        count += 1
        if named.count < Self.namedLimit { named.append(note) }
    }

    /// Another list's notes after these (the names up to the limit, every one counted).
    package mutating func add(_ other: FileNotes) {
        named += other.named.prefix(max(0, Self.namedLimit - named.count))
        count += other.count
    }

    /// The named notes, each after `prefix`, and a line for those not named.
    package func lines(_ prefix: String) -> [String] {
        named.map { prefix + $0 } + (count > named.count ? ["\(prefix)\(count - named.count) more not named"] : [])
    }

    private enum CodingKeys: String, CodingKey { case named, count }

    // A checkpoint of a release before the cap holds the whole list.
    package init(from decoder: any Decoder) throws {
        if let list = try? decoder.singleValueContainer().decode([String].self) {
            for note in list { append(note) }
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        named = try c.decode([String].self, forKey: .named)
        count = try c.decode(Int.self, forKey: .count)
    }
}
