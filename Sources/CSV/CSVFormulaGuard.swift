/// Spreadsheet formula injection (OWASP "CSV Injection", CWE-1236). A spreadsheet opening a
/// CSV file reads a cell that starts with `=` as a formula (LibreOffice, Excel, Google Sheets),
/// Excel one that starts with `+`, `-` or `@` too, and some skip a leading tab or carriage
/// return first. A formula can send the sheet's contents to a web address (HYPERLINK,
/// WEBSERVICE) or, through DDE, start a program (`=cmd|' /C calc'!A0`). RFC 4180 quoting does
/// not help: the quotes come off, then the formula is read. CSV has no "this is text" mark, so
/// a text cell that could start a formula is written with a single quote (`'`) in front, and
/// quoted, as OWASP advises: the spreadsheet shows the text, `'=cmd|' /C calc'!A0`, and runs
/// nothing.
///
/// Left as it is: a lone signed constant (`-5`, `-2.50`, `+01:00`): a sign, then runs of
/// digits joined by single `.` or `:`. A spreadsheet reads it as the number or time it is;
/// with no letter, no operator after the sign and no `|`, `!`, quote or parenthesis it can
/// name no function, command or other sheet. Number columns never come here: their cells are
/// written as numbers, never as text.
///
/// Reversible: a text that already has single quotes in front of a formula start (`'=x`) gets
/// one more (`''=x`), so every text is recovered exactly by `original(ofCell:)`: one leading
/// `'` comes off a cell whose rest, after its leading `'`s, starts a formula. A text that
/// starts with a single quote before anything else (`'s Phone`) is written as it is.
enum CSVFormulaGuard {
    /// The mark in front of a neutralised cell.
    static let mark: UInt8 = 0x27   // '

    /// Whether `bytes` (a text cell, unquoted) is written with `mark` in front.
    @inline(__always)
    static func needsMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count && bytes[i] == mark { i += 1 }
        return startsFormula(bytes, at: i)
    }

    /// Whether the text from `start` on starts a formula: its first byte is `=`, `@`, tab or
    /// CR, or `+`/`-` not followed by the rest of a lone constant.
    @inline(__always)
    private static func startsFormula(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard start < bytes.count else { return false }
        switch bytes[start] {
        case 0x3D, 0x40, 0x09, 0x0D: return true                                     // = @ tab CR
        case 0x2B, 0x2D: return !isUnsignedConstant(bytes, from: start + 1)          // + -
        default: return false
        }
    }

    /// Digits, then any number of (`.` or `:`, digits), to the end: `5`, `2.50`, `01:00`.
    private static func isUnsignedConstant(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var i = start
        while true {
            let runStart = i
            while i < bytes.count && (0x30...0x39).contains(bytes[i]) { i += 1 }
            guard i > runStart else { return false }
            if i == bytes.count { return true }
            guard bytes[i] == 0x2E || bytes[i] == 0x3A else { return false }        // . :
            i += 1
        }
    }

    /// The text a cell was written from (the cell as a CSV reader gives it, unquoted): what a
    /// program reading our files does to get the exact text back.
    static func original(ofCell cell: String) -> String {
        let bytes = Array(cell.utf8)
        guard bytes.first == mark, bytes.withUnsafeBufferPointer(needsMark) else { return cell }
        return String(decoding: bytes.dropFirst(), as: UTF8.self)
    }
}
