import Foundation
import XCTest
import HealthCore
@testable import HealthConnectIngest

/// The Health Connect reader's decisions that need no database: the mapping table's units, and
/// the home zone read from offsets alone.
final class HealthConnectMappingTests: XCTestCase {
    /// Every value the table maps has a type the registry knows and a unit that converts to that
    /// type's own: a typo in a unit or a type name would store values nobody can read.
    func testEveryMappedValueConvertsToItsTypesUnit() {
        var checked = 0
        for table in RecordTable.all {
            let values: [(String, String)] = switch table.kind {
            case .values(let values): values.map { ($0.type, $0.unit) }
            case .series(let s): [(s.type, s.unit)]
            default: []
            }
            for (type, unit) in values {
                let known = TypeRegistry.type(for: type)
                let canonical = try? XCTUnwrap(known.canonicalUnit, "\(table.name): \(type) is not in the registry")
                XCTAssertNotNil(UnitConverter.conversion(for: unit, to: canonical), "\(table.name): \(unit) → \(canonical ?? "?")")
                checked += 1
            }
            for type in table.types where type.hasPrefix(RecordTable.categoryType) {
                XCTAssertEqual(TypeRegistry.type(for: type).kind, .category, type)
            }
        }
        XCTAssertGreaterThan(checked, 60, "the nutrients and every value table")
        XCTAssertEqual(Set(RecordTable.all.map(\.name)).count, RecordTable.all.count, "a table listed twice")
    }

    /// A winter at +01:00 and a summer at +02:00 are one zone with summer time, not two.
    func testTheHomeZoneFitsSummerAndWinterOffsets() {
        let january = Int64(1_704_067_200_000), july = Int64(1_719_792_000_000)   // 2024-01-01, 2024-07-01 UTC
        let (zone, agreeing) = HomeZone.best(for: [HomeZone.Evidence(instant: january, offset: 3600, count: 100),
                                                   HomeZone.Evidence(instant: july, offset: 7200, count: 100),
                                                   HomeZone.Evidence(instant: july + 86_400_000, offset: 32_400, count: 3)])
        XCTAssertEqual(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(january) / 1000)), 3600)
        XCTAssertEqual(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(july) / 1000)), 7200)
        XCTAssertEqual(agreeing, 200, "the trip to +09:00 is not home")
        if TimeZone.current.secondsFromGMT() == 0 { XCTAssertEqual(zone.identifier, "Europe/Berlin", "the common zone among equals") }
        let home = HomeZone(zone: zone, reason: "", latestOffset: nil, latestInstant: nil)
        XCTAssertEqual(home.zoneName(offset: 32_400, at: july), "GMT+0900")
        XCTAssertEqual(home.zoneName(offset: 7200, at: july), zone.identifier)
    }
}
