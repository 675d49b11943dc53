import XCTest
import SQLite

/// Application-defined SQL functions through `Database.add(function:)` and `add(aggregate:)`,
/// with no C in the caller.
final class DatabaseFunctionTests: XCTestCase {
    final class Sum: DatabaseAggregate {
        var total: Int64 = 0, rows = 0
        init() {}
        func step(_ args: SQLFunctionArguments) { if !args[0].isNull { total += args[0].int64; rows += 1 } }
        func finalize() -> SQLValue { rows == 0 ? .null : .integer(total) }
    }

    struct Refused: Error, CustomStringConvertible { var description: String { "refused by the function" } }

    func testScalarFunctionsConvertAsSQLiteAndReturnEveryKind() throws {
        let db = try Database(path: ":memory:")
        try db.add(function: DatabaseFunction("twice", argumentCount: 1) { args in
            args[0].isNull ? .null : .integer(args[0].int64 * 2)
        })
        try db.add(function: DatabaseFunction("shout", argumentCount: 1) { args in args[0].text.map { .text($0.uppercased()) } ?? .null })
        try db.add(function: DatabaseFunction("half", argumentCount: 1) { args in .real(args[0].double / 2) })
        XCTAssertEqual(try db.rows("SELECT twice(21), twice('4'), twice(NULL), shout('abc'), shout(NULL), half(3)").first,
                       [.integer(42), .integer(8), .null, .text("ABC"), .null, .real(1.5)])
    }

    func testAnErrorThrownInAFunctionFailsTheStatementWithItsMessage() throws {
        let db = try Database(path: ":memory:")
        try db.add(function: DatabaseFunction("refuse", argumentCount: 0) { _ in throw Refused() })
        XCTAssertThrowsError(try db.rows("SELECT refuse()")) { error in
            XCTAssertTrue("\(error)".contains("refused by the function"), "\(error)")
        }
    }

    func testAggregateKeepsOneStatePerGroupAndAnEmptyGroupGetsAFreshOne() throws {
        let db = try Database(path: ":memory:")
        try db.add(aggregate: DatabaseAggregateFunction("my_sum", argumentCount: 1, Sum.self))
        try db.execute("CREATE TABLE t (g TEXT, v INTEGER); INSERT INTO t VALUES ('a', 1), ('a', 2), ('b', 10), ('b', NULL)")
        XCTAssertEqual(try db.rows("SELECT g, my_sum(v) FROM t GROUP BY g ORDER BY g"),
                       [[.text("a"), .integer(3)], [.text("b"), .integer(10)]])
        XCTAssertEqual(try db.scalar("SELECT my_sum(v) FROM t WHERE g = 'none'"), .null)
        XCTAssertEqual(try db.scalar("SELECT my_sum(v) FROM t"), .integer(13))
    }
}
