import FuzzHarness

/// A terminal as far as the line editor drives one (xterm's rules): cells of one scalar, a
/// row's last cell holding the cursor until the next scalar (the pending wrap), `\n` as `\r\n`
/// (output processing stays on in raw mode), and the few sequences the editor writes: cursor
/// moves (`ESC[nA` … `ESC[nD`), erase below (`ESC[J`), home and clear (`ESC[H`, `ESC[2J`).
/// Anything else it writes is a finding. The screen is as tall as the rows written so far,
/// as if the prompt were on the terminal's last row: moving below them goes nowhere.
struct TerminalModel {
    let width: Int
    private(set) var rows: [[Unicode.Scalar]]
    private(set) var row = 0, column = 0
    private(set) var pendingWrap = false
    private var sequence: [Unicode.Scalar]?   // after ESC, until the final byte

    init(width: Int) {
        self.width = width
        rows = [Self.blank(width)]
    }

    static func blank(_ width: Int) -> [Unicode.Scalar] { Array(repeating: " ", count: width) }

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
            rows[row][column] = scalar
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
        case ("J", nil):
            rows[row].replaceSubrange(column..., with: repeatElement(" ", count: width - column))
            for below in rows.indices where below > row { rows[below] = Self.blank(width) }
        case ("H", nil): (row, column) = (0, 0)
        case ("J", 2?): rows = rows.map { _ in Self.blank(width) }
        default: FuzzHarness.disagree("ESC[\(given.map(String.init) ?? "")\(final) written")
        }
    }

    /// `growing`: a line feed at the last row scrolls, so a row is added; a cursor move stops.
    private mutating func down(_ n: Int, growing: Bool) {
        row += n
        if growing { while row >= rows.count { rows.append(Self.blank(width)) } }
        row = min(row, rows.count - 1)
    }

    /// The cell at `position` cells after the start of row `start` (a space past the rows).
    func cell(from start: Int, _ position: Int) -> Unicode.Scalar {
        let r = start + position / width
        return r < rows.count ? rows[r][position % width] : " "
    }
}
