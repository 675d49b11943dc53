import Foundation
import XCTest
import HealthCore
@testable import HealthPipeline
import TestSupport

/// Issue 58: a Health Connect batch counts what its items hold, a workout's events and its
/// route's points, so that memory stays flat however many exercise sessions with routes an
/// export has (a session with its route is a handful of items; before, every session of a
/// 4-year export, 281,997 route points, went through the load as one batch: docs/PERFORMANCE.md,
/// "Health Connect").
final class HealthConnectBatchBoundsTests: XCTestCase {
    static let sessions = 12, pointsEach = 600, batchSize = 4096

    func testABatchCountsTheRoutePointsAndEventsOfItsWorkouts() throws {
        let dir = try temporaryFolder(self)
        var s = HealthConnectScenario()
        s.apps = [("com.example.watch", "Watch")]
        s.devices = [["manufacturer": "Google", "model": "Pixel Watch 2", "type": 1]]
        let day0 = 1_740_000_000_000   // 2025-02-19, epoch ms
        for n in 0..<Self.sessions {
            let start = day0 + n * 86_400_000, end = start + Self.pointsEach * 5_000
            s.add("exercise_session_record_table", app: "com.example.watch", [
                "device": 0, "start": start, "start_zone_offset": 3600, "end": end, "end_zone_offset": 3600,
                "exercise_type": 33, "has_route": 1,
                "children": [
                    "exercise_laps_table": [["start": start, "end": start + 600_000, "lap_length": 2000.0]],
                    "exercise_route_table": (0..<Self.pointsEach).map { i in
                        ["time": start + i * 5_000, "latitude": 48.1 + Double(i) * 1e-5, "longitude": 11.5, "altitude": 520.0,
                         "horizontal_accuracy": 4.0, "vertical_accuracy": 6.0] as [String: Any]
                    },
                ],
            ])
        }
        let db = dir.appendingPathComponent("health_connect_export.db").path
        try s.write(to: db)

        let input = try InputFormats.open(db, scratch: dir.path)
        XCTAssertEqual(input.platform, .healthConnect)
        var sizes: [(items: Int, nested: Int)] = []
        var points = 0, workouts = 0
        _ = try input.read(resumingAt: nil, knownRoutePaths: [], prefilter: nil) { batch in
            let routePoints = batch.routeFiles.reduce(0) { $0 + $1.points.count }
            let events = batch.workouts.reduce(0) { $0 + $1.events.count }
            sizes.append((batch.itemCount, routePoints + events))
            points += routePoints
            workouts += batch.workouts.count
        }
        XCTAssertEqual(points, Self.sessions * Self.pointsEach, "every point read")
        XCTAssertEqual(workouts, Self.sessions)
        // A batch ends after the row that filled it: at most one session more than its size.
        let oneSession = Self.pointsEach + 10
        for (index, size) in sizes.enumerated() {
            XCTAssertLessThanOrEqual(size.items + size.nested, Self.batchSize + oneSession,
                                     "batch \(index) of \(sizes.count): \(size.items) items holding \(size.nested) points and events")
        }
        XCTAssertGreaterThanOrEqual(sizes.filter { $0.nested > 0 }.count, 2, "the routes came in more than one batch")
    }
}
