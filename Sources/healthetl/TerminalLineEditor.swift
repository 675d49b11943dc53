import Foundation
import HealthQL

/// The REPL's line reader on a terminal (no readline library is available as a Swift
/// package): raw mode, reads, writes; the editing itself is HealthQL's `LineEditor`.
package final class TerminalLineEditor: LineReader {
    private let history: History
    private let complete: (String) -> [String]
    /// Bytes read past the end of the last line (a paste of several lines comes in one read).
    private var unread: ArraySlice<UInt8> = []

    /// `complete` gets the text before the cursor and returns the words that could finish its last word.
    package init(history: History, complete: @escaping (String) -> [String]) {
        self.history = history
        self.complete = complete
    }

    package static var isAvailable: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    package func readLine(prompt: String) -> String? {
        RawTerminal.enable()
        defer { RawTerminal.restore() }
        var editor = LineEditor(prompt: prompt, width: Self.width(), history: history.entries, complete: complete)
        Self.write(editor.output())
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if unread.isEmpty {
                unread = []   // lets go of the buffer, which the read then writes in place
                let count = Self.read(into: &buffer)
                guard count > 0 else { break }
                unread = buffer[..<count]
            }
            // Every byte at hand before drawing: a paste is drawn once a read, not once a key.
            while let byte = unread.popFirst() {
                if editor.feed(byte) != nil { break }
            }
            Self.write(editor.output())
            if let outcome = editor.outcome { return Self.result(outcome) }
        }
        let outcome = editor.endOfInput()
        Self.write(editor.output())
        return Self.result(outcome)
    }

    private static func result(_ outcome: LineEditor.Outcome) -> String? {
        switch outcome {
        case .line(let text): text
        case .cancelled: ""   // the REPL reads it as an empty line
        case .endOfInput: nil
        }
    }

    /// The terminal's columns (80 when it does not say: a fresh pseudo-terminal says 0).
    private static func width() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Up to a buffer of bytes; 0 at the end of input or on an error other than an interruption.
    private static func read(into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            return max(count, 0)
        }
    }

    /// Straight to the descriptor: FileHandle's `write` ends the process when the terminal is
    /// gone (EIO after a hang-up), and a line editor has nothing to say then.
    private static func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
