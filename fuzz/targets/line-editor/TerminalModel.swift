import FuzzHarness
#if canImport(Glibc)
import Glibc
#endif

/// A terminal as far as the line editor drives one (xterm's rules): cells of one scalar, a
/// row's last cell holding the cursor until the next scalar (the pending wrap), `\n` as `\r\n`
/// (output processing stays on in raw mode), and the few sequences the editor writes: cursor
/// moves (`ESC[nA` … `ESC[nD`), erase below (`ESC[J`), home and clear (`ESC[H`, `ESC[2J`).
/// Anything else it writes is a finding. The screen is as tall as the rows written so far,
/// as if the prompt were on the terminal's last row: moving below them goes nowhere.
struct TerminalModel {
    let width: Int
    /// The rows one after another, `width` cells each (one flat array: the oracle compares it
    /// with memcmp, as instrumented comparisons cell by cell cost most of a run).
    private(set) var cells: [Unicode.Scalar]
    private(set) var row = 0, column = 0
    private(set) var pendingWrap = false
    private var sequence: [Unicode.Scalar]?   // after ESC, until the final byte

    private let blankRow: [Unicode.Scalar]

    init(width: Int) {
        self.width = width
        blankRow = Array(repeating: " ", count: width)
        cells = blankRow
    }

    var rowCount: Int { cells.count / width }

    mutating func write(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            FuzzHarness.disagree("the editor wrote bytes that are not UTF-8")
        }
        for scalar in text.unicodeScalars { take(scalar) }
        if sequence != nil { FuzzHarness.disagree("an output ends inside an escape sequence") }
    }

    private mutating func take(_ scalar: Unicode.Scalar) {
        if var started = sequence {
            started.append(scalar)
            if started.count == 1 {
                guard scalar == "[" else { FuzzHarness.disagree("ESC \(scalar) written") }
                sequence = started
            } else if ("0"..."9").contains(scalar) {
                sequence = started
            } else {
                sequence = nil
                control(started.dropFirst().dropLast(), final: scalar)
            }
            return
        }
        switch scalar {
        case "\u{1B}": sequence = []
        case "\r": column = 0; pendingWrap = false
        case "\n": column = 0; pendingWrap = false; down(1, growing: true)
        case _ where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value):
            FuzzHarness.disagree("a control written: U+\(String(scalar.value, radix: 16))")
        default:
            if pendingWrap { column = 0; pendingWrap = false; down(1, growing: true) }
            cells[row * width + column] = scalar
            if column == width - 1 { pendingWrap = true } else { column += 1 }
        }
    }

    private mutating func control(_ digits: ArraySlice<Unicode.Scalar>, final: Unicode.Scalar) {
        let given = Int(String(String.UnicodeScalarView(digits)))
        let n = given ?? 1
        if given != nil, n == 0 { FuzzHarness.disagree("a move by 0 (ESC[0\(final)) reads as a move by 1") }
        pendingWrap = false
        switch (final, given) {
        case ("A", _): row = max(0, row - n)
        case ("B", _): down(n, growing: false)
        case ("C", _): column = min(width - 1, column + n)
        case ("D", _): column = max(0, column - n)
        case ("J", nil): cells.replaceSubrange((row * width + column)..., with: repeatElement(" ", count: cells.count - row * width - column))
        case ("H", nil): (row, column) = (0, 0)
        case ("J", 2?): cells = Array(repeating: " ", count: cells.count)
        default: FuzzHarness.disagree("ESC[\(given.map(String.init) ?? "")\(final) written")
        }
    }

    /// `growing`: a line feed at the last row scrolls, so a row is added; a cursor move stops.
    private mutating func down(_ n: Int, growing: Bool) {
        row += n
        if growing, row >= rowCount { cells += repeatElement(" ", count: (row + 1 - rowCount) * width) }
        row = min(row, rowCount - 1)
    }

    /// Whether the screen from the start of row `start` on is `prompt` and `line`, then blank
    /// cells only (memcmp: see `cells`).
    func shows(_ prompt: [Unicode.Scalar], _ line: [Unicode.Scalar], fromRow start: Int) -> Bool {
        let first = start * width, end = first + prompt.count + line.count
        guard start >= 0, end <= cells.count else { return false }
        return cells.withUnsafeBytes { screen in
            func same(_ part: [Unicode.Scalar], at cell: Int) -> Bool {
                part.withUnsafeBytes { memcmp(screen.baseAddress! + cell * 4, $0.baseAddress ?? screen.baseAddress!, $0.count) == 0 }
            }
            guard same(prompt, at: first), same(line, at: first + prompt.count) else { return false }
            // After the line: the rest of its row, then whole rows (rows below it exist once a longer line was erased).
            var cell = end
            while cell < cells.count {
                let count = min(width - cell % width, cells.count - cell)
                if !blankRow.withUnsafeBytes({ memcmp(screen.baseAddress! + cell * 4, $0.baseAddress!, count * 4) == 0 }) { return false }
                cell += count
            }
            return true
        }
    }

    /// The first cell from row `start` on that differs from `shown` (then blanks), for a message.
    func firstDifference(_ shown: [Unicode.Scalar], fromRow start: Int) -> String {
        let first = max(start, 0) * width
        for i in 0..<max(shown.count, cells.count - first) {
            let expected = i < shown.count ? shown[i] : " "
            let actual = first + i < cells.count ? cells[first + i] : "∅"
            if actual != expected { return "cell \(i) from row \(start) shows '\(actual)', not '\(expected)' (width \(width))" }
        }
        return "row \(start) is above the screen"
    }
}
