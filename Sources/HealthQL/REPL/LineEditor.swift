/// The REPL's line editing, with no terminal of its own: bytes in (`feed`), the line, and the
/// bytes that show it (`output`), so the command line's `TerminalLineEditor` only reads,
/// writes and sets raw mode, and the editing can be tested and fuzzed in-process (issue 56).
///
/// Keys (issue 45): text, Backspace, ←/→, ↑/↓ through history, Tab completion, Enter, Ctrl-C
/// drops the line, Ctrl-D ends on an empty line (else deletes under the cursor), Ctrl-A / Home
/// to the start, Ctrl-E / End to the end, Ctrl-B / Ctrl-F back and forward, Ctrl-K and Ctrl-U
/// delete to the end and to the start, Ctrl-W the word before the cursor, Delete the scalar
/// under it, Ctrl-L clears the screen.
package struct LineEditor {
    package enum Outcome: Equatable, Sendable {
        case line(String)
        /// Ctrl-C: the line dropped.
        case cancelled
        /// Ctrl-D on an empty line, or the end of input with nothing typed.
        case endOfInput
    }

    /// The line: never a control (text keys are printable; history and completions are made so).
    package private(set) var line: [Unicode.Scalar] = []
    /// Where the next scalar goes: `0...line.count`.
    package private(set) var cursor = 0
    /// Set once the line is finished; later bytes are not this line's.
    package private(set) var outcome: Outcome?

    private var decoder = KeyDecoder()
    private var display: LineDisplay
    private let history: [String]
    private var historyIndex: Int
    /// The line being typed while ↑ shows older ones.
    private var draft: [Unicode.Scalar] = []
    private let complete: (String) -> [String]

    /// `complete` gets the text before the cursor and returns the words that could finish its last word.
    package init(prompt: String, width: Int, history: [String], complete: @escaping (String) -> [String]) {
        display = LineDisplay(prompt: prompt, width: width)
        self.history = history
        historyIndex = history.count
        self.complete = complete
    }

    /// No escape sequence or UTF-8 character is half read.
    package var isBetweenKeys: Bool { decoder.isBetweenKeys }

    /// Takes one byte of input; the outcome when it finished the line (the bytes after it are
    /// the next line's).
    package mutating func feed(_ byte: UInt8) -> Outcome? {
        guard outcome == nil else { return outcome }
        // At most two keys a byte (a broken UTF-8 sequence's U+FFFD, then the byte's own key),
        // kept without an array: this runs for every byte of a paste.
        var first: Key?, second: Key?
        decoder.decode(byte) { if first == nil { first = $0 } else { second = $0 } }
        if let first { apply(first) }
        if let second, outcome == nil { apply(second) }
        return outcome
    }

    /// No more input: the line typed so far, if any.
    package mutating func endOfInput() -> Outcome {
        if outcome == nil { finish(line.isEmpty ? .endOfInput : .line(text(line))) }
        return outcome!
    }

    /// The bytes that bring the terminal up to date: called once after all the bytes one read
    /// returned, so a paste is drawn once, not once a key.
    package mutating func output() -> [UInt8] {
        if outcome == nil { display.draw(line, cursor: cursor) }
        return display.take()
    }

    private mutating func apply(_ key: Key) {
        switch key {
        case .text(let scalar): insert([scalar])
        case .enter: finish(.line(text(line)))
        case .cancel: finish(.cancelled, suffix: "^C")
        case .deleteOrEnd:
            if line.isEmpty { finish(.endOfInput) } else { deleteUnderCursor() }
        case .delete: deleteUnderCursor()
        case .backspace:
            guard cursor > 0 else { break }
            cursor -= 1
            line.remove(at: cursor)
            display.changed(from: cursor)
        case .tab: completeWord()
        case .home: cursor = 0
        case .end: cursor = line.count
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(line.count, cursor + 1)
        case .killToEnd:
            line.removeSubrange(cursor...)
            display.changed(from: cursor)
        case .killToStart:
            line.removeSubrange(..<cursor)
            cursor = 0
            display.changed(from: 0)
        case .killWordBefore:
            var start = cursor
            while start > 0, line[start - 1] == " " { start -= 1 }
            while start > 0, line[start - 1] != " " { start -= 1 }
            line.removeSubrange(start..<cursor)
            cursor = start
            display.changed(from: start)
        case .clearScreen: display.clearScreen()
        case .up:
            guard historyIndex > 0 else { break }
            if historyIndex == history.count { draft = line }
            historyIndex -= 1
            replaceLine(with: Self.editable(history[historyIndex]))
        case .down:
            guard historyIndex < history.count else { break }
            historyIndex += 1
            replaceLine(with: historyIndex == history.count ? draft : Self.editable(history[historyIndex]))
        }
    }

    private mutating func insert(_ scalars: [Unicode.Scalar]) {
        line.insert(contentsOf: scalars, at: cursor)
        display.changed(from: cursor)
        cursor += scalars.count
    }

    private mutating func deleteUnderCursor() {
        guard cursor < line.count else { return }
        line.remove(at: cursor)
        display.changed(from: cursor)
    }

    private mutating func replaceLine(with new: [Unicode.Scalar]) {
        let same = zip(line, new).prefix { $0 == $1 }.count
        line = new
        cursor = new.count
        display.changed(from: same)
    }

    /// The line drawn as it ends, the cursor on the row below it.
    private mutating func finish(_ result: Outcome, suffix: String = "") {
        display.draw(line, cursor: cursor)
        display.leave(lineLength: line.count, suffix: suffix)
        outcome = result
    }

    /// Completes the word before the cursor: fully when one word fits, to the common prefix
    /// otherwise, listing the choices when nothing could be added.
    private mutating func completeWord() {
        let before = text(line[..<cursor])
        let word = String(before.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }.reversed())
        let choices = complete(before)
        guard !choices.isEmpty else { return }
        var common = choices[0]
        for choice in choices.dropFirst() {
            common = String(zip(common.lowercased(), choice.lowercased()).prefix { $0 == $1 }.map(\.0))
        }
        var addition = String(common.dropFirst(word.count))
        if choices.count == 1 { addition = String(choices[0].dropFirst(word.count)) + " " }
        if addition.isEmpty {
            display.draw(line, cursor: cursor)
            display.leave(lineLength: line.count)
            display.write(below: choices.prefix(40).joined(separator: "  "))
            return
        }
        // Keep the case the user typed for keywords in lower case.
        if word.first?.isLowercase == true, choices.count == 1, choices[0] == choices[0].uppercased() { addition = addition.lowercased() }
        insert(Self.editable(addition))
    }

    private func text(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// Text from elsewhere (history, completions) as the line may hold it: no controls.
    static func editable(_ text: String) -> [Unicode.Scalar] { LineDisplay.printable(text.unicodeScalars) }
}
