import XCTest
@testable import HealthQL

/// The Swift DSL builds the parser's IR, and runs to the same rows.
final class DSLTests: XCTestCase {
    func testTheIssueExampleIsTheParsedQuery() throws {
        let dsl = Health.select(.steps, aggregate: .sum).where { $0.date > .daysAgo(7) }.groupBy(.day)
        XCTAssertEqual(dsl.query, try Parser.parse("SELECT sum(value) FROM steps WHERE date > today() - 7d GROUP BY day"))
        XCTAssertEqual(dsl.description, "SELECT sum(value) FROM steps WHERE date > (today() - 7d) GROUP BY day")
    }

    func testEveryBuildingBlock() throws {
        let dsl = Health.select(.workouts, .field("type"), .count, .aggregate(.avg, "duration", as: "minutes"))
            .where { $0.type.isIn(["running", "cycling"]) && !($0.distance.isNull) || $0.date >= .startOfMonth }
            .where { $0.date < .hoursAgo(2) }
            .groupBy(.field("type"))
            .having { $0.aggregate(.avg, "duration") > 10 }
            .orderBy("minutes", descending: true)
            .limit(5)
        XCTAssertEqual(dsl.query, try Parser.parse("""
            SELECT type, count(*), avg(duration) AS minutes FROM workouts
            WHERE ((type IN ('running', 'cycling') AND NOT distance IS NULL) OR date >= start_of_month()) AND date < now() - 2h
            GROUP BY type HAVING avg(duration) > 10 ORDER BY minutes DESC LIMIT 5
            """))
        XCTAssertEqual(Health.selectAll(.sleep).where { $0.deep >= 60.5 && $0.source != "x" }.query,
                       try Parser.parse("SELECT * FROM sleep WHERE deep >= 60.5 AND source != 'x'"))
        XCTAssertEqual(Health.select("hrv", aggregate: .p90).where { $0.date <= .date("2024-01-31") }.groupBy(.week, .source).query,
                       try Parser.parse("SELECT p90(value) FROM hrv WHERE date <= '2024-01-31' GROUP BY week, source"))
    }

    func testBetweenLikeAndPeriods() throws {
        XCTAssertEqual(Health.selectAll(.daily).where { $0.steps.isBetween(8000, 10000) && $0.date.isIn(.last(4, .weeks)) }.query,
                       try Parser.parse("SELECT * FROM daily WHERE steps BETWEEN 8000 AND 10000 AND date IN LAST 4 WEEKS"))
        XCTAssertEqual(Health.selectAll(.daily).where { $0.date.isIn(.this(.months)) || $0.date.isIn(.previous(.years)) }.query,
                       try Parser.parse("SELECT * FROM daily WHERE date IN THIS MONTH OR date IN LAST YEAR"))
        XCTAssertEqual(Health.select(.steps, .count).where { $0.source.isLike("%Watch%") }.query,
                       try Parser.parse("SELECT count(*) FROM steps WHERE source LIKE '%Watch%'"))
        XCTAssertEqual(Health.selectAll(.daily).where { $0.date.isIn(.this(.days)) }.query,
                       try Parser.parse("SELECT * FROM daily WHERE date IN LAST 1 DAY"))
    }

    func testTheDSLRunsLikeTheText() throws {
        let engine = try SharedStore.get().engine()
        let dsl = Health.select(.heartRate, aggregate: .avg).where { $0.value > 60 }.groupBy(.week)
        let text = try engine.run("SELECT avg(value) FROM heart_rate WHERE value > 60 GROUP BY week")
        let built = try dsl.run(on: engine)
        XCTAssertEqual(built.rows, text.rows)
        XCTAssertEqual(built.columns, text.columns)
        XCTAssertGreaterThan(built.rows.count, 3)
    }
}
