/// The address part of Apple's device descriptions, found in the raw bytes of a `device`
/// attribute, so that the sanitizer can cut it out before libxml2 parses it.
///
/// `device="&lt;&lt;HKDevice: 0x283a1b00&gt;, name:Apple Watch, …, software:10.3&gt;"` is on
/// nearly every record. Its `&lt;` sends libxml2 down its character-by-character path for the
/// whole value (some 30% of libxml2's time on a typical export), only for the handler to drop
/// the address and the brackets again (`AttributeText.device`). Cut out first, libxml2 takes
/// its fast path and the value it hands over is the one the handler would have kept:
/// `device="name:Apple Watch, …, software:10.3"`.
///
/// Only values in exactly that form are matched, and only when what remains is plain ASCII
/// that reads the same with or without the cut (no leading separator left, no `>` or
/// reference at its end, no `<`). Anything else is left as it is, for the handler to strip.
enum DeviceAddress {
    struct Match {
        /// What is kept of the value (input indexes).
        let rest: Range<Int>
        /// The closing quote: the bytes from `rest.upperBound` to here are dropped.
        let quote: Int
    }

    /// Longer values are left alone (real ones are under 200 bytes).
    private static let maximumLength = 1024

    /// The device value starting at `i` (an `&` in `src[..<count]`), if it has that form and
    /// ends (closing quote) before `count`; nil otherwise. Runs once per record: literals are
    /// compared as 8- and 4-byte words.
    static func match(_ src: UnsafePointer<UInt8>, at i: Int, count: Int) -> Match? {
        // ` device="` before, `&lt;&lt;HKDevice: 0x` from here.
        guard i >= 9, i + 21 <= count, isSpace(src[i - 9]), word(src + i - 8) == Self.attribute,
              word(src + i) == Self.twoOpeningBrackets, word(src + i + 8) == Self.hkDevice,
              halfWord(src + i + 16) == Self.addressStart else { return nil }
        var j = i + 20
        let digits = j
        while j < count && j - digits < 16 && isHexDigit(src[j]) { j += 1 }
        guard j > digits, j + 4 <= count, halfWord(src + j) == Self.closingBracket else { return nil }
        j += 4
        while j < count && (src[j] == UInt8(ascii: ",") || src[j] == UInt8(ascii: " ")) { j += 1 }
        let restStart = j
        guard j < count, isAlphanumeric(src[j]) else { return nil }
        let limit = min(count, i + maximumLength)
        // Eight bytes at a time while none is a quote, a `<`, or outside printable ASCII.
        while j + 8 <= limit && !needsLook(word(src + j)) { j += 8 }
        while j < limit {
            let b = src[j]
            if b == UInt8(ascii: "\"") { break }
            // Printable ASCII only, and no `<` (not well-formed: libxml2 must see it as it was).
            guard b >= 0x20, b < 0x80, b != UInt8(ascii: "<") else { return nil }
            j += 1
        }
        guard j < limit else { return nil }   // too long, or cut by the chunk's end
        var restEnd = j
        while restEnd - restStart >= 4 && halfWord(src + restEnd - 4) == Self.closingBracket { restEnd -= 4 }
        // The handler strips every trailing `>` after the address; a kept value must not end in
        // one, nor in a reference (`&#62;`) that stands for one.
        guard restEnd > restStart, src[restEnd - 1] != UInt8(ascii: ">"), src[restEnd - 1] != UInt8(ascii: ";") else {
            return nil
        }
        return Match(rest: restStart..<restEnd, quote: j)
    }

    // The literals as the little-endian words they load as (constants: a static computed at
    // first use would cost a lazy-initialization check per access).
    private static let attribute: UInt64 = 0x223D_6563_6976_6564            // device="
    private static let twoOpeningBrackets: UInt64 = 0x3B74_6C26_3B74_6C26   // &lt;&lt;
    private static let hkDevice: UInt64 = 0x6563_6976_6544_4B48             // HKDevice
    private static let addressStart: UInt32 = 0x7830_203A                   // ": 0x"
    private static let closingBracket: UInt32 = 0x3B74_6726                 // &gt;

    /// True if a byte of `w` is below 0x20, above 0x7F, a `"` or a `<` (`ByteWord.swift`).
    @inline(__always) private static func needsLook(_ w: UInt64) -> Bool {
        (w & highBitOfEveryByte) | hasByteBelow(w, 0x2020_2020_2020_2020) | hasByte(w, 0x2222_2222_2222_2222)
            | hasByte(w, 0x3C3C_3C3C_3C3C_3C3C) != 0
    }

    @inline(__always) private static func word(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    @inline(__always) private static func halfWord(_ p: UnsafePointer<UInt8>) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
    }

    @inline(__always) private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    @inline(__always) private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b | 0x20 >= 97 && b | 0x20 <= 102)
    }

    @inline(__always) private static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b | 0x20 >= 97 && b | 0x20 <= 122)
    }
}
