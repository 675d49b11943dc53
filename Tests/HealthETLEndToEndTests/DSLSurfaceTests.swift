import XCTest
import HealthQL
import SQLite

/// Issue 47: the library's users see HealthQL's DSL, not its IR (`Query`, `Expr`, `Plan` are
/// `package`). This file uses only what docs/LIBRARY.md documents, with a plain `import
/// HealthQL`: the documented example, every building block of the DSL, and its answers against
/// the same query as text. (Within the package `package` names stay visible to a test, so
/// keep this file to the public names: `QueryEngine`, `Health`, `HealthQuery`, `SourceName`,
/// `Column`, `Bucket`, `Fields`, `FieldRef`, `Value`, `Predicate`, `Period`, `DurationUnit`,
/// `AggregateFunction`, `QueryResult`, `ResultColumn`, `HealthQLError`, `SourcePosition`.)
final class DSLSurfaceTests: XCTestCase {
    func testTheDocumentedExampleRuns() throws {
        let engine = try QueryEngine(storePath: try SharedStore.get().storePath)
        let weekly = try Health.select(.steps, aggregate: .sum).where { $0.date > .daysAgo(7) }.groupBy(.day).run(on: engine)
        let text = try engine.run("SELECT avg(value) FROM heart_rate GROUP BY week")
        // today() is the data's last complete day: the 7 days after today() - 7d, through today().
        XCTAssertEqual(weekly.rows.count, 7)
        XCTAssertEqual(weekly.columns.count, 2)
        XCTAssertGreaterThan(text.rows.count, 3)
        XCTAssertEqual(text.columns.map(\.isNumeric).last, true)
    }

    /// Each DSL query answers as its HealthQL text does (`description`), on the shared store.
    func testTheDSLAnswersAsItsText() throws {
        let engine = try QueryEngine(storePath: try SharedStore.get().storePath)
        let queries: [HealthQuery] = [
            Health.select(.heartRate, aggregate: .avg).where { $0.value > 60 }.groupBy(.week),
            Health.select(.steps, .field("source"), .count, .aggregate(.sum, as: "total"))
                .where { $0.source.isLike("%Watch%") || $0.value.isBetween(10, 500) }
                .groupBy(.source).having { $0.aggregate(.sum) > 100 }.orderBy("total", descending: true).limit(3),
            Health.selectAll(.daily).where { $0.steps.isNotNull && $0.date.isIn(.last(2, DurationUnit.weeks)) },
            Health.select(.daily, .field("date"), .field("steps")).where { !($0.steps < 1000) && $0.date >= .date("2024-01-01") }
                .orderBy("date").limit(5),
            Health.select("resting_heart_rate", aggregate: AggregateFunction.p90).groupBy(Bucket.month),
        ]
        for query in queries {
            let built = try query.run(on: engine), text = try engine.run(query.description)
            XCTAssertEqual(built.columns.map(\.name), text.columns.map(\.name), query.description)
            XCTAssertEqual(built.rows, text.rows, query.description)
            XCTAssertEqual(try engine.run(query).rows, built.rows, query.description)
        }
        XCTAssertGreaterThan(try queries[0].run(on: engine).rows.count, 3)
    }

    func testAMistakeIsAHealthQLErrorWithItsPosition() throws {
        let engine = try QueryEngine(storePath: try SharedStore.get().storePath)
        XCTAssertThrowsError(try Health.selectAll("no_such_source").run(on: engine)) { error in
            XCTAssertTrue(error is HealthQLError, "\(error)")
        }
        XCTAssertThrowsError(try engine.run("SELECT avg(value) FROM heart_rate GROUP")) { error in
            let position: SourcePosition? = (error as? HealthQLError)?.position
            XCTAssertEqual(position?.line, 1)
            XCTAssertGreaterThan(position?.column ?? 0, 30)
        }
    }
}
