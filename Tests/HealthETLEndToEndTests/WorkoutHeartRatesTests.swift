import XCTest
@testable import HealthAnalytics
@testable import HealthStore
@testable import SQLite
import TestSupport

/// The workout heart rates gathered from the series of a generated export's import equal the
/// store's own query (the in-process tallies: HealthAnalyticsTests' SeriesTalliesTests).
final class WorkoutHeartRatesTests: XCTestCase {
    /// Each workout's heart rate from the series equals the store's query for it: positive
    /// readings starting inside the workout, in (start, id) order, of every source.
    func testWorkoutHeartRatesOfTheSeriesAreTheStoresOwn() throws {
        let dir = try temporaryFolder(self)
        let export = dir.appendingPathComponent("export.xml").path
        try generateExport(["--out", export, "--days", "20", "--seed", "31"])
        let out = dir.appendingPathComponent("out").path
        let r = try healthetl(["import", export, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let database = try Database(path: out + "/health.sqlite", mode: .readOnly)
        let reader = SeriesReader(database: database)
        var gathered = try WorkoutHeartRates(database: database)
        for (id, identifier) in try reader.types() {
            try reader.forEachBatch(typeID: id, starting: nil, batchSize: 100) { gathered.add(type: identifier, $0) }
        }
        let store = VitalsStore(database: database)
        let workouts = try store.workouts(days: nil)
        XCTAssertGreaterThan(workouts.count, 3)
        var readings = 0
        for w in workouts {
            guard let start = w.start, let end = w.end, end.microseconds >= start.microseconds else { continue }
            let expected = try store.heartRates(from: start, to: end)
            let got = try XCTUnwrap(gathered.rates[w.id], "workout \(w.id)")
            XCTAssertEqual(got.map(\.start), expected.map(\.start), "workout \(w.id)")
            XCTAssertEqual(got.map(\.bpm), expected.map(\.bpm), "workout \(w.id)")
            readings += got.count
        }
        XCTAssertGreaterThan(readings, 100)
    }
}
