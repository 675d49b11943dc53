/// One pass over a JSON text that checks it against RFC 8259 and writes it without the
/// whitespace between tokens (issue 56). Nothing is built per value: the memory is the input,
/// the output (no larger) and 12 bytes per key of the objects still open, so a 32 MiB file of
/// `{}`s or of `0`s costs what its bytes cost (Foundation's parser took 2.1 GB for the first).
///
/// Stricter than a reader must be, because what passes is handed on (a FHIR Bundle, a clinic's
/// reader): UTF-8 only, well formed; no control character inside a string (a NUL would cut an
/// NDJSON line); no name twice in one object, compared after unescaping (a first-wins reader
/// and a last-wins reader would see two different resources).
struct StrictJSON {
    struct Failure: Error, Equatable { let reason: String }

    /// What `check` found: the compact text and the top-level object's `resourceType` string, if
    /// the text is an object with one.
    struct Checked {
        var compact: [UInt8]
        var isObject: Bool
        var resourceType: String?
    }

    private let input: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var at = 0
    private var output: [UInt8] = []
    /// The names of each open object, as ranges of `input` or, when escaped, of `unescaped`.
    private var names: [[Name]] = []
    private var unescaped: [UInt8] = []
    private var resourceType: String?

    private struct Name { var start: Int32; var count: Int32; var isUnescaped: Bool }

    private init(_ input: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.input = input
        self.maximumDepth = maximumDepth
        output.reserveCapacity(input.count)
    }

    /// Checks `bytes` (a UTF-8 byte order mark allowed and dropped) and compacts it.
    static func check(_ bytes: [UInt8], maximumDepth: Int) throws(Failure) -> Checked {
        if let encoding = wideEncoding(bytes) {
            throw Failure(reason: "not JSON: \(encoding) text, where JSON exchanged between systems is UTF-8")
        }
        let result: Result<Checked, Failure> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = StrictJSON(buffer, maximumDepth: maximumDepth)
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.at = 3 }
            do throws(Failure) {
                scanner.skipWhitespace()
                let isObject = scanner.peek == UInt8(ascii: "{")
                try scanner.value(depth: 0)
                scanner.skipWhitespace()
                guard scanner.at == buffer.count else { throw scanner.fail("more after the value") }
                return .success(Checked(compact: scanner.output, isObject: isObject, resourceType: scanner.resourceType))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// UTF-16 or UTF-32, told by a byte order mark or by the zeros around the first ASCII
    /// characters (RFC 4627's rule).
    private static func wideEncoding(_ b: [UInt8]) -> String? {
        if b.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || b.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32" }
        if b.starts(with: [0xFE, 0xFF]) || b.starts(with: [0xFF, 0xFE]) { return "UTF-16" }
        guard b.count >= 4 else { return b.count >= 2 && (b[0] == 0 || b[1] == 0) ? "UTF-16" : nil }
        if b[0] == 0 && b[1] == 0 && b[2] == 0 || b[1] == 0 && b[2] == 0 && b[3] == 0 { return "UTF-32" }
        if b[0] == 0 || b[1] == 0 { return "UTF-16" }
        return nil
    }

    private var peek: UInt8? { at < input.count ? input[at] : nil }

    private func fail(_ what: String) -> Failure { Failure(reason: "not JSON: \(what) at byte \(at)") }

    private mutating func skipWhitespace() {
        while at < input.count {
            switch input[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(Failure) {
        guard let byte = peek else { throw fail("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): try object(depth: depth + 1)
        case UInt8(ascii: "["): try array(depth: depth + 1)
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try number()
        }
    }

    private mutating func enter(_ depth: Int) throws(Failure) {
        guard depth <= maximumDepth else { throw Failure(reason: "nested deeper than \(maximumDepth) levels") }
        output.append(input[at])
        at += 1
        skipWhitespace()
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        guard peek == byte else { throw fail("\(what) expected") }
        output.append(byte)
        at += 1
        skipWhitespace()
    }

    private mutating func object(depth: Int) throws(Failure) {
        try enter(depth)
        names.append([])
        defer { names.removeLast() }
        if peek == UInt8(ascii: "}") { try expect(UInt8(ascii: "}"), "}"); return }
        while true {
            guard peek == UInt8(ascii: "\"") else { throw fail("a name expected") }
            let name = try string()
            names[names.count - 1].append(name)
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            if depth == 1, peek == UInt8(ascii: "\""), withTexts({ $0(name).elementsEqual("resourceType".utf8) }) {
                let text = try string()
                resourceType = withTexts { String(decoding: $0(text), as: UTF8.self) }
            } else {
                try value(depth: depth)
            }
            skipWhitespace()
            if peek == UInt8(ascii: ",") { try expect(UInt8(ascii: ","), ","); continue }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            try checkNamesOnce()
            return
        }
    }

    private mutating func array(depth: Int) throws(Failure) {
        try enter(depth)
        if peek == UInt8(ascii: "]") { try expect(UInt8(ascii: "]"), "]"); return }
        while true {
            try value(depth: depth)
            skipWhitespace()
            if peek == UInt8(ascii: ",") { try expect(UInt8(ascii: ","), ","); continue }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return
        }
    }

    /// Calls `body` with `text`, which gives the bytes of a name or string (its inside,
    /// unescaped): from `input`, or from `unescaped` for one that had an escape.
    private func withTexts<R>(_ body: ((Name) -> Slice<UnsafeBufferPointer<UInt8>>) -> R) -> R {
        unescaped.withUnsafeBufferPointer { side in
            body { name in
                let range = Int(name.start)..<Int(name.start + name.count)
                return name.isUnescaped ? side[range] : input[range]
            }
        }
    }

    /// The object just closed names each member once.
    private func checkNamesOnce() throws(Failure) {
        let list = names[names.count - 1]
        guard list.count > 1 else { return }
        let twice: String? = withTexts { text in
            // Sorted by their bytes, a name given twice sits beside itself.
            let sorted = list.sorted { text($0).lexicographicallyPrecedes(text($1)) }
            for (a, b) in zip(sorted, sorted.dropFirst()) where text(a).elementsEqual(text(b)) {
                return String(decoding: text(a).prefix(64), as: UTF8.self)
            }
            return nil
        }
        if let twice { throw Failure(reason: "not JSON for every reader: the name \"\(twice)\" twice in one object") }
    }

    /// A string, copied as it is; returns its text (unescaped into `unescaped` if it has an escape).
    private mutating func string() throws(Failure) -> Name {
        let open = at
        at += 1
        var hasEscape = false
        while true {
            guard at < input.count else { throw fail("a string without its end") }
            let byte = input[at]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw fail("a control character (\(byte)) inside a string") }
            if byte == UInt8(ascii: "\\") {
                hasEscape = true
                at += 1
                guard let e = peek else { throw fail("a string without its end") }
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"): at += 1
                case UInt8(ascii: "u"):
                    guard at + 4 < input.count, (1...4).allSatisfy({ Self.hexValue(input[at + $0]) != nil }) else {
                        throw fail("a \\u escape without four hex digits")
                    }
                    at += 5
                default: throw fail("an unknown escape")
                }
            } else if byte < 0x80 {
                at += 1
            } else {
                try utf8Sequence()
            }
        }
        at += 1
        output.append(contentsOf: UnsafeBufferPointer(rebasing: input[open..<at]))
        let inner = (open + 1)..<(at - 1)
        guard hasEscape else { return Name(start: Int32(inner.lowerBound), count: Int32(inner.count), isUnescaped: false) }
        let start = unescaped.count
        unescape(inner)
        return Name(start: Int32(start), count: Int32(unescaped.count - start), isUnescaped: true)
    }

    /// One well-formed UTF-8 sequence at `at` (no overlong form, no surrogate, at most U+10FFFF).
    private mutating func utf8Sequence() throws(Failure) {
        let lead = input[at]
        let (count, second): (Int, ClosedRange<UInt8>)
        switch lead {
        case 0xC2...0xDF: (count, second) = (1, 0x80...0xBF)
        case 0xE0: (count, second) = (2, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (count, second) = (2, 0x80...0xBF)
        case 0xED: (count, second) = (2, 0x80...0x9F)
        case 0xF0: (count, second) = (3, 0x90...0xBF)
        case 0xF1...0xF3: (count, second) = (3, 0x80...0xBF)
        case 0xF4: (count, second) = (3, 0x80...0x8F)
        default: throw fail("not UTF-8")
        }
        guard at + count < input.count, second.contains(input[at + 1]),
              (1..<count).allSatisfy({ (0x80...0xBF).contains(input[at + 1 + $0]) }) else { throw fail("not UTF-8") }
        at += count + 1
    }

    private static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The text of a checked string's inside, escapes decoded (a lone surrogate as U+FFFD).
    private mutating func unescape(_ range: Range<Int>) {
        var i = range.lowerBound
        func hex4(_ at: Int) -> UInt32 { (1...4).reduce(0) { $0 << 4 | Self.hexValue(input[at + $1])! } }
        while i < range.upperBound {
            let byte = input[i]
            guard byte == UInt8(ascii: "\\") else { unescaped.append(byte); i += 1; continue }
            let e = input[i + 1]
            if e != UInt8(ascii: "u") {
                switch e {
                case UInt8(ascii: "b"): unescaped.append(0x08)
                case UInt8(ascii: "f"): unescaped.append(0x0C)
                case UInt8(ascii: "n"): unescaped.append(0x0A)
                case UInt8(ascii: "r"): unescaped.append(0x0D)
                case UInt8(ascii: "t"): unescaped.append(0x09)
                default: unescaped.append(e)
                }
                i += 2
                continue
            }
            var scalar = hex4(i + 1)
            i += 6
            if (0xD800...0xDBFF).contains(scalar), i + 5 < range.upperBound, input[i] == UInt8(ascii: "\\"),
               input[i + 1] == UInt8(ascii: "u"), case let low = hex4(i + 1), (0xDC00...0xDFFF).contains(low) {
                scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                i += 6
            }
            unescaped.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard at + text.count <= input.count, input[at..<(at + text.count)].elementsEqual(text) else {
            throw fail("an unknown word")
        }
        output.append(contentsOf: text)
        at += text.count
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, copied as it is (`5.40` stays).
    private mutating func number() throws(Failure) {
        let start = at
        func digits() -> Int {
            let from = at
            while at < input.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(input[at]) { at += 1 }
            return at - from
        }
        if peek == UInt8(ascii: "-") { at += 1 }
        if peek == UInt8(ascii: "0") { at += 1 } else if digits() == 0 { throw fail("a value expected") }
        if peek == UInt8(ascii: ".") {
            at += 1
            guard digits() > 0 else { throw fail("a digit expected after '.'") }
        }
        var exponent = false
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            at += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { throw fail("a digit expected in the exponent") }
            exponent = true
        }
        let text = UnsafeBufferPointer(rebasing: input[start..<at])
        // The grammar has no bound; readers do (Foundation refuses 1e400, others read infinity).
        if exponent || text.count > 300, Double(String(decoding: text, as: UTF8.self))?.isFinite != true {
            throw fail("a number beyond a double's range")
        }
        output.append(contentsOf: text)
    }
}
