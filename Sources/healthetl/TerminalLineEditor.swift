import Foundation
import HealthQL

/// An editor over termios raw mode (no readline library is available as a Swift package):
/// printable input, backspace, left/right, up/down through history, Tab completion,
/// Ctrl-C to drop the line, Ctrl-D to end on an empty line.
public final class TerminalLineEditor: LineReader {
    private let history: History
    private let complete: (String) -> [String]
    private var saved = termios()

    /// `complete` gets the text before the cursor and returns the words that could finish its last word.
    public init(history: History, complete: @escaping (String) -> [String]) {
        self.history = history
        self.complete = complete
    }

    public static var isAvailable: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    public func readLine(prompt: String) -> String? {
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
            case 0x03:   // Ctrl-C: drop the line
                write("^C\r\n")
                return ""
            case 0x7F, 0x08:   // Backspace
                if cursor > 0 { buffer.remove(at: cursor - 1); cursor -= 1 }
            case 0x09:   // Tab
                (buffer, cursor) = completion(prompt, buffer, cursor)
            case 0x1B:   // escape sequences: arrows
                guard readByte() == UInt8(ascii: "["), let key = readByte() else { break }
                switch key {
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
