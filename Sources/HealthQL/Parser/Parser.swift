/// Recursive descent over the tokens of one statement:
/// `SELECT items FROM source [JOIN source ON expr] [WHERE expr] [GROUP BY keys] [HAVING expr]
///  [ORDER BY expr [ASC|DESC], …] [LIMIT n] [;]`.
/// Names are not resolved here (the planner knows the store); only the shape is checked.
package struct Parser {
    private let tokens: [Token]
    private var index = 0
    /// Nesting depth of expressions: a query of ten thousand '(' must fail, not overflow the stack.
    private var depth = 0
    private static let maxDepth = 100
    /// Operators chained in one statement (`a + b + c …`): a chain is as deep a tree as a
    /// nesting, which the compiler walks by recursion (issue 46: 4,000 terms overflowed the
    /// stack; SQLite itself stops at an expression depth of 1,000).
    private var operators = 0
    private static let maxOperators = 100
    /// Values of one `IN (…)` list (SQLite binds at most 32,766 parameters in a statement).
    private static let maxInValues = 10_000

    /// Counts one binary operator; a statement with more is a usage error, not a crash.
    private mutating func chain() throws(HealthQLError) {
        operators += 1
        guard operators <= Self.maxOperators else {
            throw error("Expression too long (more than \(Self.maxOperators) operators): aggregate, or split the query")
        }
    }

    package static func parse(_ text: String) throws(HealthQLError) -> Query {
        var parser = Parser(tokens: try Lexer.tokens(text))
        return try parser.query()
    }

    init(tokens: [Token]) { self.tokens = tokens }

    var current: Token { tokens[index] }
    mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private func isKeyword(_ k: Keyword) -> Bool { current.kind == .keyword(k) }
    private func isSymbol(_ s: Symbol) -> Bool { current.kind == .symbol(s) }

    private mutating func accept(_ k: Keyword) -> Bool {
        if isKeyword(k) { advance(); return true }
        return false
    }
    private mutating func accept(_ s: Symbol) -> Bool {
        if isSymbol(s) { advance(); return true }
        return false
    }

    /// An error at the current token; at the end of the input it marks the statement incomplete.
    func error(_ message: String) -> HealthQLError {
        HealthQLError(message, at: current.position, incomplete: current.kind == .end)
    }

    /// "Expected FROM but found 'FORM'. Did you mean 'FROM'?"
    private func expected(_ what: String, suggesting keywords: [Keyword] = []) -> HealthQLError {
        var hint = ""
        if case .identifier(let word) = current.kind, !keywords.isEmpty {
            hint = Suggestion.hint(for: word, in: keywords.map(\.rawValue))
        }
        return error("Expected \(what) but found \(current.quoted).\(hint)")
    }

    private mutating func expect(_ k: Keyword, after context: String? = nil) throws(HealthQLError) {
        guard accept(k) else { throw expected(context.map { "\(k.rawValue) after \($0)" } ?? k.rawValue, suggesting: [k]) }
    }
    private mutating func expect(_ s: Symbol) throws(HealthQLError) {
        guard accept(s) else { throw expected("'\(s.rawValue)'") }
    }

    // MARK: statement

    mutating func query() throws(HealthQLError) -> Query {
        try expect(.select)
        var items = [try selectItem()]
        while accept(.comma) { items.append(try selectItem()) }
        try expect(.from, after: "the selected items")
        var query = Query(items: items, source: try sourceRef())
        if accept(.join) {
            let source = try sourceRef()
            try expect(.on, after: "JOIN \(source.name)")
            query.join = Join(source: source, on: try expression())
        }
        if accept(.where) { query.filter = try expression() }
        if accept(.group) {
            try expect(.by, after: "GROUP")
            query.groupBy = [try groupKey()]
            while accept(.comma) { query.groupBy.append(try groupKey()) }
        }
        if accept(.having) { query.having = try expression() }
        if accept(.order) {
            try expect(.by, after: "ORDER")
            query.orderBy = [try orderItem()]
            while accept(.comma) { query.orderBy.append(try orderItem()) }
        }
        if accept(.limit) { query.limit = try limitCount() }
        _ = accept(.semicolon)
        guard current.kind == .end else {
            let clauses: [Keyword] = [.join, .where, .group, .having, .order, .limit]
            var hint = ""
            if case .identifier(let word) = current.kind { hint = Suggestion.hint(for: word, in: clauses.map(\.rawValue)) }
            throw error("Unexpected \(current.quoted) after the end of the query.\(hint)")
        }
        return query
    }

    private mutating func selectItem() throws(HealthQLError) -> SelectItem {
        if isSymbol(.star) {
            let at = Anchor(current.position)
            advance()
            return .all(at)
        }
        let e = try expression()
        if accept(.as) {
            guard case .identifier(let alias) = current.kind else { throw expected("a column name after AS") }
            advance()
            return .expr(e, alias: alias)
        }
        return .expr(e, alias: nil)
    }

    private mutating func sourceRef() throws(HealthQLError) -> SourceRef {
        guard case .identifier(let name) = current.kind else {
            throw expected("a source (a type such as steps, or sleep, workouts, activity, daily, weekly, monthly, yearly, ecg)")
        }
        let at = Anchor(current.position)
        advance()
        return SourceRef(name, at: at)
    }

    private mutating func groupKey() throws(HealthQLError) -> GroupKey {
        guard case .identifier(let first) = current.kind else {
            throw expected("hour, day, week, month, year, source or a field after GROUP BY")
        }
        let at = Anchor(current.position)
        advance()
        if accept(.dot) {
            guard case .identifier(let name) = current.kind else { throw expected("a field name after '\(first).'") }
            advance()
            return GroupKey(name, qualifier: first, at: at)
        }
        return GroupKey(first, at: at)
    }

    private mutating func orderItem() throws(HealthQLError) -> OrderItem {
        let e = try expression()
        if accept(.desc) { return OrderItem(e, descending: true) }
        _ = accept(.asc)
        return OrderItem(e)
    }

    private mutating func limitCount() throws(HealthQLError) -> Int {
        guard case .number(let n) = current.kind, n == n.rounded(), n >= 0, n < 1e12 else {
            throw expected("a whole number after LIMIT")
        }
        advance()
        return Int(n)
    }

    // MARK: expressions, lowest precedence first

    mutating func expression() throws(HealthQLError) -> Expr {
        try nested { (p: inout Parser) throws(HealthQLError) in try p.or() }
    }

    private mutating func nested(_ body: (inout Parser) throws(HealthQLError) -> Expr) throws(HealthQLError) -> Expr {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw error("Expression nested too deeply (more than \(Self.maxDepth) levels)") }
        return try body(&self)
    }

    private mutating func or() throws(HealthQLError) -> Expr {
        var left = try and()
        while isKeyword(.or) {
            let at = Anchor(current.position)
            advance()
            try chain()
            left = .binary(.or, left, try and(), at: at)
        }
        return left
    }

    private mutating func and() throws(HealthQLError) -> Expr {
        var left = try not()
        while isKeyword(.and) {
            let at = Anchor(current.position)
            advance()
            try chain()
            left = .binary(.and, left, try not(), at: at)
        }
        return left
    }

    private mutating func not() throws(HealthQLError) -> Expr {
        if isKeyword(.not) {
            let at = Anchor(current.position)
            advance()
            return .unary(.not, try nested { (p: inout Parser) throws(HealthQLError) in try p.not() }, at: at)
        }
        return try comparison()
    }

    private static let comparisons: [Symbol: BinaryOperator] = [
        .equal: .equal, .notEqual: .notEqual, .lessGreater: .notEqual, .less: .less, .lessEqual: .lessEqual,
        .greater: .greater, .greaterEqual: .greaterEqual,
    ]

    private mutating func comparison() throws(HealthQLError) -> Expr {
        let before = operators
        let left = try additive()
        // `BETWEEN` and `IN period` write `left` twice, with a few operators of their own: the
        // statement as printed (and parsed again) must stay within the limit too (found by the
        // healthql fuzz target: a 60-operator `left IN THIS WEEK` printed as 128 operators).
        let expansion = operators - before + 8
        let at = Anchor(current.position)
        if case .symbol(let s) = current.kind, let op = Self.comparisons[s] {
            advance()
            return .binary(op, left, try additive(), at: at)
        }
        if accept(.is) {
            let negated = accept(.not)
            try expect(.null, after: negated ? "IS NOT" : "IS")
            return .isNull(left, negated: negated, at: at)
        }
        var negated = false
        if isKeyword(.not), tokens[min(index + 1, tokens.count - 1)].kind == .keyword(.in) {
            advance()
            negated = true
        }
        if isKeyword(.not), [.keyword(.between), .keyword(.like)].contains(tokens[min(index + 1, tokens.count - 1)].kind) {
            advance()
            negated = true
        }
        if accept(.between) {
            // `x BETWEEN a AND b` is `x >= a AND x <= b` (both ends included, as in SQL).
            for _ in 0..<expansion { try chain() }
            let low = try additive()
            try expect(.and, after: "BETWEEN \(low.text)")
            let high = try additive()
            let range = Expr.binary(.and, .binary(.greaterEqual, left, low, at: at), .binary(.lessEqual, left, high, at: at), at: at)
            return negated ? .unary(.not, range, at: at) : range
        }
        if accept(.like) {
            let match = Expr.binary(.like, left, try additive(), at: at)
            return negated ? .unary(.not, match, at: at) : match
        }
        if accept(.in) {
            if let period = try relativePeriod() {
                for _ in 0..<expansion { try chain() }
                let range = Expr.binary(.and, .binary(.greaterEqual, left, period.from, at: at),
                                        .binary(.lessEqual, left, period.through, at: at), at: at)
                return negated ? .unary(.not, range, at: at) : range
            }
            guard accept(.leftParen) else { throw expected("'(' after IN (or a period: LAST 4 WEEKS, THIS MONTH)") }
            var list = [try additive()]
            while accept(.comma) {
                // An IN list compiles flat, but each value is a bound parameter: keep it to SQLite's limits.
                guard list.count < Self.maxInValues else {
                    throw error("IN list too long (more than \(Self.maxInValues) values): use a range (BETWEEN) or a JOIN")
                }
                list.append(try additive())
            }
            try expect(.rightParen)
            return .inList(left, list, negated: negated, at: at)
        }
        return left
    }

    private mutating func additive() throws(HealthQLError) -> Expr {
        var left = try multiplicative()
        while true {
            let at = Anchor(current.position)
            if accept(.plus) { try chain(); left = .binary(.plus, left, try multiplicative(), at: at) }
            else if accept(.minus) { try chain(); left = .binary(.minus, left, try multiplicative(), at: at) }
            else { return left }
        }
    }

    private mutating func multiplicative() throws(HealthQLError) -> Expr {
        var left = try unary()
        while true {
            let at = Anchor(current.position)
            if accept(.star) { try chain(); left = .binary(.times, left, try unary(), at: at) }
            else if accept(.slash) { try chain(); left = .binary(.divide, left, try unary(), at: at) }
            else { return left }
        }
    }

    private mutating func unary() throws(HealthQLError) -> Expr {
        let at = Anchor(current.position)
        if accept(.minus) { return .unary(.negate, try nested { (p: inout Parser) throws(HealthQLError) in try p.unary() }, at: at) }
        return try primary()
    }

    private mutating func primary() throws(HealthQLError) -> Expr {
        let token = current
        let at = Anchor(token.position)
        switch token.kind {
        case .number(let v): advance(); return .number(v, at: at)
        case .string(let s): advance(); return .string(s, at: at)
        case .duration(let v, let unit): advance(); return .duration(Duration(v, unit), at: at)
        case .keyword(.null): advance(); return .null(at: at)
        case .symbol(.leftParen):
            advance()
            let e = try expression()
            try expect(.rightParen)
            return e
        case .identifier(let name):
            advance()
            if isSymbol(.leftParen) { return try call(name, at: at) }
            if accept(.dot) {
                guard case .identifier(let field) = current.kind else { throw expected("a field name after '\(name).'") }
                advance()
                return .field(qualifier: name, name: field, at: at)
            }
            return .field(qualifier: nil, name: name, at: at)
        default:
            throw expected("an expression")
        }
    }

    private mutating func call(_ name: String, at: Anchor) throws(HealthQLError) -> Expr {
        let lower = name.lowercased()
        advance()   // (
        if let function = TimeFunction(rawValue: lower) {
            guard accept(.rightParen) else { throw error("\(lower)() takes no arguments") }
            return .time(function, at: at)
        }
        guard let aggregate = AggregateFunction(rawValue: lower) else {
            let known = AggregateFunction.allCases.map(\.rawValue) + TimeFunction.allCases.map(\.rawValue)
            throw HealthQLError("Unknown function '\(name)'." + Suggestion.hint(for: lower, in: known), at: at.position)
        }
        if isSymbol(.star) {
            guard aggregate == .count else { throw error("Only count accepts '*'; \(lower) needs a field, e.g. \(lower)(value)") }
            advance()
            try expect(.rightParen)
            return .aggregate(.count, nil, at: at)
        }
        if isSymbol(.rightParen) { throw error("\(lower) needs one argument, e.g. \(lower)(value)") }
        let argument = try expression()
        if isSymbol(.comma) { throw error("\(lower) takes one argument") }
        try expect(.rightParen)
        return .aggregate(aggregate, argument, at: at)
    }
}
