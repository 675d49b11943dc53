/// The byte rules of XML that both byte filters apply (`XMLSanitizer`, which removes the
/// DOCTYPE, and `KnownRecordSkipper`, which reads past it to the records): one place, so the
/// two cannot drift apart (issue 47: the skipper's copy took `:` as a name's first byte, the
/// sanitizer's did not).
enum XMLSyntax {
    /// A byte that can start a name: XML 1.0's NameStartChar in ASCII (letters, `_`, `:`) and
    /// any byte of a multi-byte character.
    @inline(__always) static func isNameStart(_ b: UInt8) -> Bool {
        (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 58 || b >= 0x80
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }

    /// Where a `<!DOCTYPE …>` ends, fed the bytes after the keyword one by one: a `>` ends it
    /// outside an internal subset `[ … ]`; inside, a `]` followed by nothing but spaces (or more
    /// `]`) and then `>`. iOS 16 writes a broken subset; this rule finds its end anyway.
    struct DoctypeEnd {
        private enum State { case declaration, subset, closing }
        private var state = State.declaration

        /// Whether `b` is the `>` that ends the DOCTYPE.
        @inline(__always) mutating func ends(at b: UInt8) -> Bool {
            switch state {
            case .declaration:
                if b == UInt8(ascii: "[") { state = .subset } else if b == UInt8(ascii: ">") { return true }
            case .subset:
                if b == UInt8(ascii: "]") { state = .closing }
            case .closing:
                if b == UInt8(ascii: ">") { return true }
                if !(isSpace(b) || b == UInt8(ascii: "]")) { state = .subset }
            }
            return false
        }
    }
}
