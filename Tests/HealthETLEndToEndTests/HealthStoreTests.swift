import XCTest
@testable import HealthCore
@testable import HealthEmit
@testable import HealthStore
import SQLite
import TestSupport

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
