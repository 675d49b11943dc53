/// The prompt and the line being edited as a terminal shows them, and the bytes that bring the
/// terminal up to date after an edit: only what changed is written (issue 56: redrawing the
/// whole line after each key made a pasted 20,000-character statement write 201 MB and take
/// 15 s; a key typed at the end of the line now writes just its own bytes).
///
/// A line longer than the terminal is wide wraps onto the rows below, so positions are cells
/// counted from the prompt's first one, `row = position / width`, and the cursor moves by rows
/// and columns. Every scalar is taken to be one cell wide (as the editor always did: wide and
/// combining characters are not measured).
package struct LineDisplay {
    let prompt: [Unicode.Scalar]
    let width: Int
    /// Bytes for the terminal not yet taken.
    private var output: [UInt8] = []
    /// Whether the prompt is on the screen; false at first and after something else was written.
    private var promptShown = false
    /// Line scalars on the screen after the prompt.
    private var shownLength = 0
    /// The first line index that may differ from the screen; nil when the screen is the line.
    private var changedFrom: Int?
    /// The terminal's cursor, as a position (the prompt's first cell is 0).
    private var at = 0
    /// The last scalar written filled a row's last cell: the terminal holds the cursor there
    /// until the next one (the "pending wrap"), which is not where `at / width` says it is.
    private var pendingWrap = false

    package init(prompt: String, width: Int) {
        self.prompt = Self.printable(prompt.unicodeScalars)
        self.width = max(1, width)
    }

    /// Line scalars from `index` on may have changed.
    package mutating func changed(from index: Int) { changedFrom = min(changedFrom ?? index, index) }

    /// Brings the screen up to `line`, with the cursor before its scalar `cursor`.
    package mutating func draw(_ line: [Unicode.Scalar], cursor: Int) {
        var erase = false
        if !promptShown {
            output.append(0x0D)
            (at, pendingWrap) = (0, false)
            put(prompt[...])
            promptShown = true
            shownLength = 0
            changedFrom = 0
            erase = true   // whatever was on the row, and rows of an earlier longer line
        }
        let from = min(changedFrom ?? line.count, shownLength, line.count)
        if from < line.count || line.count < shownLength || erase {
            move(to: prompt.count + from)
            put(line[from...])
            settle()
            if line.count < shownLength || erase { output += [0x1B, UInt8(ascii: "["), UInt8(ascii: "J")] }   // erase below
        }
        shownLength = line.count
        changedFrom = nil
        move(to: prompt.count + min(max(cursor, 0), line.count))
    }

    /// Leaves the line drawn as it is, `suffix` after it (`^C`) and the cursor at the start of
    /// the row below it; the next `draw` starts a new prompt.
    package mutating func leave(lineLength: Int, suffix: String = "") {
        move(to: prompt.count + lineLength)
        put(Self.printable(suffix.unicodeScalars)[...])
        if pendingWrap {
            settle()
        } else if at % width != 0 || at == 0 {
            output += [0x0D, 0x0A]
        }
        promptShown = false
    }

    /// Text written below a line that was left (Tab's list of choices), then a new row.
    package mutating func write(below text: String) {
        for scalar in Self.printable(text.unicodeScalars) { UTF8.encode(scalar) { output.append($0) } }
        output += [0x0D, 0x0A]
        promptShown = false
    }

    /// Clears the screen; the next `draw` starts at its top.
    package mutating func clearScreen() {
        output += Array("\u{1B}[H\u{1B}[2J".utf8)
        promptShown = false
    }

    /// The bytes for the terminal since the last call.
    package mutating func take() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &output)
        return taken
    }

    /// Text at the cursor; the terminal moves the cursor on, onto the next row past the last cell.
    private mutating func put(_ scalars: ArraySlice<Unicode.Scalar>) {
        guard !scalars.isEmpty else { return }
        for scalar in scalars { UTF8.encode(scalar) { output.append($0) } }
        at += scalars.count
        pendingWrap = at % width == 0
    }

    /// Out of a pending wrap: to the start of the next row, where `at` says the cursor is.
    private mutating func settle() {
        guard pendingWrap else { return }
        output += [0x0D, 0x0A]
        pendingWrap = false
    }

    private mutating func move(to target: Int) {
        settle()
        let (row, column) = (at / width, at % width)
        let (toRow, toColumn) = (target / width, target % width)
        if toRow < row { control(row - toRow, "A") } else if toRow > row { control(toRow - row, "B") }
        if toColumn == 0, column != 0 {
            output.append(0x0D)
        } else if toColumn < column {
            control(column - toColumn, "D")
        } else if toColumn > column {
            control(toColumn - column, "C")
        }
        at = target
    }

    /// `ESC [ n X`: n rows up (A), down (B), columns right (C), left (D).
    private mutating func control(_ count: Int, _ final: Unicode.Scalar) {
        output += [0x1B, UInt8(ascii: "[")]
        var divisor = 1
        while divisor <= count / 10 { divisor *= 10 }
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(count / divisor % 10))
            divisor /= 10
        }
        output.append(UInt8(final.value))
    }

    /// Controls would move the cursor where the display does not know: shown as U+FFFD (a tab as a space).
    static func printable(_ scalars: String.UnicodeScalarView) -> [Unicode.Scalar] {
        scalars.map { $0 == "\t" ? " " : $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) ? "\u{FFFD}" : $0 }
    }
}
