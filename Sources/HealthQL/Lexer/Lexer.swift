/// Splits a query into tokens. Works on an array of characters so positions are columns a
/// person can count, and never traps: anything it cannot read becomes a `HealthQLError`.
package struct Lexer {
    private let chars: [Character]
    private var index = 0
    private var line = 1
    private var column = 1

    package init(_ text: String) { chars = Array(text) }

    package static func tokens(_ text: String) throws(HealthQLError) -> [Token] {
        var lexer = Lexer(text)
        var out: [Token] = []
        while true {
            let token = try lexer.next()
            out.append(token)
            if token.kind == .end { return out }
        }
    }

    private var position: SourcePosition { SourcePosition(offset: index, line: line, column: column) }
    private var current: Character? { index < chars.count ? chars[index] : nil }
    private func peek(_ ahead: Int = 1) -> Character? { index + ahead < chars.count ? chars[index + ahead] : nil }

    private mutating func advance() {
        if chars[index] == "\n" { line += 1; column = 1 } else { column += 1 }
        index += 1
    }

    private mutating func skipSpaceAndComments() {
        while let c = current {
            if c.isWhitespace {
                advance()
            } else if c == "-", peek() == "-" {   // -- comment to the end of the line
                while let c = current, c != "\n" { advance() }
            } else {
                return
            }
        }
    }

    package mutating func next() throws(HealthQLError) -> Token {
        skipSpaceAndComments()
        let start = position
        guard let c = current else { return Token(kind: .end, position: start, text: "") }
        if c.isLetter || c == "_" { return word(from: start) }
        if c.isASCII, c.isNumber { return try number(from: start) }
        if c == "'" || c == "\"" { return try string(from: start, quote: c) }
        return try symbol(from: start)
    }

    private mutating func word(from start: SourcePosition) -> Token {
        var text = ""
        while let c = current, c.isLetter || c.isNumber || c == "_" { text.append(c); advance() }
        if let keyword = Keyword(rawValue: text.uppercased()) {
            return Token(kind: .keyword(keyword), position: start, text: text)
        }
        return Token(kind: .identifier(text), position: start, text: text)
    }

    private mutating func number(from start: SourcePosition) throws(HealthQLError) -> Token {
        var text = ""
        while let c = current, c.isASCII, c.isNumber { text.append(c); advance() }
        if current == ".", let next = peek(), next.isASCII, next.isNumber {
            text.append("."); advance()
            while let c = current, c.isASCII, c.isNumber { text.append(c); advance() }
        }
        guard let value = Double(text), value.isFinite else {
            throw HealthQLError("Number '\(text)' is too large", at: start)
        }
        // A unit glued to the number makes a duration: 12h, 7d, 3mo.
        var unitText = ""
        let unitStart = position
        while let c = current, c.isLetter || c == "_" { unitText.append(c); advance() }
        if unitText.isEmpty { return Token(kind: .number(value), position: start, text: text) }
        guard value <= DurationLimit.maxAmount else {
            throw HealthQLError("Duration '\(text)\(unitText)' is too long (at most \(Int(DurationLimit.maxAmount)))", at: start)
        }
        guard let unit = DurationUnit(rawValue: unitText.lowercased()) else {
            let units = DurationUnit.allCases.map(\.rawValue)
            throw HealthQLError("Unknown duration unit '\(unitText)' (use \(units.joined(separator: ", ")))."
                                + Suggestion.hint(for: unitText, in: units), at: unitStart)
        }
        return Token(kind: .duration(value, unit), position: start, text: text + unitText)
    }

    private mutating func string(from start: SourcePosition, quote: Character) throws(HealthQLError) -> Token {
        advance()
        var value = ""
        while true {
            guard let c = current else {
                throw HealthQLError("Unterminated string (missing \(quote))", at: start, incomplete: true)
            }
            advance()
            if c == quote {
                if current == quote { value.append(quote); advance(); continue }   // '' inside '…'
                break
            }
            value.append(c)
        }
        return Token(kind: .string(value), position: start, text: String(quote) + value + String(quote))
    }

    private mutating func symbol(from start: SourcePosition) throws(HealthQLError) -> Token {
        let c = current!
        if let n = peek() {
            let two = String(c) + String(n)
            if let s = Symbol(rawValue: two) { advance(); advance(); return Token(kind: .symbol(s), position: start, text: two) }
        }
        if let s = Symbol(rawValue: String(c)) { advance(); return Token(kind: .symbol(s), position: start, text: String(c)) }
        throw HealthQLError("Unexpected character '\(c)'", at: start)
    }
}

/// Durations stay small enough that every date and instant computed from them is exact
/// (a million years of days still fits comfortably in 64-bit microseconds).
enum DurationLimit {
    static let maxAmount = 100_000.0
}
