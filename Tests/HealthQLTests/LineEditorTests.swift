import XCTest
@testable import HealthQL

/// The REPL's line editor without a terminal (issue 56): bytes in, the line and the bytes for
/// the terminal out. The pseudo-terminal tests (`REPLTests`, end to end) drive the binary; the
/// `line-editor` fuzz target plays the output on a model terminal.
final class LineEditorTests: XCTestCase {
    private func keys(_ bytes: [UInt8], _ decoder: inout KeyDecoder) -> [Key] {
        var keys: [Key] = []
        for byte in bytes { decoder.decode(byte) { keys.append($0) } }
        return keys
    }

    private func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return keys(Array(text.utf8), &decoder)
    }

    private func editor(width: Int = 80, history: [String] = [], complete: @escaping (String) -> [String] = { _ in [] }) -> LineEditor {
        LineEditor(prompt: "healthql> ", width: width, history: history, complete: complete)
    }

    /// Feeds `text`, then takes the output: one read's worth.
    @discardableResult
    private func type(_ text: String, into editor: inout LineEditor) -> String {
        for byte in text.utf8 { _ = editor.feed(byte) }
        return String(decoding: editor.output(), as: UTF8.self)
    }

    private func text(_ editor: LineEditor) -> String { String(String.UnicodeScalarView(editor.line)) }

    /// The escape a paste carried into the REPL: its parameter overflowed `parameter * 10`.
    func testAParameterPastAnyIntegerNamesNoKey() {
        XCTAssertEqual(keys("\u{1B}[99999999999999999999~x"), [.text("x")])
        XCTAssertEqual(keys("\u{1B}[30000000000000000003~"), [], "saturated, not wrapped round to 3 (Delete)")
        XCTAssertEqual(keys("\u{1B}[0003~"), [.delete])
        var editor = editor()
        type("SELECT\u{1B}[99999999999999999999~ 1", into: &editor)
        XCTAssertEqual(text(editor), "SELECT 1")
    }

    /// A sequence longer than any key's is given up after `longestSequence` bytes: what follows
    /// is read as keys again, so the state stays bounded whatever is pasted.
    func testASequenceLongerThanAnyKeysIsGivenUp() {
        let digits = KeyDecoder.longestSequence
        XCTAssertEqual(keys("\u{1B}[" + String(repeating: "9", count: digits) + "~"), [], "as long as a sequence may be")
        XCTAssertEqual(keys("\u{1B}[" + String(repeating: "9", count: digits + 3) + "~"),
                       [.text("9"), .text("9"), .text("9"), .text("~")])
        XCTAssertEqual(keys("\u{1B}[" + String(repeating: ";", count: 10_000) + "A"), Array(repeating: .text(";"), count: 10_000 - digits) + [.text("A")])
    }

    func testEveryFormOfTheEditingKeys() {
        for home in ["\u{1B}[H", "\u{1B}[1~", "\u{1B}[7~", "\u{1B}OH", "\u{01}", "\u{1B}[1;5H"] { XCTAssertEqual(keys(home), [.home], home) }
        for end in ["\u{1B}[F", "\u{1B}[4~", "\u{1B}[8~", "\u{1B}OF", "\u{05}"] { XCTAssertEqual(keys(end), [.end], end) }
        XCTAssertEqual(keys("\u{1B}[3~"), [.delete])
        XCTAssertEqual(keys("\u{1B}[3;2~"), [.delete], "a modifier after the key's number")
        XCTAssertEqual(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}OA"), [.up, .down, .right, .left, .up])
        XCTAssertEqual(keys("\u{1B}\u{1B}[A"), [.up], "Esc, then an arrow")
        XCTAssertEqual(keys("\u{1B}x"), [], "Alt-x: nothing this editor uses")
        XCTAssertEqual(keys("\u{1B}[1\r"), [.enter], "a control cuts a sequence short and counts")
        XCTAssertEqual(keys("\u{1B}[200~ab\u{1B}[201~"), [.text("a"), .text("b")], "bracketed paste marks name no key")
    }

    func testASequenceCutBetweenReadsGoesOn() {
        var decoder = KeyDecoder()
        XCTAssertEqual(keys([0x1B], &decoder), [])
        XCTAssertFalse(decoder.isBetweenKeys)
        XCTAssertEqual(keys(Array("[3".utf8), &decoder), [])
        XCTAssertEqual(keys(Array("~".utf8), &decoder), [.delete])
        XCTAssertTrue(decoder.isBetweenKeys)
        XCTAssertEqual(keys([0xE2, 0x82], &decoder), [])
        XCTAssertEqual(keys([0xAC], &decoder), [.text("€")])
    }

    func testBrokenUTF8AndC1ControlsReadAsReplacementCharacters() {
        var decoder = KeyDecoder()
        XCTAssertEqual(keys([0xC3, 0x41], &decoder), [.text("\u{FFFD}"), .text("A")], "a cut sequence keeps the byte that cut it")
        XCTAssertEqual(keys([0xC0, 0x80, 0xFF], &decoder), Array(repeating: .text("\u{FFFD}"), count: 3))
        XCTAssertEqual(keys([0xE0, 0x80, 0x80], &decoder), [.text("\u{FFFD}")], "overlong")
        XCTAssertEqual(keys([0xED, 0xA0, 0x80], &decoder), [.text("\u{FFFD}")], "a surrogate")
        XCTAssertEqual(keys([0xF4, 0x90, 0x80, 0x80], &decoder), [.text("\u{FFFD}")], "past U+10FFFF")
        XCTAssertEqual(keys([0xC2, 0x9B], &decoder), [.text("\u{FFFD}")], "C1 CSI, which a terminal would act on")
        XCTAssertEqual(keys([0xF0, 0x9F, 0x98, 0x80], &decoder), [.text("😀")])
    }

    /// A paste at the end of the line writes its own bytes, once a read: 20,000 characters in
    /// reads of 4 KiB write the prompt, the 20,000 bytes and a line break where a read ended on
    /// a row's last cell (issue 56: it was 201 MB, the whole line again after every character).
    func testAPasteAtTheEndWritesJustItsBytes() {
        var editor = editor()
        let start = editor.output()
        XCTAssertEqual(String(decoding: start, as: UTF8.self), "\rhealthql> \u{1B}[J")
        let pasted = Array(repeating: UInt8(ascii: "x"), count: 20_000)
        var written = 0, reads = 0
        for read in stride(from: 0, to: pasted.count, by: 4096) {
            for byte in pasted[read..<min(read + 4096, pasted.count)] { XCTAssertNil(editor.feed(byte)) }
            written += editor.output().count
            reads += 1
        }
        XCTAssertEqual(editor.line.count, 20_000)
        XCTAssertEqual(editor.cursor, 20_000)
        XCTAssertLessThanOrEqual(written, pasted.count + 2 * reads)

        // Typed one key at a time: a byte a key, and "\r\n" at each row's end.
        var typed = self.editor(), perKey = 0
        _ = typed.output()
        for byte in pasted { _ = typed.feed(byte); perKey += typed.output().count }
        XCTAssertEqual(perKey, pasted.count + 2 * ((10 + pasted.count) / 80))
    }

    /// An edit inside the line rewrites from the edit on, not the prompt and what is before it.
    func testAnEditInsideTheLineRewritesItsTailOnly() {
        var editor = editor(width: 1_000)
        _ = editor.output()
        type(String(repeating: "a", count: 400), into: &editor)
        XCTAssertEqual(type("\u{01}" + String(repeating: "\u{06}", count: 300), into: &editor), "\u{1B}[100D", "moves: one control")
        XCTAssertEqual(type("b", into: &editor), "b" + String(repeating: "a", count: 100) + "\u{1B}[100D")
        XCTAssertEqual(type("\u{7F}", into: &editor), "\u{1B}[1D" + String(repeating: "a", count: 100) + "\u{1B}[J\u{1B}[100D")
        XCTAssertEqual(text(editor), String(repeating: "a", count: 400))
    }

    /// A line wider than the terminal wraps; the cursor moves by rows and columns, never stays
    /// in a row's last cell (where the terminal holds it until the next character).
    func testAWrappedLineMovesTheCursorByRowsAndColumns() {
        var editor = LineEditor(prompt: "> ", width: 20, history: [], complete: { _ in [] })
        XCTAssertEqual(String(decoding: editor.output(), as: UTF8.self), "\r> \u{1B}[J")
        XCTAssertEqual(type(String(repeating: "x", count: 18), into: &editor), String(repeating: "x", count: 18) + "\r\n",
                       "the row is full: the cursor goes to the next one")
        XCTAssertEqual(type("\u{7F}", into: &editor), "\u{1B}[1A\u{1B}[19C\u{1B}[J", "back onto the row above, its last cell")
        XCTAssertEqual(type("yz", into: &editor), "yz", "z goes on the next row by itself")
        XCTAssertEqual(type("\u{01}", into: &editor), "\u{1B}[1A\u{1B}[1C", "Home: up a row, after the prompt")
        XCTAssertEqual(type("\u{05}", into: &editor), "\u{1B}[1B\u{1B}[1D", "End: down a row, after z")
        XCTAssertEqual(type("\u{02}", into: &editor), "\r", "back to the row's first cell")
        XCTAssertEqual(type("\r", into: &editor), "\u{1B}[1C\r\n", "to the end, then the next row")
        XCTAssertEqual(editor.outcome, .line(String(repeating: "x", count: 17) + "yz"))
    }

    /// Enter, Ctrl-C and Ctrl-D leave the cursor below the line, wherever it was in it.
    func testAFinishedLineLeavesTheCursorBelowIt() {
        var enter = LineEditor(prompt: "> ", width: 10, history: [], complete: { _ in [] })
        _ = enter.output()
        type("abcdefghijkl\u{01}", into: &enter)
        XCTAssertEqual(type("\r", into: &enter), "\u{1B}[1B\u{1B}[2C\r\n", "to the end of the line first")
        XCTAssertEqual(enter.outcome, .line("abcdefghijkl"))

        var cancel = editor()
        _ = cancel.output()
        XCTAssertEqual(type("SELECT\u{03}", into: &cancel), "SELECT^C\r\n")
        XCTAssertEqual(cancel.outcome, .cancelled)

        var end = editor()
        _ = end.output()
        type("ab\u{02}\u{04}", into: &end)
        XCTAssertEqual(text(end), "a", "Ctrl-D deletes under the cursor on a line with text")
        type("\u{15}\u{04}", into: &end)
        XCTAssertEqual(end.outcome, .endOfInput, "and ends the session on an empty one")
        XCTAssertEqual(end.feed(UInt8(ascii: "x")), .endOfInput, "a finished line takes no more")
        XCTAssertEqual(text(end), "")
    }

    /// History lines may hold what a pipe put there: a tab reads as a space, another control as U+FFFD.
    func testHistoryRecallsLinesWithoutTheirControls() {
        var editor = editor(history: ["SELECT\t1;", "a\u{1B}[31mb"])
        _ = editor.output()
        type("draft", into: &editor)
        type("\u{1B}[A", into: &editor)
        XCTAssertEqual(text(editor), "a\u{FFFD}[31mb")
        type("\u{1B}[A\u{1B}[A", into: &editor)
        XCTAssertEqual(text(editor), "SELECT 1;", "the oldest stays")
        type("\u{1B}[B\u{1B}[B", into: &editor)
        XCTAssertEqual(text(editor), "draft", "the line being typed comes back")
        XCTAssertEqual(editor.cursor, 5)
    }

    func testTabCompletesOrListsTheChoices() {
        var one = editor(complete: { _ in ["SELECT"] })
        _ = one.output()
        type("sel\t", into: &one)
        XCTAssertEqual(text(one), "select ", "the case typed kept for a keyword")

        var two = editor(complete: { _ in ["sleep", "sleep_stages"] })
        _ = two.output()
        type("FROM sl\t", into: &two)
        XCTAssertEqual(text(two), "FROM sleep")
        let listed = type("\t", into: &two)
        XCTAssertEqual(listed, "\r\nsleep  sleep_stages\r\n\rhealthql> FROM sleep\u{1B}[J", "the choices below, then the line again")
    }

    /// Ctrl-L clears the screen and draws the line at its top.
    func testClearScreenDrawsTheLineAgain() {
        var editor = editor()
        _ = editor.output()
        type("SELECT", into: &editor)
        XCTAssertEqual(type("\u{0C}", into: &editor), "\u{1B}[H\u{1B}[2J\rhealthql> SELECT\u{1B}[J")
    }
}
