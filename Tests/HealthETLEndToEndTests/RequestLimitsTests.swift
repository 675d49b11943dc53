import Foundation
import SQLite
import XCTest
@testable import HealthQL

/// Issue 46, item 7: a query's time limit counts from when the request began (reading and
/// planning included), and a query's text is bounded before it is parsed.
final class RequestLimitsTests: XCTestCase {
    func testTheTimeLimitCountsFromTheRequestsStart() throws {
        let engine = try SharedStore.get().engine()
        engine.timeLimit = 0.5
        let query = "SELECT day, sum(value) FROM steps GROUP BY day"
        XCTAssertFalse(try engine.run(query).rows.isEmpty, "within the limit from now")
        // A request that began a second ago has spent its half second before SQLite starts.
        let aSecondAgo = QueryEngine.monotonicNow() - 1_000_000_000
        XCTAssertThrowsError(try engine.run(query, started: aSecondAgo)) { error in
            XCTAssertTrue((error as? SQLiteError)?.isInterrupted == true, "\(error)")
            XCTAssertTrue("\(error)".contains("ran longer than 0.5 s and was stopped"), "\(error)")
        }
        // Without a limit the start does not matter.
        engine.timeLimit = nil
        XCTAssertFalse(try engine.run(query, started: aSecondAgo).rows.isEmpty)
    }

    func testAQueryLongerThanAMebibyteIsRefusedBeforeItIsParsed() throws {
        let engine = try SharedStore.get().engine()
        let padded = "SELECT date FROM daily WHERE steps > 0" + String(repeating: " ", count: QueryEngine.maximumTextBytes)
        XCTAssertThrowsError(try engine.run(padded)) { error in
            XCTAssertTrue("\(error)".contains("longer than 1 MiB"), "\(error)")
        }
        // At the bound itself it is read.
        let fits = "SELECT date FROM daily WHERE steps > 0"
        XCTAssertNoThrow(try engine.run(fits + String(repeating: " ", count: QueryEngine.maximumTextBytes - fits.utf8.count)))
    }

    /// A chain of 99 divisions (the operator limit is 100) compiles flat, its first operand cast
    /// once: nested casts overflowed SQLite's parser stack at about 60. `x / 1 / 1 …` is `x`.
    func testALongDivisionChainRunsAndDividesAsRealNumbers() throws {
        let engine = try SharedStore.get().engine()
        let chain = "SELECT date, steps / " + Array(repeating: "1", count: 99).joined(separator: " / ") + " AS x, steps FROM daily ORDER BY date"
        let plan = try engine.plan(chain)
        XCTAssertEqual(plan.sql.components(separatedBy: "CAST(").count - 1, 1, "one cast: \(plan.sql.prefix(200))")
        let rows = try engine.run(chain).rows
        XCTAssertFalse(rows.isEmpty)
        for row in rows { XCTAssertEqual(row[1].double, row[2].double.map { $0 }, "\(row)") }
        // Real division all along: 7 / 2 / 2 is 1.75, not 1.
        let quarter = try engine.run("SELECT 7 / 2 / 2 AS q FROM daily LIMIT 1").rows
        XCTAssertEqual(quarter.first?.first?.double, 1.75)
    }
}
