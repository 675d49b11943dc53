import XCTest
@testable import HealthCore
@testable import HealthStore
import SQLite

/// The store's own contract: the settings line, read back typed, and the run history.
final class StoreContractTests: XCTestCase {
    func testSettingsLineIsTheStoredFormatAndReadsBack() throws {
        let settings = StoreSettings(zone: "Asia/Seoul", priority: ["Watch", "iPhone"],
                                     heartbeatMaxGapMinutes: 12.5, weekStart: 6, schema: 7)
        // The stored format stores of earlier versions hold: an incremental run compares it.
        XCTAssertEqual(settings.line,
                       "schema=7;zone=Asia/Seoul;priority=Watch|iPhone;heartbeatGap=12.5;weekStart=6")
        XCTAssertEqual(StoreSettings(line: settings.line), settings)
        XCTAssertNil(StoreSettings(line: "not=ours"))

        let db = try Database(path: ":memory:")
        try db.execute(StoreSchema.tables)
        XCTAssertNil(try StoreSettings.stored(in: db))
        try settings.save(in: db)
        XCTAssertEqual(try StoreSettings.stored(in: db), settings)
        XCTAssertTrue(try settings.match(db))
        var other = settings
        other.weekStart = 0
        XCTAssertFalse(try other.match(db))
    }

    func testRunHistoryReadsTheRunsTheLogRecorded() throws {
        let db = try Database(path: ":memory:")
        try db.execute(StoreSchema.tables)
        let store = HealthStore(database: db)
        XCTAssertTrue(try store.hasRunLog())
        XCTAssertNil(try store.lastRun())
        XCTAssertNil(try store.lastRunID())
        for (i, zone) in ["Europe/Berlin", "Asia/Seoul"].enumerated() {
            try RunRecord(startedUTC: "2024-01-0\(i + 1)T00:00:00Z", finishedUTC: "2024-01-0\(i + 1)T00:01:00Z",
                          input: "export\(i).zip", inputKind: "zip", inputBytes: 10, status: "ok", elements: 5,
                          recordsRead: 4 + i, samples: 3, duplicates: 1, quarantined: i, workouts: 0, routePoints: 0,
                          unknownElements: "{}", repaired: "", seconds: 1.26, timeZone: zone, mode: i == 0 ? "full" : "incremental",
                          newSamples: 3 - i, skippedByAnchor: i).record(in: db)
        }
        let runs = try store.recentRuns(limit: 5)
        XCTAssertEqual(runs.map(\.input), ["export1.zip", "export0.zip"])
        XCTAssertEqual(runs.first?.mode, "incremental")
        XCTAssertEqual(runs.first?.recordsRead, 5)
        XCTAssertEqual(runs.first?.seconds, 1.3)   // rounded to a tenth, as status shows it
        XCTAssertEqual(try store.lastRunID(), 2)
        XCTAssertEqual(try store.lastRun()?.timeZone, "Asia/Seoul")
        XCTAssertEqual(try store.analyticsZoneName(), "Asia/Seoul")   // no settings: the last run's zone
        try StoreSettings(zone: "America/Denver", priority: [], heartbeatMaxGapMinutes: 30, weekStart: 0).save(in: db)
        XCTAssertEqual(try store.analyticsZoneName(), "America/Denver")
    }
}
