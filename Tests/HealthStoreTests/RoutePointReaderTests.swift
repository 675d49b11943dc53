import Foundation
import XCTest
@testable import HealthStore
import SQLite

/// Issue 56: a workout's route points were found by a join that scanned every route, once per
/// workout: 5,000 routed workouts cost 1.6 s, 20,000 23 s (the square). Each route is found by
/// its workout in a table read once, its points by the route's index.
final class RoutePointReaderTests: XCTestCase {
    func testEachWorkoutsPointsAreFoundWithoutAScanOfTheRoutes() throws {
        let db = try Database(path: ":memory:")
        try db.execute(StoreSchema.tables)
        let workouts = 60_000
        // Workout i has route i with one point at latitude i; workout 7 a second route (its
        // points after the first's), with two points in the order they were written.
        try db.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(workouts))
            INSERT INTO workout_routes (id, workout_id) SELECT i, i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(workouts))
            INSERT INTO workout_route_points (route_id, latitude, longitude) SELECT i, i, 0 FROM n;
            INSERT INTO workout_routes (id, workout_id) VALUES (\(workouts + 1), 7);
            INSERT INTO workout_route_points (route_id, latitude, longitude) VALUES (\(workouts + 1), -2, 0), (\(workouts + 1), -1, 0);
            """)
        try db.execute(StoreSchema.indexes)
        let read = try VitalsStore(database: db).routePointReader()
        let started = Date()
        var wrong: [Int] = []
        for workout in 1...workouts {
            var latitudes: [Double] = []
            try read(Int64(workout)) { latitude, _, _ in latitudes.append(latitude) }
            if latitudes != (workout == 7 ? [7, -2, -1] : [Double(workout)]) { wrong.append(workout) }
        }
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(wrong, [])
        var none: [Double] = []
        try read(Int64(workouts + 5)) { latitude, _, _ in none.append(latitude) }
        XCTAssertEqual(none, [], "a workout without a route")
        // By index, well under a second; the scans took over a minute.
        XCTAssertLessThan(seconds, 15, "\(workouts) workouts' routes read in \(seconds) s")
    }
}
