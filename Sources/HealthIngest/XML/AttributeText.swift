/// Turns attribute bytes into Strings: decodes character references and interns
/// repetitive values. One per parser; its scratch buffer is reused for every value.
struct AttributeText {
    private var interner = StringInterner()
    private var scratch: [UInt8] = []

    /// A value that repeats (type, source, unit, metadata key): interned.
    mutating func interned(_ span: ByteSpan) -> String {
        if !span.contains(UInt8(ascii: "&")) { return interner.intern(span) }
        var interner = self.interner
        defer { self.interner = interner }
        return decoded(span) { interner.intern($0) }
    }

    /// A value that is mostly unique: a fresh String (small ones live inline, no allocation).
    mutating func plain(_ span: ByteSpan) -> String {
        if !span.contains(UInt8(ascii: "&")) { return span.string }
        return decoded(span) { $0.string }
    }

    /// A device description with its per-object address removed, then interned:
    /// `<<HKDevice: 0x283…>, name:Apple Watch, model:Watch, …>` → `name:Apple Watch, model:Watch, …`.
    mutating func device(_ span: ByteSpan) -> String {
        var interner = self.interner
        defer { self.interner = interner }
        return decoded(span) { text in
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
            return interner.intern(s)
        }
    }

    /// Decodes `&#38;`, `&#x26;` and the five predefined entities into the scratch buffer.
    /// Unknown references are kept as written: nothing is ever resolved from outside.
    private mutating func decoded<R>(_ span: ByteSpan, _ body: (ByteSpan) -> R) -> R {
        scratch.removeAll(keepingCapacity: true)
        var i = 0
        while i < span.count {
            let b = span[i]
            if b == UInt8(ascii: "&"), let (bytes, length) = reference(span, at: i) {
                scratch.append(contentsOf: bytes)
                i += length
            } else {
                scratch.append(b)
                i += 1
            }
        }
        return scratch.withUnsafeBufferPointer { buf in
            body(ByteSpan(start: buf.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: buf.count))
        }
    }

    private func reference(_ span: ByteSpan, at start: Int) -> ([UInt8], Int)? {
        var end = start + 1
        while end < span.count && end - start < 12 && span[end] != UInt8(ascii: ";") { end += 1 }
        guard end < span.count, span[end] == UInt8(ascii: ";") else { return nil }
        let name = ByteSpan(start: span.start + start + 1, count: end - start - 1)
        let length = end - start + 1
        switch true {
        case name.equals("amp"): return ([UInt8(ascii: "&")], length)
        case name.equals("lt"): return ([UInt8(ascii: "<")], length)
        case name.equals("gt"): return ([UInt8(ascii: ">")], length)
        case name.equals("quot"): return ([UInt8(ascii: "\"")], length)
        case name.equals("apos"): return ([UInt8(ascii: "'")], length)
        default: break
        }
        guard name.count >= 2, name[0] == UInt8(ascii: "#") else { return nil }
        let hex = name[1] == UInt8(ascii: "x") || name[1] == UInt8(ascii: "X")
        guard let code = UInt32(name.dropFirst(hex ? 2 : 1).string, radix: hex ? 16 : 10),
              let scalar = Unicode.Scalar(code) else { return nil }
        return (Array(String(Character(scalar)).utf8), length)
    }
}
