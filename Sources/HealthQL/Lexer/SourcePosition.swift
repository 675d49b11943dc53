/// Where something is in the query text: 1-based line and column (in characters), and the
/// 0-based character offset. Every error carries one, so a message can point at the mistake.
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int

    package init(offset: Int, line: Int, column: Int) {
        self.offset = offset; self.line = line; self.column = column
    }

    package static let start = SourcePosition(offset: 0, line: 1, column: 1)
    public var description: String { "line \(line), column \(column)" }
}

/// A position inside the IR. Equal to every other anchor: two queries are the same query
/// whatever their layout, so the parser's IR compares equal to the DSL's.
package struct Anchor: Hashable, Sendable {
    package var position: SourcePosition
    package init(_ position: SourcePosition = .start) { self.position = position }
    package static func == (_: Anchor, _: Anchor) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}
