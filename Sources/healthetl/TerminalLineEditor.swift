import Foundation
import HealthQL

/// An editor over termios raw mode (no readline library is available as a Swift package):
/// printable input, backspace, left/right, up/down through history, Tab completion,
/// Ctrl-C to drop the line, Ctrl-D to end on an empty line (else to delete the character under
/// the cursor), and the keys of Emacs-style line editing and of the keypad (issue 45): Ctrl-A /
/// Home to the start, Ctrl-E / End to the end, Ctrl-B / Ctrl-F back and forward, Ctrl-K and
/// Ctrl-U delete to the end and to the start, Ctrl-W the word before the cursor, Delete the
/// character under it, Ctrl-L clears the screen. Home, End and Delete come as any of the
/// sequences terminals send (`ESC[H`, `ESC[1~`, `ESC[7~`, `ESC O H`; `ESC[F`, `ESC[4~`,
/// `ESC[8~`, `ESC O F`; `ESC[3~`).
package final class TerminalLineEditor: LineReader {
    private let history: History
    private let complete: (String) -> [String]
    private var saved = termios()

    /// `complete` gets the text before the cursor and returns the words that could finish its last word.
    package init(history: History, complete: @escaping (String) -> [String]) {
        self.history = history
        self.complete = complete
    }

    package static var isAvailable: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    package func readLine(prompt: String) -> String? {
        enableRawMode()
        defer { restore() }
        var buffer: [Character] = []
        var cursor = 0
        var historyIndex = history.entries.count
        var draft: [Character] = []
        redraw(prompt, buffer, cursor)
        while let byte = readByte() {
            switch byte {
            case 0x0D, 0x0A:   // Enter
                write("\r\n")
                return String(buffer)
            case 0x04:   // Ctrl-D
                if buffer.isEmpty { write("\r\n"); return nil }
                if cursor < buffer.count { buffer.remove(at: cursor) }
            case 0x03:   // Ctrl-C: drop the line
                write("^C\r\n")
                return ""
            case 0x7F, 0x08:   // Backspace
                if cursor > 0 { buffer.remove(at: cursor - 1); cursor -= 1 }
            case 0x09:   // Tab
                (buffer, cursor) = completion(prompt, buffer, cursor)
            case 0x01: cursor = 0                                   // Ctrl-A
            case 0x05: cursor = buffer.count                        // Ctrl-E
            case 0x02: cursor = max(0, cursor - 1)                  // Ctrl-B
            case 0x06: cursor = min(buffer.count, cursor + 1)       // Ctrl-F
            case 0x0B: buffer.removeSubrange(cursor...)             // Ctrl-K
            case 0x15: buffer.removeSubrange(..<cursor); cursor = 0 // Ctrl-U
            case 0x17:                                              // Ctrl-W: the word before the cursor
                var start = cursor
                while start > 0, buffer[start - 1] == " " { start -= 1 }
                while start > 0, buffer[start - 1] != " " { start -= 1 }
                buffer.removeSubrange(start..<cursor); cursor = start
            case 0x0C: write("\u{1B}[H\u{1B}[2J")                  // Ctrl-L
            case 0x1B:   // escape sequences: arrows, Home, End, Delete
                guard let key = escapeSequence() else { break }
                switch key {
                case UInt8(ascii: "H"): cursor = 0
                case UInt8(ascii: "F"): cursor = buffer.count
                case 0x7F: if cursor < buffer.count { buffer.remove(at: cursor) }
                case UInt8(ascii: "A"):
                    if historyIndex > 0 {
                        if historyIndex == history.entries.count { draft = buffer }
                        historyIndex -= 1
                        buffer = Array(history.entries[historyIndex]); cursor = buffer.count
                    }
                case UInt8(ascii: "B"):
                    if historyIndex < history.entries.count {
                        historyIndex += 1
                        buffer = historyIndex == history.entries.count ? draft : Array(history.entries[historyIndex])
                        cursor = buffer.count
                    }
                case UInt8(ascii: "C"): cursor = min(buffer.count, cursor + 1)
                case UInt8(ascii: "D"): cursor = max(0, cursor - 1)
                default: break
                }
            default:
                if byte >= 0x20, let c = readCharacter(first: byte) { buffer.insert(c, at: cursor); cursor += 1 }
            }
            redraw(prompt, buffer, cursor)
        }
        return buffer.isEmpty ? nil : String(buffer)
    }

    /// The key an escape sequence names, as one byte: `A`…`D` (arrows), `H` (Home), `F` (End),
    /// 0x7F (Delete); nil for one this editor does not use (read to its end all the same, so
    /// nothing of it is inserted as text).
    private func escapeSequence() -> UInt8? {
        guard let introducer = readByte() else { return nil }
        if introducer == UInt8(ascii: "O") { return readByte() }   // ESC O H / F / A…D (application mode)
        guard introducer == UInt8(ascii: "[") else { return nil }
        var parameter = 0
        while let byte = readByte() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): parameter = parameter * 10 + Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: ";"): parameter = 0   // modifiers (ESC[1;5H): the key is what counts
            case UInt8(ascii: "~"):
                switch parameter {
                case 1, 7: return UInt8(ascii: "H")
                case 4, 8: return UInt8(ascii: "F")
                case 3: return 0x7F
                default: return nil
                }
            case 0x40...0x7E: return byte   // the final byte: A…D, H, F
            default: return nil
            }
        }
        return nil
    }

    /// Completes the word before the cursor: fully when one word fits, to the common prefix
    /// otherwise, listing the choices when nothing could be added.
    private func completion(_ prompt: String, _ buffer: [Character], _ cursor: Int) -> ([Character], Int) {
        let before = String(buffer[..<cursor])
        let word = String(before.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }.reversed())
        let choices = complete(before)
        guard !choices.isEmpty else { return (buffer, cursor) }
        var common = choices[0]
        for choice in choices.dropFirst() {
            common = String(zip(common.lowercased(), choice.lowercased()).prefix { $0 == $1 }.map(\.0))
        }
        var insert = String(common.dropFirst(word.count))
        if choices.count == 1 { insert = String(choices[0].dropFirst(word.count)) + " " }
        if insert.isEmpty {
            write("\r\n" + choices.prefix(40).joined(separator: "  ") + "\r\n")
            return (buffer, cursor)
        }
        // Keep the case the user typed for keywords in lower case.
        if word.first?.isLowercase == true, choices.count == 1, choices[0] == choices[0].uppercased() { insert = insert.lowercased() }
        var out = buffer
        out.insert(contentsOf: Array(insert), at: cursor)
        return (out, cursor + insert.count)
    }

    private func redraw(_ prompt: String, _ buffer: [Character], _ cursor: Int) {
        var s = "\r" + prompt + String(buffer) + "\u{1B}[K"
        let back = buffer.count - cursor
        if back > 0 { s += "\u{1B}[\(back)D" }
        write(s)
    }

    private func write(_ s: String) { FileHandle.standardOutput.write(Data(s.utf8)) }

    private func readByte() -> UInt8? {
        var byte: UInt8 = 0
        return read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil
    }

    /// A UTF-8 character starting with `first` (continuation bytes read as needed).
    private func readCharacter(first: UInt8) -> Character? {
        var bytes = [first]
        let extra = first >= 0xF0 ? 3 : first >= 0xE0 ? 2 : first >= 0xC0 ? 1 : 0
        for _ in 0..<extra { if let b = readByte() { bytes.append(b) } }
        return String(decoding: bytes, as: UTF8.self).first
    }

    private func enableRawMode() {
        tcgetattr(STDIN_FILENO, &saved)
        var raw = saved
        // Keystrokes one by one, no echo, Ctrl-C as a byte; output processing stays on ("\n" → "\r\n").
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    private func restore() { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
}
