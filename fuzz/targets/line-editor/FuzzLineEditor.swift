import FuzzHarness
import HealthQL

// The REPL's line editor (issue 56): keystrokes, escape sequences and pastes into `LineEditor`,
// fed in chunks as reads return them, its output played on a model terminal (`TerminalModel`).
// Oracle, after every chunk: no trap; the line holds no control; the cursor is within it; the
// model terminal shows the prompt and the line from where it starts, the cursor on its cell,
// and nothing after them; a chunk of plain text typed at the end of the line writes its own
// bytes and at most a line break; a finished line is the text the screen shows.
//
// Input: [width and prompt][4 chunk lengths][bytes typed]. The first byte chooses the
// terminal's width (1…100 columns: narrow ones wrap the prompt itself) and the prompt.

/// What earlier lines of a session left in the history, for ↑ and ↓.
let startingHistory = ["SELECT count(*) FROM steps;", "SELECT\tdate, value FROM heart_rate WHERE date IN LAST 7 DAYS;",
                       "a\u{1B}[31mred\u{7}", String(repeating: "x", count: 300)]

func fuzzLineEditor(_ input: UnsafeRawBufferPointer) {
    guard let first = input.first else { return }
    let width = Int(first >> 1) % 100 + 1
    let prompt = first & 1 == 0 ? Repl.prompt : Repl.continuation
    let (lengths, payload) = FuzzHarness.chunks(UnsafeRawBufferPointer(rebasing: input[1...]), count: 4)
    var session = Session(prompt: prompt, width: width)
    FuzzHarness.feed(payload, lengths: lengths) { chunk in session.type(Array(chunk)) }
    session.end()
}

/// A REPL's run of lines: a new editor after each finished line, as `TerminalLineEditor` makes them.
struct Session {
    let prompt: String
    let promptScalars: [Unicode.Scalar]
    var screen: TerminalModel
    var history = startingHistory
    var editor: LineEditor

    init(prompt: String, width: Int) {
        self.prompt = prompt
        promptScalars = Array(prompt.unicodeScalars)
        screen = TerminalModel(width: width)
        editor = LineEditor(prompt: prompt, width: width, history: history, complete: Completion.candidates(before:))
        screen.write(editor.output())
        checkEditing()
    }

    mutating func type(_ bytes: [UInt8]) {
        // Plain text typed at the end: the line before, to tell that the text was only appended.
        let plain = editor.cursor == editor.line.count && editor.isBetweenKeys && bytes.allSatisfy { (0x20..<0x7F).contains($0) }
        let before = plain ? editor.line : []
        var finished = false
        var rest = bytes[...]
        while let byte = rest.popFirst() {
            guard editor.feed(byte) != nil else { continue }
            finishLine()
            finished = true
        }
        let output = editor.output()
        screen.write(output)
        checkEditing()
        // Plain text typed at the end: its bytes, and "\r\n" when it ends on a row's last cell.
        if plain, !finished, output.count > bytes.count + 2, editor.line == before + bytes.map(Unicode.Scalar.init) {
            FuzzHarness.disagree("\(bytes.count) characters typed at the end of a line wrote \(output.count) bytes")
        }
    }

    mutating func end() {
        _ = editor.endOfInput()
        finishLine()
    }

    /// Checks the line as the screen shows it, then starts the next one.
    private mutating func finishLine() {
        guard let outcome = editor.outcome else { FuzzHarness.disagree("a line ended without an outcome") }
        let shownLine = editor.line
        screen.write(editor.output())
        let suffix: [Unicode.Scalar] = outcome == .cancelled ? ["^", "C"] : []
        let shown = shownLine + suffix
        // The cursor at the start of the row below the line.
        guard screen.column == 0, !screen.pendingWrap else { FuzzHarness.disagree("a finished line leaves the cursor on its row") }
        let rowsUsed = (promptScalars.count + shown.count + screen.width - 1) / screen.width
        checkScreen(shown, start: screen.row - rowsUsed)
        if case .line(let text) = outcome, !text.isEmpty {
            if Array(text.unicodeScalars) != shownLine { FuzzHarness.disagree("the line returned is not the line shown") }
            history.append(text)
            if history.count > 12 { history.removeFirst() }
        }
        editor = LineEditor(prompt: prompt, width: screen.width, history: history, complete: Completion.candidates(before:))
    }

    /// (A control in the line is a finding too: drawn, it is a control written to the model.)
    private func checkEditing() {
        let line = editor.line
        guard (0...line.count).contains(editor.cursor) else { FuzzHarness.disagree("cursor \(editor.cursor) outside a line of \(line.count)") }
        guard !screen.pendingWrap else { FuzzHarness.disagree("the cursor is left in a pending wrap") }
        let position = promptScalars.count + editor.cursor
        guard screen.column == position % screen.width else {
            FuzzHarness.disagree("the cursor is in column \(screen.column), not \(position % screen.width)")
        }
        checkScreen(line, start: screen.row - position / screen.width)
    }

    /// The prompt and `line` from the start of row `start`, and nothing after them on the screen.
    private func checkScreen(_ line: [Unicode.Scalar], start: Int) {
        if !screen.shows(promptScalars, line, fromRow: start) {
            FuzzHarness.disagree(screen.firstDifference(promptScalars + line, fromRow: start))
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzLineEditor(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@main enum Main {
    static func main() { FuzzHarness.main(fuzzerTestOneInput) }
}
