import Foundation

/// Where the REPL reads lines: a small line editor on a terminal, plain lines otherwise.
package protocol LineReader: AnyObject {
    /// The next line without its newline; nil at end of input.
    func readLine(prompt: String) -> String?
}

/// Lines from a pipe or file: no editing, no echo of the prompt's keystrokes.
package final class PlainLineReader: LineReader {
    package init() {}
    package func readLine(prompt: String) -> String? {
        FileHandle.standardOutput.write(Data(prompt.utf8))
        return Swift.readLine(strippingNewline: true)
    }
}
