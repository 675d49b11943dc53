/// Text from an export (a file name, a source name) made safe to print on a line of a terminal
/// (issue 56): a newline in a file name forged a "note:" line, an escape sequence set the
/// window title. Control characters (C0, DEL, C1), line and paragraph separators and the
/// bidirectional overrides are written as `\u{…}`; everything else is kept.
package enum PrintableText {
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isHidden(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
