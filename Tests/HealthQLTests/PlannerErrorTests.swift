import XCTest
import HealthStore
@testable import HealthQL
@testable import SQLite

/// Every planner message, on an empty store with the real schema (names are checked before
/// SQLite sees anything), and the SQL shape: values are always bound, never spliced.
final class PlannerErrorTests: XCTestCase {
    static func emptyStore(_ test: XCTestCase, withoutHourlyMetrics: Bool = false) throws -> StoreContext {
        try schemaStore(test, "empty", schema: 2, indexes: true) { db in
            if withoutHourlyMetrics { try db.execute("DROP TABLE IF EXISTS hourly_metrics") }
        }
    }

    /// (query, text the error points at, message prefix).
    static let errors: [(String, String, String)] = [
        ("SELECT * FROM stepz", "stepz", "Unknown type 'stepz'. Did you mean 'steps'?"),
        ("SELECT * FROM slep", "slep", "Unknown type 'slep'. Did you mean 'sleep'?"),
        ("SELECT valeu FROM steps", "valeu", "Unknown field 'valeu' for steps. Did you mean 'value'? (fields: date, value,"),
        ("SELECT date FROM sleep JOIN steps ON steps.date = sleep.date", "date FROM",
         "Field 'date' is ambiguous: write sleep.date or steps.date"),
        ("SELECT x.value FROM steps", "x.value", "Unknown source 'x' (the query reads steps)."),
        ("SELECT value, sum(value) FROM steps GROUP BY day", "value,",
         "'value' must be inside an aggregate such as sum(value), or listed in GROUP BY"),
        ("SELECT * FROM steps WHERE sum(value) > 1", "sum", "Aggregates such as sum(…) are not allowed in WHERE; use HAVING"),
        ("SELECT sum(max(value)) FROM steps", "max", "Aggregates cannot be nested"),
        ("SELECT sum(source) FROM steps", "source", "sum needs numbers, but 'source' is text"),
        ("SELECT *, count(*) FROM steps", "*", "'*' lists rows; with GROUP BY or aggregates name the columns"),
        ("SELECT avg(asleep) FROM sleep GROUP BY hour", "hour", "'sleep' has no times of day"),
        ("SELECT * FROM steps WHERE date > 'yesterday'", "'yesterday'", "'yesterday' is not a date"),
        ("SELECT * FROM daily WHERE date > '2024-02-31'", "'2024-02-31'", "'2024-02-31' is not a date"),
        ("SELECT * FROM steps WHERE value > 'abc' + 1d", "+", "'abc' is not a date"),
        ("SELECT * FROM steps WHERE value > 1 + 1d", "+", "Cannot apply '+' to a number and a duration"),
        ("SELECT 7d FROM steps", "7d", "A duration only makes sense added to a time"),
        ("SELECT * FROM steps WHERE -source = 1", "-", "Cannot negate text"),
        ("SELECT * FROM steps WHERE -'x' = 1", "-", "Cannot negate text"),
        ("SELECT * FROM steps WHERE source + 1 > 2", "+", "Cannot apply '+' to text and a number"),
        ("SELECT * FROM steps WHERE date + 1mo > today()", "+", "Cannot add mo to a time"),
        ("SELECT * FROM sleep_analysis WHERE value > 'deep'", ">", "Names can only be compared with =, != or IN"),
        ("SELECT * FROM sleep_analysis WHERE value = 3", "3", "Compare with a name in quotes"),
        ("SELECT * FROM steps ORDER BY 9", "9", "ORDER BY 9: there are 4 columns"),
        ("SELECT * FROM steps WHERE date > 200000d", "200000d", "Duration '200000d' is too long"),
        ("SELECT * FROM steps WHERE date > today() - 7d * 100000", "* 100000", "Duration too long"),
        ("SELECT * FROM steps WHERE value > ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
         "((1", "Expression nested too deeply"),
    ]

    func testEveryPlannerMessageWithItsPosition() throws {
        let store = try Self.emptyStore(self)
        let engine = QueryEngine(store: store)
        for (text, marker, message) in Self.errors {
            do {
                let result = try engine.run(text)
                XCTFail("ran: \(text) → \(result.sql)")
            } catch let error as HealthQLError {
                XCTAssertTrue(error.message.hasPrefix(message), "\(text)\n got: \(error.message)")
                if let range = text.range(of: marker) {
                    XCTAssertEqual(error.position.offset, text.distance(from: text.startIndex, to: range.lowerBound), "\(text): \(error)")
                }
            } catch {
                XCTFail("\(text): not a HealthQL error: \(error)")
            }
        }
    }

    /// A store from before hourly_metrics existed: cumulative types cannot be grouped by hour.
    func testOlderStoreWithoutHourlyMetrics() throws {
        let engine = QueryEngine(store: try Self.emptyStore(self, withoutHourlyMetrics: true))
        let text = "SELECT sum(value) FROM steps GROUP BY hour"
        XCTAssertThrowsError(try engine.run(text)) { error in
            XCTAssertEqual((error as? HealthQLError)?.message,
                           "This store has no hourly_metrics table (made by an older healthetl); re-import to group steps by hour")
        }
        // A finer-than-a-day filter falls back to days; raw types still group by hour.
        XCTAssertNoThrow(try engine.run("SELECT sum(value) FROM steps WHERE date > now() - 12h"))
        XCTAssertNoThrow(try engine.run("SELECT avg(value) FROM heart_rate GROUP BY hour"))
    }

    func testValuesAreBoundNeverSpliced() throws {
        let engine = QueryEngine(store: try Self.emptyStore(self))
        let plan = try engine.plan("SELECT * FROM steps WHERE source = 'x''); DROP TABLE types; --' AND date > '2024-01-31' LIMIT 5")
        XCTAssertFalse(plan.sql.contains("DROP"), plan.sql)
        XCTAssertFalse(plan.sql.contains("2024"), plan.sql)
        XCTAssertTrue(plan.bindings.contains(.text("x'); DROP TABLE types; --")))
        XCTAssertTrue(plan.bindings.contains(.integer(5)))
        XCTAssertEqual(try engine.run("SELECT * FROM steps WHERE source = 'x''); DROP TABLE types; --'").rows.count, 0)
    }

    func testEveryTypeNameFormResolvesToTheSameSource() throws {
        let engine = QueryEngine(store: try Self.emptyStore(self))
        let plans = try ["steps", "step_count", "HKQuantityTypeIdentifierStepCount", "StepCount", "STEPS"].map {
            try engine.plan("SELECT * FROM \($0) WHERE value > 1")
        }
        for plan in plans { XCTAssertEqual(plan.bindings, plans[0].bindings) }
        XCTAssertTrue(plans[0].bindings.contains(.text("HKQuantityTypeIdentifierStepCount")))
    }

    func testEverySourceAndItsStarColumnsRunOnAnEmptyStore() throws {
        let engine = QueryEngine(store: try Self.emptyStore(self))
        for source in SourceCatalog.tableNames + ["steps", "heart_rate", "sleep_analysis", "hrv", "mindful"] {
            let result = try engine.run("SELECT * FROM \(source) LIMIT 1")
            XCTAssertEqual(result.rows.count, 0, source)
            XCTAssertGreaterThan(result.columns.count, 1, source)
        }
        XCTAssertEqual(try engine.run("SELECT * FROM weekly").columns.first?.name, "week_start")
        XCTAssertEqual(try engine.run("SELECT sum(value) FROM steps GROUP BY week").columns.map(\.name), ["week", "sum(value)"])
    }
}
