import HealthCore

/// A person's id in an output folder: letters, digits, `-` and `_`, 1 to 64 characters, not
/// starting with `-`. It names the person's folder (`OUT/people/ID`), so it can never be a path:
/// no `/`, no `.`, no `..`; and it goes on command lines (`--person ID`, `people remove ID`, a
/// script's loop over `healthetl completions people`), where `-rf` would be read as options.
public struct PersonID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public static let maxLength = 64

    /// The id, or a usage error (exit 64) saying why `text` is refused.
    public init(_ text: String) throws {
        guard !text.isEmpty else { throw HealthETLError.usage("a person id cannot be empty") }
        guard text.utf8.count <= Self.maxLength else {
            throw HealthETLError.usage("person id '\(text.prefix(80))…' is longer than \(Self.maxLength) characters")
        }
        // ASCII only: an id is a folder name on every file system, in every normalization form.
        if let bad = text.unicodeScalars.first(where: { !Self.allowed($0) }) {
            let shown = bad == "/" ? "'/' (an id is never a path)" : bad == "." ? "'.' (an id is never a path)"
                : "'\(bad.escaped(asASCII: true))'"
            throw HealthETLError.usage("person id '\(text)' is refused: it holds \(shown); use letters, digits, '-' and '_'")
        }
        guard text.first != "-" else {
            throw HealthETLError.usage("person id '\(text)' is refused: it starts with '-', as an option does; "
                                       + "start it with a letter, a digit or '_'")
        }
        rawValue = text
    }

    private static func allowed(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
        default: false
        }
    }

    public var description: String { rawValue }
    public static func < (a: PersonID, b: PersonID) -> Bool { a.rawValue < b.rawValue }
}
