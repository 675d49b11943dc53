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
}
