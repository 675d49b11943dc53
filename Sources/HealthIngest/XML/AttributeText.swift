/// Turns attribute bytes into Strings: decodes character references and interns
/// repetitive values. One per parser; its scratch buffer is reused for every value.
struct AttributeText {
    private var interner = StringInterner()
    private var scratch: [UInt8] = []
    /// The last value of each attribute a record mostly shares with the one before it.
    private var last = [LastValue](repeating: LastValue(), count: Repeated.allCases.count)

    /// The attributes that repeat from record to record: records come type by type, and
    /// mostly from one source and device at a time.
    enum Repeated: Int, CaseIterable { case type, unit, sourceName, sourceVersion, device }

    /// `interned(span)` (`device(span)` for a device) of a repeating attribute: the same
    /// bytes as this attribute's last value give the last value's string, which costs a
    /// compare where the interner would hash (a device description is some 130 bytes),
    /// probe and compare.
    mutating func repeated(_ field: Repeated, _ span: ByteSpan) -> String {
        let k = field.rawValue
        if let same = last.withUnsafeBufferPointer({ $0[k].string(ifSameAs: span) }) { return same }
        let string = field == .device ? device(span) : interned(span)
        last.withUnsafeMutableBufferPointer { $0[k].remember(span, string) }
        return string
    }

    /// A value that repeats (type, source, unit, metadata key): interned.
    mutating func interned(_ span: ByteSpan) -> String {
        if !span.contains(UInt8(ascii: "&")) { return interner.intern(span) }
        return decoded(span) { text, bytes in text.interner.intern(bytes) }
    }

    /// A value that is mostly unique: a fresh String (small ones live inline, no allocation).
    mutating func plain(_ span: ByteSpan) -> String {
        if !span.contains(UInt8(ascii: "&")) { return span.string }
        return decoded(span) { _, bytes in bytes.string }
    }

    /// A device description with its per-object address removed, then interned:
    /// `<<HKDevice: 0x283…>, name:Apple Watch, model:Watch, …>` → `name:Apple Watch, model:Watch, …`.
    mutating func device(_ span: ByteSpan) -> String {
        if !span.contains(UInt8(ascii: "&")) { return interner.intern(Self.withoutAddress(span)) }
        return decoded(span) { text, bytes in text.interner.intern(Self.withoutAddress(bytes)) }
    }

    private static func withoutAddress(_ text: ByteSpan) -> ByteSpan {
        var s = text
        if s.hasPrefix("<<HKDevice:") {
            var i = 0
            while i < s.count && s[i] != UInt8(ascii: ">") { i += 1 }
            s = s.dropFirst(i + 1)
            while !s.isEmpty && (s[0] == UInt8(ascii: ",") || s[0] == UInt8(ascii: " ")) { s = s.dropFirst(1) }
            var n = s.count
            while n > 0 && s[n - 1] == UInt8(ascii: ">") { n -= 1 }
            s = ByteSpan(start: s.start, count: n)
        }
        return s
    }

    /// Decodes `&#38;`, `&#x26;` and the five predefined entities into the scratch buffer and
    /// hands it to `body` (with `self`, so the interner is used in place, never copied).
    /// Unknown references are kept as written: nothing is ever resolved from outside.
    private mutating func decoded<R>(_ span: ByteSpan, _ body: (inout AttributeText, ByteSpan) -> R) -> R {
        var out = scratch
        scratch = []
        out.removeAll(keepingCapacity: true)
        var i = 0
        while i < span.count {
            // Plain runs are copied whole; only the references are looked at.
            var run = i
            while run < span.count && span[run] != UInt8(ascii: "&") { run += 1 }
            if run > i { out.append(contentsOf: UnsafeBufferPointer(start: span.start + i, count: run - i)) }
            i = run
            guard i < span.count else { break }
            if let length = Self.appendReference(span, at: i, to: &out) {
                i += length
            } else {
                out.append(UInt8(ascii: "&"))
                i += 1
            }
        }
        defer { scratch = out }
        return out.withUnsafeBufferPointer { buf in
            body(&self, ByteSpan(start: buf.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: buf.count))
        }
    }

    /// Appends what the reference at `start` stands for; returns its length in the input,
    /// nil if it is not one this decoder knows.
    private static func appendReference(_ span: ByteSpan, at start: Int, to out: inout [UInt8]) -> Int? {
        var end = start + 1
        while end < span.count && end - start < 12 && span[end] != UInt8(ascii: ";") { end += 1 }
        guard end < span.count, span[end] == UInt8(ascii: ";") else { return nil }
        let name = ByteSpan(start: span.start + start + 1, count: end - start - 1)
        let length = end - start + 1
        switch true {
        case name.equals("amp"): out.append(UInt8(ascii: "&")); return length
        case name.equals("lt"): out.append(UInt8(ascii: "<")); return length
        case name.equals("gt"): out.append(UInt8(ascii: ">")); return length
        case name.equals("quot"): out.append(UInt8(ascii: "\"")); return length
        case name.equals("apos"): out.append(UInt8(ascii: "'")); return length
        default: break
        }
        guard name.count >= 2, name[0] == UInt8(ascii: "#") else { return nil }
        let hex = name[1] == UInt8(ascii: "x") || name[1] == UInt8(ascii: "X")
        var code: UInt32 = 0
        for k in (hex ? 2 : 1)..<name.count {
            let b = name[k]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: return nil
            }
            code = code * (hex ? 16 : 10) + digit
            if code > 0x10FFFF { return nil }
        }
        guard name.count > (hex ? 2 : 1), let scalar = Unicode.Scalar(code) else { return nil }
        out.append(contentsOf: UTF8.encode(scalar)!)
        return length
    }
}

/// An attribute's last value: its bytes and the string made from them.
private struct LastValue {
    private var bytes: [UInt8] = []
    private var string: String?

    /// The longest value remembered; longer ones go to the interner every time.
    static let maximumBytes = 512

    func string(ifSameAs span: ByteSpan) -> String? {
        guard let string, span.equals(bytes) else { return nil }
        return string
    }

    mutating func remember(_ span: ByteSpan, _ made: String) {
        guard span.count <= Self.maximumBytes else { string = nil; return }
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: UnsafeBufferPointer(start: span.start, count: span.count))
        string = made
    }
}
