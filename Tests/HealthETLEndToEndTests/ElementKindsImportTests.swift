import XCTest
import TestSupport

/// The export of every element kind (ExportXML.everyElementKind) imported: the store holds each.
final class ElementKindsImportTests: XCTestCase {
    func testStoreHoldsEveryKind() throws {
        let dir = try temporaryFolder(self)
        let path = try write(ExportXML.everyElementKind, to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let result = try healthetl(["import", path, "--out", out, "--timezone", "Europe/Berlin", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let db = out + "/health.sqlite"
        XCTAssertEqual(try query(db, "SELECT count(*) FROM samples"), ["3"])
        XCTAssertEqual(try query(db, "SELECT device_model FROM samples WHERE type LIKE '%SDNN'"), ["Watch"])
        XCTAssertEqual(try query(db, "SELECT count(*) FROM heartbeats"), ["2"])
        XCTAssertEqual(try query(db, "SELECT count(*) FROM correlation_members"), ["2"])
        XCTAssertEqual(try query(db, "SELECT round(distance_m, 1) FROM workouts"), ["5100.0"], "statistics before attributes")
        XCTAssertEqual(try query(db, "SELECT round(energy_kcal, 2) FROM workouts"), ["286.81"], "1200 kJ in kcal")
        XCTAssertEqual(try query(db, "SELECT avg_heart_rate FROM workouts"), ["151.0"])
        XCTAssertEqual(try query(db, "SELECT count(*) FROM workout_events"), ["3"])
        XCTAssertEqual(try query(db, "SELECT count(*) FROM workout_statistics"), ["3"])
        XCTAssertEqual(try query(db, "SELECT count(*) FROM workout_activities"), ["1"])
        XCTAssertEqual(try query(db, "SELECT count(*) FROM workout_route_points"), ["2"])
        XCTAssertEqual(try query(db, "SELECT stand_hours FROM activity_summaries"), ["11.0"])
        XCTAssertEqual(try query(db, "SELECT blood_type FROM profile"), ["HKBloodTypeONegative"])
        XCTAssertEqual(try query(db, "SELECT count(*) FROM audiogram_points"), ["2"])
        XCTAssertEqual(try query(db, "SELECT brand FROM vision_prescriptions"), ["Zeiss"])
        XCTAssertEqual(try query(db, "SELECT identifier FROM clinical_records"), ["abc-1"])
        XCTAssertTrue(result.stdout.contains("\"unknown_elements\":{\"FutureElement\":1}"), result.stdout)
    }
}
