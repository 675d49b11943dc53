import XCTest
@testable import HealthQL

/// Issue 47, item 4: one rule, one place. HealthQL resolved a source's name in two ways: a
/// field could say `StepCount.value`, but a GROUP BY key `StepCount.day` was "Unknown source".
final class OneRuleTests: XCTestCase {
    func testAQualifierResolvesTheSameInFieldsAndGroupKeys() throws {
        let engine = try SharedStore.get().engine()
        let plain = try engine.run("SELECT day, sum(value) FROM steps GROUP BY day").rows
        XCTAssertFalse(plain.isEmpty)
        for qualifier in ["steps", "StepCount", "step_count", "HKQuantityTypeIdentifierStepCount"] {
            let qualified = try engine.run("SELECT \(qualifier).day, sum(\(qualifier).value) FROM steps GROUP BY \(qualifier).day").rows
            XCTAssertEqual(qualified.map { $0.map(\.description) }, plain.map { $0.map(\.description) }, qualifier)
        }
        XCTAssertThrowsError(try engine.run("SELECT sum(value) FROM steps GROUP BY HeartRate.day")) { error in
            XCTAssertTrue("\(error)".contains("Unknown source 'HeartRate'"), "\(error)")
        }
    }
}
