/// Terminal columns a string takes: East Asian wide and fullwidth characters (Hangul, CJK
/// ideographs, kana, fullwidth forms, most emoji) take two, combining marks none (UAX #11, the
/// ranges terminals use), so a table with Korean or Chinese names stays aligned.
enum DisplayWidth {
    static func of(_ s: String) -> Int {
        var width = 0
        for scalar in s.unicodeScalars { width += of(scalar) }
        return width
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B { return 0 }
        return isWide(v) ? 2 : 1
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,   // Hangul Jamo initial consonants
        0x2E80...0x303E,   // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,   // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
        0x3400...0x4DBF,   // CJK extension A
        0x4E00...0x9FFF,   // CJK unified ideographs
        0xA000...0xA4CF,   // Yi
        0xA960...0xA97F,   // Hangul Jamo extended A
        0xAC00...0xD7A3,   // Hangul syllables
        0xF900...0xFAFF,   // CJK compatibility ideographs
        0xFE10...0xFE19,   // vertical forms
        0xFE30...0xFE6F,   // CJK compatibility forms, small form variants
        0xFF00...0xFF60,   // fullwidth forms
        0xFFE0...0xFFE6,
        0x1F300...0x1F64F, // pictographs, emoticons
        0x1F900...0x1F9FF,
        0x20000...0x3FFFD, // CJK extensions B and later
    ]

    private static func isWide(_ v: UInt32) -> Bool { wideRanges.contains { $0.contains(v) } }
}
