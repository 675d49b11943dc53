import XCTest
@testable import SQLite
import TestSupport

/// `withTimeLimit`: a statement running past the limit is stopped with an error that says so,
/// the connection stays usable, and statements after the block run without a limit.
final class TimeLimitTests: XCTestCase {
    func testALongStatementIsStoppedAndTheConnectionGoesOn() throws {
        let db = try Database(path: try temporaryFolder(self).appendingPathComponent("t.sqlite").path)
        // Counting to a billion takes far longer than a tenth of a second.
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000) SELECT count(*) FROM n"
        let started = Date()
        XCTAssertThrowsError(try db.withTimeLimit(seconds: 0.1) { try db.rows(endless) }) { error in
            let sqlite = error as? SQLiteError
            XCTAssertEqual(sqlite?.isInterrupted, true)
            XCTAssertEqual(sqlite?.description, "the query ran longer than 0.1 s and was stopped")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertEqual(try db.withTimeLimit(seconds: 5) { try db.scalar("SELECT 6 * 7") }, .integer(42))
        let small = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT count(*) FROM n"
        XCTAssertEqual(try db.scalar(small), .integer(100_000), "no limit left behind")
    }
}
