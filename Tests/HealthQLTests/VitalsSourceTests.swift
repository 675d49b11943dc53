import XCTest
import HealthStore
@testable import HealthQL
@testable import SQLite

/// Issue 31: `vitals`, `blood_pressure` and `hrv_measurements` (also `beats`) as HealthQL
/// sources, on a store with the real schema and rows written here; `hrv` stays the HRV type.
final class VitalsSourceTests: XCTestCase {
    private func store() throws -> QueryEngine {
        QueryEngine(store: try schemaStore(self, "vitals", schema: 5) { db in try db.execute("""
            INSERT INTO daily_vitals (date, resting_heart_rate, weight_kg) VALUES ('2024-03-10', 60, 70.5), ('2024-03-11', 62, NULL),
              ('2024-04-02', 58, 70.1);
            INSERT INTO blood_pressure VALUES (1, '2024-03-10', '2024-03-10T08:00:00Z', 120, 80, 'Cuff'),
              (2, '2024-03-11', '2024-03-11T08:00:00Z', 130, 84, 'Cuff');
            INSERT INTO hrv_measurements (sample_id, local_date, start_utc, source_name, beats, intervals, rmssd_ms, sdnn_ms, apple_sdnn_ms)
              VALUES (7, '2024-03-10', '2024-03-10T05:00:00Z', 'Watch', 40, 38, 42, 50, 51),
                     (8, '2024-03-10', '2024-03-10T09:00:00Z', 'Watch', 30, 29, 48, 55, 53);
            """) })
    }

    func testTheVitalsSources() throws {
        let engine = try store()
        let months = try engine.run("SELECT month, avg(resting_heart_rate), avg(weight_kg) FROM vitals GROUP BY month")
        XCTAssertEqual(months.rows.count, 2)
        XCTAssertEqual(months.rows.first?[1].double ?? 0, 61, accuracy: 1e-9)
        XCTAssertEqual(months.rows.first?[2].double ?? 0, 70.5, accuracy: 1e-9)   // the null day is not averaged
        let pressure = try engine.run("SELECT max(systolic), min(diastolic) FROM blood_pressure")
        XCTAssertEqual(pressure.rows.first?[0].double, 130)
        XCTAssertEqual(pressure.rows.first?[1].double, 80)
        for name in ["hrv_measurements", "beats"] {
            let hrv = try engine.run("SELECT day, avg(rmssd), avg(apple_sdnn) FROM \(name) GROUP BY day")
            XCTAssertEqual(hrv.rows.count, 1, name)
            XCTAssertEqual(hrv.rows.first?[1].double ?? 0, 45, accuracy: 1e-9)
            XCTAssertEqual(hrv.rows.first?[2].double ?? 0, 52, accuracy: 1e-9)
        }
        XCTAssertEqual(try engine.run("SELECT * FROM daily_vitals").rows.count, 3)
    }
}
