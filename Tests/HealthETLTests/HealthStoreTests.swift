import XCTest
@testable import HealthCore
@testable import HealthEmit
@testable import HealthStore
import SQLite

/// The library query API over a store imported from the bundled sample; expected values come
/// from plain SQL on the same store.
final class HealthStoreTests: XCTestCase {
    var storePath = ""

    override func setUpWithError() throws {
        let out = try temporaryFolder(self).appendingPathComponent("out").path
        let result = try healthetl(["import", TestPaths.packageRoot.path + "/sample-data/export.xml", "--out", out,
                                    "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(result.status, 0, result.stderr)
        storePath = out + "/health.sqlite"
    }

    func sql(_ q: String) throws -> String { try query(storePath, q).first ?? "" }
    func d(_ s: String) -> CivilDate { CivilDate(iso: s)! }

    func testDaysWeeksMonthsYears() throws {
        let store = try HealthStore(path: storePath)
        let day = try XCTUnwrap(store.daily(on: d("2024-03-25")))
        XCTAssertEqual(day.metrics[.steps], Double(try sql("SELECT steps FROM daily_analytics WHERE date = '2024-03-25'")))
        XCTAssertNil(try store.daily(on: d("2023-01-01")))
        XCTAssertEqual(try store.daily(from: d("2024-03-25"), through: d("2024-03-31")).map(\.date.iso8601),
                       (25...31).map { "2024-03-\($0)" })
        let all = try store.allDaily()
        XCTAssertEqual(all.count, Int(try sql("SELECT count(*) FROM daily_analytics")))
        XCTAssertEqual(try store.latestDaily()?.date.iso8601, try sql("SELECT max(date) FROM daily_analytics"))

        let week = try XCTUnwrap(store.week(containing: d("2024-03-27")))   // a Wednesday
        XCTAssertEqual([week.start, week.end], [d("2024-03-25"), d("2024-03-31")])
        XCTAssertEqual(week.metrics[.steps], try store.daily(from: week.start, through: week.end).compactMap { $0.metrics[.steps] }.reduce(0, +))
        XCTAssertEqual(try store.weeks(from: d("2024-03-27"), through: d("2024-04-02")).map(\.start), [d("2024-03-25"), d("2024-04-01")])
        let weeks = try store.allWeeks()
        XCTAssertEqual(weeks.map(\.daysWithData).reduce(0, +), all.count)
        XCTAssertEqual(try store.latestWeek()?.start, weeks.last?.start)

        let march = try XCTUnwrap(store.month(year: 2024, month: 3))
        XCTAssertEqual([march.start, march.end], [d("2024-03-01"), d("2024-03-31")])
        XCTAssertEqual(try store.months(inYear: 2024).map(\.start.month), [3, 4])
        XCTAssertEqual(try store.allMonths().count, 2)
        XCTAssertEqual(try store.latestMonth()?.start, d("2024-04-01"))

        let year = try XCTUnwrap(store.year(2024))
        XCTAssertEqual(year.metrics[.steps], all.compactMap { $0.metrics[.steps] }.reduce(0, +))
        XCTAssertEqual(year.daysWithData, all.count)
        XCTAssertNil(try store.year(2023))
        XCTAssertEqual(try store.allYears().map(\.start.year), [2024])
        XCTAssertEqual(try store.latestYear()?.end, d("2024-12-31"))

        let night = try XCTUnwrap(store.sleepNight(morning: d("2024-03-25")))
        XCTAssertEqual(night.asleepMinutes, try XCTUnwrap(day.metrics[.sleepTotalMinutes]), accuracy: 1e-9)
        XCTAssertLessThan(night.start, night.end)
    }

    func testProfileUpdateAndClearingAnalyticsKeepsIt() throws {
        let reader = try HealthStore(path: storePath)
        let imported = try XCTUnwrap(reader.profile())
        XCTAssertEqual(imported.dateOfBirth?.iso8601, try sql("SELECT date_of_birth FROM profile"))
        let store = try HealthStore(path: storePath, writable: true)
        var changed = imported
        changed.dateOfBirth = d("1990-02-03")
        changed.bloodType = "HKBloodTypeONegative"
        try store.updateProfile(changed)
        XCTAssertEqual(try store.profile(), changed)
        try store.clearAnalytics()
        XCTAssertEqual(try store.allDaily().count, 0)
        XCTAssertEqual(try store.allYears().count, 0)
        XCTAssertEqual(try sql("SELECT count(*) FROM sleep_sessions"), "0")
        XCTAssertEqual(try store.profile(), changed)
        XCTAssertNotEqual(try sql("SELECT count(*) FROM sample_data"), "0")
        XCTAssertThrowsError(try reader.updateProfile(changed), "a read-only store refuses writes")
    }
}

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
