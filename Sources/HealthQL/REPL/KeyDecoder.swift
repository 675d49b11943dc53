/// A key of the line editor, decoded from the bytes a terminal sends.
package enum Key: Equatable, Sendable {
    /// Text: a Unicode scalar of 0x20 or above, never a control (invalid UTF-8 reads as U+FFFD).
    case text(Unicode.Scalar)
    case enter, tab, backspace, delete
    /// Ctrl-D: ends the session on an empty line, else deletes under the cursor.
    case deleteOrEnd
    /// Ctrl-C: drops the line.
    case cancel
    case home, end, left, right, up, down
    case killToEnd, killToStart, killWordBefore, clearScreen
}

/// Bytes to keys, one byte at a time, so a sequence cut by a read's end goes on in the next
/// read: the control keys, UTF-8, and the escape sequences of arrows, Home, End and Delete in
/// every form terminals send (`ESC[H`, `ESC[1~`, `ESC[7~`, `ESC O H`; `ESC[F`, `ESC[4~`,
/// `ESC[8~`, `ESC O F`; `ESC[3~`; with modifiers, `ESC[1;5H`, `ESC[3;2~`).
///
/// It never traps and its state stays two small integers whatever it is fed (issue 56: a pasted
/// `ESC[99999999999999999999~` overflowed `parameter * 10` and killed the session with the
/// terminal left raw): a parameter saturates, and a sequence longer than any key's is given up.
package struct KeyDecoder: Sendable {
    /// Parameter and intermediate bytes a sequence may have: the longest a terminal sends for a
    /// key (`ESC[1;5H`, `ESC[200~`) is a few; past this it names no key and what follows is
    /// read as keys again.
    package static let longestSequence = 32
    /// A parameter stops growing here: no key has a number this large.
    package static let largestParameter = 9_999

    private enum State: Sendable {
        case ground
        case escape                              // after ESC
        case ss3                                 // after ESC O
        case csi(key: Int, inFirst: Bool, length: Int)   // after ESC [: the first parameter names the key
        case utf8(scalar: UInt32, missing: Int, least: UInt32)   // continuation bytes still to come; the least value of this length
    }

    private var state = State.ground

    package init() {}

    /// No sequence is under way: the next byte starts a key.
    package var isBetweenKeys: Bool {
        if case .ground = state { true } else { false }
    }

    /// The keys `byte` completes (none, one, or two when it cuts short a broken UTF-8 sequence
    /// and is a key itself).
    package mutating func decode(_ byte: UInt8, _ emit: (Key) -> Void) {
        switch state {
        case .ground:
            ground(byte, emit)
        case .escape:
            switch byte {
            case UInt8(ascii: "["): state = .csi(key: 0, inFirst: true, length: 0)
            case UInt8(ascii: "O"): state = .ss3
            case 0x1B: break                                   // ESC ESC: the second one starts the sequence
            case 0x20..<0x7F: state = .ground                  // Alt-<key>: nothing this editor uses
            default: state = .ground; ground(byte, emit)       // Esc then a control key or a character: that one
            }
        case .ss3:
            state = .ground
            if !(0x20..<0x7F).contains(byte) { ground(byte, emit) } else if let key = Self.finalKey(byte) { emit(key) }
        case .csi(var key, var inFirst, let length):
            switch byte {
            case 0x20...0x3F where length >= Self.longestSequence:
                state = .ground                                  // no key is this long: give it up
                ground(byte, emit)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inFirst { key = min(key * 10 + Int(byte - UInt8(ascii: "0")), Self.largestParameter) }
                state = .csi(key: key, inFirst: inFirst, length: length + 1)
            case 0x20...0x3F:                                    // ';' ends the key's number (a modifier follows); others are markers
                if byte == UInt8(ascii: ";") { inFirst = false }
                state = .csi(key: key, inFirst: inFirst, length: length + 1)
            case 0x40...0x7E:                                    // the final byte
                state = .ground
                if byte == UInt8(ascii: "~") {
                    if let named = Self.tildeKey(key) { emit(named) }
                } else if let named = Self.finalKey(byte) {
                    emit(named)
                }
            default:                                             // a control, DEL or non-ASCII byte cuts it short
                state = .ground
                ground(byte, emit)
            }
        case .utf8(let scalar, let missing, let least):
            guard byte & 0xC0 == 0x80 else {
                state = .ground
                emit(.text("\u{FFFD}"))
                ground(byte, emit)
                return
            }
            let value = scalar << 6 | UInt32(byte & 0x3F)
            if missing > 1 {
                state = .utf8(scalar: value, missing: missing - 1, least: least)
            } else {
                state = .ground
                emit(.text(value < least ? "\u{FFFD}" : Self.printable(value)))
            }
        }
    }

    private mutating func ground(_ byte: UInt8, _ emit: (Key) -> Void) {
        switch byte {
        case 0x1B: state = .escape
        case 0x0D, 0x0A: emit(.enter)
        case 0x09: emit(.tab)
        case 0x7F, 0x08: emit(.backspace)
        case 0x04: emit(.deleteOrEnd)
        case 0x03: emit(.cancel)
        case 0x01: emit(.home)
        case 0x05: emit(.end)
        case 0x02: emit(.left)
        case 0x06: emit(.right)
        case 0x0B: emit(.killToEnd)
        case 0x15: emit(.killToStart)
        case 0x17: emit(.killWordBefore)
        case 0x0C: emit(.clearScreen)
        case ..<0x20: break                                   // other controls: no key
        case ..<0x80: emit(.text(Unicode.Scalar(byte)))
        case 0xC2...0xDF: state = .utf8(scalar: UInt32(byte & 0x1F), missing: 1, least: 0x80)
        case 0xE0...0xEF: state = .utf8(scalar: UInt32(byte & 0x0F), missing: 2, least: 0x800)
        case 0xF0...0xF4: state = .utf8(scalar: UInt32(byte & 0x07), missing: 3, least: 0x1_0000)
        default: emit(.text("\u{FFFD}"))                       // a stray continuation byte, or no UTF-8 lead
        }
    }

    /// A decoded value as text: U+FFFD for a surrogate, a value past U+10FFFF or a C1 control
    /// (which a terminal would act on).
    private static func printable(_ value: UInt32) -> Unicode.Scalar {
        guard value >= 0xA0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }

    /// `ESC [ N ~`: 1 and 7 Home, 4 and 8 End, 3 Delete.
    private static func tildeKey(_ number: Int) -> Key? {
        switch number {
        case 1, 7: .home
        case 4, 8: .end
        case 3: .delete
        default: nil
        }
    }

    /// The final byte of `ESC [ … X` or `ESC O X`.
    private static func finalKey(_ byte: UInt8) -> Key? {
        switch byte {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }
}
