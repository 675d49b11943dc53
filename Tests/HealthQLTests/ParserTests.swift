import XCTest
@testable import HealthQL

/// Every construct of the grammar, and every message the lexer and parser give, with its position.
final class ParserTests: XCTestCase {
    /// (query, its canonical text): the IR printed back, and re-parsed to the same IR.
    static let constructs: [(String, String)] = [
        ("select * from steps", "SELECT * FROM steps"),
        ("SELECT value, date FROM HKQuantityTypeIdentifierStepCount", "SELECT value, date FROM HKQuantityTypeIdentifierStepCount"),
        ("SELECT sum(value) FROM step_count GROUP BY day", "SELECT sum(value) FROM step_count GROUP BY day"),
        ("SELECT avg(value), min(value), max(value), count(*), count(value) FROM heart_rate GROUP BY week",
         "SELECT avg(value), min(value), max(value), count(*), count(value) FROM heart_rate GROUP BY week"),
        ("SELECT p50(value), p90(value), p95(value), p99(value), stddev(value), variance(value) FROM hrv GROUP BY month",
         "SELECT p50(value), p90(value), p95(value), p99(value), stddev(value), variance(value) FROM hrv GROUP BY month"),
        ("SELECT sum(value) AS total FROM steps GROUP BY hour, source", "SELECT sum(value) AS total FROM steps GROUP BY hour, source"),
        ("SELECT year, sum(steps) FROM daily GROUP BY year", "SELECT year, sum(steps) FROM daily GROUP BY year"),
        ("SELECT * FROM steps WHERE date > now() - 12h", "SELECT * FROM steps WHERE date > (now() - 12h)"),
        ("SELECT * FROM steps WHERE date >= today() - 7d AND date < today()",
         "SELECT * FROM steps WHERE (date >= (today() - 7d)) AND (date < today())"),
        ("SELECT * FROM daily WHERE date >= start_of_week() OR date >= start_of_month() OR date >= start_of_year()",
         "SELECT * FROM daily WHERE (date >= start_of_week()) OR (date >= start_of_month()) OR (date >= start_of_year())"),
        ("SELECT * FROM daily WHERE date > '2024-01-31' - 2w + 3mo - 1y",
         "SELECT * FROM daily WHERE date > ('2024-01-31' - 2w + 3mo - 1y)"),
        ("SELECT * FROM workouts WHERE duration > 30min", "SELECT * FROM workouts WHERE duration > 30min"),
        ("SELECT * FROM sleep_analysis WHERE NOT value = 'awake'", "SELECT * FROM sleep_analysis WHERE NOT (value = 'awake')"),
        ("SELECT * FROM steps WHERE device IS NULL", "SELECT * FROM steps WHERE device IS NULL"),
        ("SELECT * FROM steps WHERE device IS NOT NULL", "SELECT * FROM steps WHERE device IS NOT NULL"),
        ("SELECT * FROM workouts WHERE type IN ('running', 'cycling')", "SELECT * FROM workouts WHERE type IN ('running', 'cycling')"),
        ("SELECT * FROM workouts WHERE type NOT IN ('swimming')", "SELECT * FROM workouts WHERE type NOT IN ('swimming')"),
        ("SELECT * FROM steps WHERE value <> 1 AND value != 2 AND value <= 3 AND value >= -4",
         "SELECT * FROM steps WHERE (value != 1) AND (value != 2) AND (value <= 3) AND (value >= -4)"),
        ("SELECT value * 2 + 1, value / 3 - 0.5 FROM steps", "SELECT (value * 2) + 1, (value / 3) - 0.5 FROM steps"),
        ("SELECT sleep.date, sleep.asleep, steps.value FROM sleep JOIN steps ON steps.date = sleep.date + 1d",
         "SELECT sleep.date, sleep.asleep, steps.value FROM sleep JOIN steps ON steps.date = (sleep.date + 1d)"),
        ("SELECT day, sum(value) FROM steps GROUP BY day HAVING sum(value) > 10000 ORDER BY sum(value) DESC LIMIT 5",
         "SELECT day, sum(value) FROM steps GROUP BY day HAVING sum(value) > 10000 ORDER BY sum(value) DESC LIMIT 5"),
        ("SELECT * FROM steps ORDER BY date ASC, value DESC LIMIT 0;", "SELECT * FROM steps ORDER BY date, value DESC LIMIT 0"),
        ("SELECT * FROM steps WHERE source = 'it''s'", "SELECT * FROM steps WHERE source = 'it''s'"),
        ("SELECT * FROM steps WHERE source = \"Apple Watch\"", "SELECT * FROM steps WHERE source = 'Apple Watch'"),
        ("SELECT *\nFROM steps -- a comment\nWHERE value > 1", "SELECT * FROM steps WHERE value > 1"),
        ("SELECT count(*) FROM steps GROUP BY steps.source", "SELECT count(*) FROM steps GROUP BY steps.source"),
        ("SELECT (value) FROM steps WHERE (value > 1 OR value < 0) AND date IS NOT NULL",
         "SELECT value FROM steps WHERE ((value > 1) OR (value < 0)) AND (date IS NOT NULL)"),
        ("SELECT NULL, 1.25, 'x' FROM steps", "SELECT NULL, 1.25, 'x' FROM steps"),
    ]

    func testEveryConstructParsesAndRoundTrips() throws {
        for (text, canonical) in Self.constructs {
            let query = try Parser.parse(text)
            XCTAssertEqual(query.description, canonical, text)
            XCTAssertEqual(try Parser.parse(query.description), query, "round trip of \(text)")
        }
    }

    /// Found by fuzzing: numbers Swift prints with an exponent (8.9e+114, 1e-05) were printed
    /// so, and the printed query did not parse (the lexer read `e` as a duration unit).
    func testNumbersOfAnySizePrintWithoutAnExponentAndRoundTrip() throws {
        let huge = "8888888888888888888888888888888888888888888888888888888888888888888888888888888888888888888888888888888888888888420"
        for literal in [huge, "0.00001", "1000000000000000000", "123456789012345.5", "0.000000000000123"] {
            let query = try Parser.parse("SELECT * FROM sleep WHERE asleep > \(literal)")
            XCTAssertFalse(query.description.contains("e+") || query.description.contains("e-"), query.description)
            XCTAssertEqual(try Parser.parse(query.description), query, literal)
        }
        XCTAssertEqual(Expr.number(0.00001), "0.00001")
        XCTAssertEqual(Expr.number(1e16), "10000000000000000")
        XCTAssertEqual(Expr.number(-2.5e-7), "-0.00000025")
    }

    /// Found by fuzzing: a negated negative printed as `--x`, which reads back as a comment.
    func testANegatedNegativePrintsWithoutStartingAComment() throws {
        for text in ["SELECT sum(value) FROM steps WHERE date -  - -value > now() - 12h", "SELECT - -1, - - -value FROM steps"] {
            let query = try Parser.parse(text)
            XCTAssertFalse(query.description.contains("--"), query.description)
            XCTAssertEqual(try Parser.parse(query.description), query, text)
        }
    }

    /// Found by fuzzing: a chain of 100 subtractions parsed (a chain is read in a loop) but
    /// printed as 100 nested parentheses, past the parser's nesting limit. Chains print flat,
    /// and a repeated NOT or minus costs the printed text no more depth than the input.
    func testLongChainsAndRepeatsPrintNoDeeperThanTheyParse() throws {
        let texts = [
            "SELECT value" + String(repeating: " - 1 + value", count: 45) + " FROM steps",
            "SELECT value" + String(repeating: " * 2 / value", count: 45) + " FROM steps",
            "SELECT * FROM steps WHERE " + (1...95).map { "value = \($0)" }.joined(separator: " OR "),
            "SELECT * FROM steps WHERE " + (1...95).map { "value > \($0)" }.joined(separator: " AND "),
            "SELECT * FROM steps WHERE " + String(repeating: "NOT ", count: 90) + "value = 1",
            "SELECT " + String(repeating: "- ", count: 90) + "value FROM steps",
        ]
        for text in texts {
            let query = try Parser.parse(text)
            XCTAssertEqual(try Parser.parse(query.description), query, String(text.prefix(60)))
            XCTAssertFalse(query.description.contains("--"), String(text.prefix(60)))
        }
        XCTAssertEqual(try Parser.parse("SELECT a - b - (c - d) FROM steps").description, "SELECT a - b - (c - d) FROM steps")
        XCTAssertEqual(try Parser.parse("SELECT NOT NOT a = 1 FROM steps").description, "SELECT NOT NOT (a = 1) FROM steps")
    }

    func testStructureOfAFullQuery() throws {
        let q = try Parser.parse("SELECT day, sum(value) AS total FROM steps JOIN sleep ON steps.date = sleep.date "
                                 + "WHERE date > '2024-01-01' GROUP BY day HAVING total > 5 ORDER BY total DESC LIMIT 3")
        XCTAssertEqual(q.items.count, 2)
        XCTAssertEqual(q.source.name, "steps")
        XCTAssertEqual(q.join?.source.name, "sleep")
        XCTAssertEqual(q.groupBy.map(\.name), ["day"])
        XCTAssertEqual(q.orderBy.first?.descending, true)
        XCTAssertEqual(q.limit, 3)
        guard case .expr(.aggregate(.sum, .field(nil, "value", _)?, _), "total") = q.items[1] else {
            return XCTFail("\(q.items[1])")
        }
        XCTAssertEqual(q.source.at.position, SourcePosition(offset: 37, line: 1, column: 38))
    }

    func testDurationsAndKeywordsAreCaseInsensitive() throws {
        let tokens = try Lexer.tokens("select 12H 7d 2W 3mo 1Y 30min")
        XCTAssertEqual(tokens.map(\.kind), [.keyword(.select), .duration(12, .hours), .duration(7, .days), .duration(2, .weeks),
                                            .duration(3, .months), .duration(1, .years), .duration(30, .minutes), .end])
    }

    func testPositionsCountLinesAndColumns() throws {
        let tokens = try Lexer.tokens("SELECT *\n  FROM steps")
        XCTAssertEqual(tokens[2].position, SourcePosition(offset: 11, line: 2, column: 3))
        XCTAssertEqual(tokens[3].position, SourcePosition(offset: 16, line: 2, column: 8))
    }

    /// (query, the text the error points at, the message, whether the statement is merely unfinished).
    static let errors: [(String, String?, String, Bool)] = [
        ("SELEC * FROM steps", "SELEC", "Expected SELECT but found 'SELEC'. Did you mean 'SELECT'?", false),
        ("SELECT * FORM steps", "FORM", "Expected FROM after the selected items but found 'FORM'. Did you mean 'FROM'?", false),
        ("SELECT * FROM", nil, "Expected a source (a type such as steps, or sleep, workouts, activity, daily, weekly, monthly, yearly, ecg) but found end of input.", true),
        ("SELECT * FROM 42", "42", "Expected a source (a type such as steps, or sleep, workouts, activity, daily, weekly, monthly, yearly, ecg) but found '42'.", false),
        ("SELECT * FROM sleep JOIN steps WHERE", "WHERE", "Expected ON after JOIN steps but found 'WHERE'.", false),
        ("SELECT * FROM steps GROUP day", "day", "Expected BY after GROUP but found 'day'.", false),
        ("SELECT * FROM steps ORDER value", "value", "Expected BY after ORDER but found 'value'.", false),
        ("SELECT * FROM steps GROUP BY 3", "3", "Expected hour, day, week, month, year, source or a field after GROUP BY but found '3'.", false),
        ("SELECT * FROM steps GROUP BY steps.", nil, "Expected a field name after 'steps.' but found end of input.", true),
        ("SELECT * FROM steps LIMIT 1.5", "1.5", "Expected a whole number after LIMIT but found '1.5'.", false),
        ("SELECT * FROM steps LIMIT", nil, "Expected a whole number after LIMIT but found end of input.", true),
        ("SELECT * FROM steps WHER value > 1", "WHER", "Unexpected 'WHER' after the end of the query. Did you mean 'WHERE'?", false),
        ("SELECT * FROM steps LIMIT 1 LIMIT 2", "LIMIT 2", "Unexpected 'LIMIT' after the end of the query.", false),
        ("SELECT value AS FROM steps", "FROM", "Expected a column name after AS but found 'FROM'.", false),
        ("SELECT steps. FROM steps", "FROM", "Expected a field name after 'steps.' but found 'FROM'.", false),
        ("SELECT * FROM steps WHERE value IS 3", "3", "Expected NULL after IS but found '3'.", false),
        ("SELECT * FROM steps WHERE value IS NOT 3", "3", "Expected NULL after IS NOT but found '3'.", false),
        ("SELECT * FROM steps WHERE value IN 1", "1", "Expected '(' after IN (or a period: LAST 4 WEEKS, THIS MONTH) but found '1'.", false),
        ("SELECT * FROM steps WHERE value IN (1, 2", nil, "Expected ')' but found end of input.", true),
        ("SELECT sum(value FROM steps", "FROM", "Expected ')' but found 'FROM'.", false),
        ("SELECT * FROM steps WHERE", nil, "Expected an expression but found end of input.", true),
        ("SELECT , FROM steps", ",", "Expected an expression but found ','.", false),
        ("SELECT today(1) FROM steps", "1", "today() takes no arguments", false),
        ("SELECT summ(value) FROM steps", "summ", "Unknown function 'summ'. Did you mean 'sum'?", false),
        ("SELECT sum(*) FROM steps", "*", "Only count accepts '*'; sum needs a field, e.g. sum(value)", false),
        ("SELECT sum() FROM steps", ")", "sum needs one argument, e.g. sum(value)", false),
        ("SELECT sum(value, 2) FROM steps", ",", "sum takes one argument", false),
        ("SELECT * FROM steps WHERE date > 7dd", "dd", "Unknown duration unit 'dd' (use min, h, d, w, mo, y). Did you mean 'd'?", false),
        ("SELECT * FROM steps WHERE source = 'Apple", "'Apple", "Unterminated string (missing ')", true),
        ("SELECT * FROM steps WHERE value # 3", "#", "Unexpected character '#'", false),
        ("SELECT * FROM steps WHERE value > " + String(repeating: "9", count: 400), "999", "Number '" + String(repeating: "9", count: 400) + "' is too large", false),
    ]

    func testEveryErrorMessageWithItsPosition() {
        for (text, marker, message, incomplete) in Self.errors {
            do {
                let q = try Parser.parse(text)
                XCTFail("parsed: \(text) → \(q)")
            } catch {
                XCTAssertEqual(error.message, message, text)
                XCTAssertEqual(error.isIncomplete, incomplete, text)
                let offset = marker.flatMap { m in text.range(of: m).map { text.distance(from: text.startIndex, to: $0.lowerBound) } }
                    ?? text.count
                XCTAssertEqual(error.position.offset, offset, "position of: \(text)")
                XCTAssertEqual(error.position.column, offset + 1, text)
                XCTAssertTrue(error.description.hasPrefix("line 1, column \(offset + 1): "), error.description)
            }
        }
    }

    func testPointerShowsTheLineAndACaret() {
        let text = "SELECT *\nFROM stepz"
        let error = HealthQLError("Unknown type 'stepz'. Did you mean 'steps'?", at: SourcePosition(offset: 14, line: 2, column: 6))
        XCTAssertEqual(error.pointer(in: text), "line 2, column 6: Unknown type 'stepz'. Did you mean 'steps'?\n  FROM stepz\n       ^")
    }

    func testSuggestionsStayCloseToTheWord() {
        XCTAssertEqual(Suggestion.closest(to: "stepz", in: ["steps", "sleep"]), "steps")
        XCTAssertNil(Suggestion.closest(to: "zzzzzz", in: ["steps", "sleep"]))
        XCTAssertEqual(Suggestion.distance(Array("kitten"), Array("sitting")), 3)
    }

    /// `BETWEEN` and `IN period` write their left side twice: a query whose printed form is over
    /// the operator limit is refused as written (found by the healthql fuzz target), and one just
    /// inside it prints as a query that parses to itself.
    func testAnExpansionOverTheOperatorLimitIsRefusedAsWritten() throws {
        func product(_ n: Int) -> String { Array(repeating: "value", count: n + 1).joined(separator: "*") }
        for tail in ["IN THIS WEEK", "IN LAST 4 WEEKS", "BETWEEN 1 AND 2"] {
            XCTAssertThrowsError(try Parser.parse("SELECT * FROM daily WHERE \(product(60)) \(tail)"), tail)
            let inside = try Parser.parse("SELECT * FROM daily WHERE \(product(40)) \(tail)")
            XCTAssertEqual(try Parser.parse(inside.description), inside, tail)
        }
    }
}
