import XCTest
import HealthStore
@testable import HealthQL
@testable import SQLite

/// HealthQL's `reconciliation`, `data_quality` and `sources` (docs/data-quality.md), on a store
/// with the real schema and rows written into it here.
final class QualitySourceTests: XCTestCase {
    private func store() throws -> QueryEngine {
        QueryEngine(store: try schemaStore(self, "quality", schema: 5) { db in try db.execute("""
            INSERT INTO reconciliation VALUES ('2024-03-20', 'steps', 7506, 13836, 6330, 2, NULL, NULL, NULL, NULL),
                                              ('2024-03-21', 'steps', 12978, 17524, 4546, 2, NULL, NULL, NULL, 3),
                                              ('2024-03-21', 'active_energy_kcal', 1083.3, 1255.8, 172.5, 2, 1000, 83.3, 1, 0);
            INSERT INTO data_quality VALUES ('2024-03-20', 12, 8, 3, 1, 1, 'Europe/Berlin', '+01:00'),
                                            ('2024-03-21', 7, 5, 5, 0, 0, NULL, NULL);
            INSERT INTO source_inventory VALUES ('Ann’s Apple Watch', 'Watch', 'HKQuantityTypeIdentifierStepCount', 488, '2024-03-20', '2024-04-17', 1),
                                                ('Garmin Connect', NULL, 'HKQuantityTypeIdentifierStepCount', 40, '2024-03-27', '2024-04-10', 3);
            """) })
    }

    func testTheQualityTablesAreNamedSources() throws {
        let engine = try store()
        let overlap = try engine.run("SELECT date, overlap_removed FROM reconciliation WHERE metric = 'steps' ORDER BY date")
        XCTAssertEqual(overlap.rows.map { $0[1].double }, [6330, 4546])
        let disagree = try engine.run("SELECT date, rings_difference FROM reconciliation WHERE rings_disagree = 1")
        XCTAssertEqual(disagree.rows.count, 1)
        XCTAssertEqual(disagree.rows.first?[1].double, 83.3)
        // duplicates_dropped: unknown (NULL) on the first day, 3 step copies on the second.
        let copies = try engine.run("SELECT date, metric, duplicates_dropped FROM reconciliation WHERE duplicates_dropped > 0")
        XCTAssertEqual(copies.rows.map { $0[1].string }, ["steps"])
        XCTAssertEqual(copies.rows.first.flatMap { $0[2].double ?? $0[2].int.map(Double.init) }, 3)
        let valid = try engine.run("SELECT count(*) FROM data_quality WHERE valid_day = 1")
        XCTAssertEqual(valid.rows.first?[0].double ?? valid.rows.first?[0].int.map(Double.init), 1)
        let sources = try engine.run("SELECT source, records, priority FROM sources ORDER BY priority")
        XCTAssertEqual(sources.rows.map { $0[0].string }, ["Ann’s Apple Watch", "Garmin Connect"])
    }
}
