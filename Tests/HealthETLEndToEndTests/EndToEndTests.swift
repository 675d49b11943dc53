import XCTest
import HealthCore
import HealthStore
@testable import HealthQL
@testable import SQLite
import TestSupport

/// HealthQL on a store imported from a generated export, against answers computed without
/// HealthQL: the generator's truth (from its own sample model) or plain SQL plus Swift.
final class EndToEndTests: XCTestCase {
    var store: SharedStore!
    var engine: QueryEngine!

    override func setUpWithError() throws {
        store = try SharedStore.get()
        engine = try store.engine()
    }

    /// first column (text) → second column (number).
    func keyed(_ rows: [[SQLValue]]) -> [String: Double] {
        Dictionary(rows.map { ($0[0].string ?? "", $0[1].double ?? .nan) }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: no double counting

    func testStepsByDayEqualDailyAnalyticsAndTheTruth() throws {
        let expected = keyed(try store.sql("SELECT date, steps FROM daily_analytics WHERE steps IS NOT NULL"))
        XCTAssertGreaterThan(expected.count, 30)
        for name in ["steps", "step_count", "HKQuantityTypeIdentifierStepCount"] {
            let result = try engine.run("SELECT sum(value) FROM \(name) GROUP BY day")
            XCTAssertEqual(result.columns.map(\.name), ["day", "sum(value)"])
            XCTAssertEqual(keyed(result.rows), expected, name)
        }
        let truth = try XCTUnwrap(store.truth()["days"] as? [String: [String: Double]])
        let got = keyed(try engine.run("SELECT sum(value) FROM steps GROUP BY day").rows)
        for (day, values) in truth {
            XCTAssertEqual(got[day] ?? -1, values["steps"] ?? 0, accuracy: 0.5 + 1e-9, day)
        }
        // Raw samples double count (iPhone and Watch overlap): the merged answer is smaller.
        let raw = try store.sql("SELECT sum(value) FROM samples WHERE type = 'HKQuantityTypeIdentifierStepCount'")[0][0].double ?? 0
        XCTAssertGreaterThan(raw, got.values.reduce(0, +) * 1.05)
    }

    /// Issue 45: the README documents `partial_day`; HealthQL (and so the MCP server) has it.
    func testPartialDaysAreAFieldOfDaily() throws {
        let result = try engine.run("SELECT date, partial_day FROM daily WHERE partial_day = 1 ORDER BY date")
        let plain = try store.sql("SELECT date FROM daily_analytics WHERE partial_day = 1 ORDER BY date")
        XCTAssertEqual(result.rows.map { $0[0].string ?? "" }, plain.map { $0[0].string ?? "" })
        XCTAssertGreaterThanOrEqual(result.rows.count, 1, "the first day of data is partial")
        let all = try engine.run("SELECT * FROM daily LIMIT 1")
        XCTAssertTrue(all.columns.map(\.name).contains("partial_day"), "\(all.columns.map(\.name))")
    }

    func testStepsByWeekMonthAndYearEqualThePeriodTables() throws {
        XCTAssertEqual(keyed(try engine.run("SELECT sum(value) FROM steps GROUP BY week").rows),
                       keyed(try store.sql("SELECT week_start, steps FROM weekly_analytics WHERE steps IS NOT NULL")))
        XCTAssertEqual(keyed(try engine.run("SELECT sum(value) FROM steps GROUP BY month").rows),
                       keyed(try store.sql("SELECT substr(start_date, 1, 7), steps FROM monthly_analytics WHERE steps IS NOT NULL")))
        XCTAssertEqual(keyed(try engine.run("SELECT sum(value) FROM steps GROUP BY year").rows),
                       keyed(try store.sql("SELECT CAST(year AS TEXT), steps FROM yearly_analytics WHERE steps IS NOT NULL")))
        XCTAssertEqual(try engine.run("SELECT sum(value) FROM steps").rows[0][0].double,
                       try store.sql("SELECT sum(steps) FROM daily_analytics")[0][0].double)
    }

    func testStepsByHourAddUpToEachDay() throws {
        let result = try engine.run("SELECT hour, sum(value) FROM steps GROUP BY hour")
        XCTAssertTrue(result.sql.contains("hourly_metrics"), result.sql)
        var perDay: [String: Double] = [:]
        for row in result.rows {
            let hour = try XCTUnwrap(row[0].string)
            XCTAssertTrue(hour.hasSuffix(":00") && hour.count == 16, hour)
            perDay[String(hour.prefix(10)), default: 0] += row[1].double ?? 0
        }
        let days = keyed(try store.sql("SELECT date, sum FROM daily_metrics WHERE type = 'HKQuantityTypeIdentifierStepCount'"))
        XCTAssertEqual(Set(perDay.keys), Set(days.keys))
        for (day, total) in days { XCTAssertEqual(perDay[day] ?? 0, total, accuracy: 1e-6 * max(1, total), day) }
    }

    // MARK: discrete types, sleep, workouts

    func testAverageHeartRateByWeekMatchesPlainSQL() throws {
        let rows = try store.sql("""
            SELECT s.local_day, s.value FROM sample_data s JOIN types t ON t.id = s.type_id
            WHERE t.identifier = 'HKQuantityTypeIdentifierHeartRate'
            """)
        var sums: [String: (Double, Int)] = [:]
        for row in rows {
            let day = CivilDate(daysSinceEpoch: Int(row[0].int ?? 0))
            let monday = day.adding(days: -day.weekdayFromMonday).iso8601
            let v = row[1].double ?? 0
            sums[monday] = ((sums[monday]?.0 ?? 0) + v, (sums[monday]?.1 ?? 0) + 1)
        }
        let result = try engine.run("SELECT week, avg(value), count(*) FROM heart_rate GROUP BY week")
        XCTAssertEqual(result.rows.count, sums.count)
        for row in result.rows {
            let week = try XCTUnwrap(row[0].string)
            let (sum, count) = try XCTUnwrap(sums[week], week)
            XCTAssertEqual(row[1].double ?? 0, sum / Double(count), accuracy: 1e-9, week)
            XCTAssertEqual(row[2].int, Int64(count), week)
        }
    }

    func testSleepNightsMatchTheTruth() throws {
        let truth = try XCTUnwrap(store.truth()["days"] as? [String: [String: Double]])
        let result = try engine.run("SELECT date, asleep, deep, rem FROM sleep ORDER BY date")
        var checked = 0
        for row in result.rows {
            guard let day = row[0].string, let want = truth[day], let total = want["sleep_total_minutes"], total > 0 else { continue }
            XCTAssertEqual(row[1].double ?? 0, total, accuracy: total * 0.005, day)
            XCTAssertEqual(row[2].double ?? 0, want["sleep_deep_minutes"] ?? 0, accuracy: max(1e-6, total * 0.005), day)
            XCTAssertEqual(row[3].double ?? 0, want["sleep_rem_minutes"] ?? 0, accuracy: max(1e-6, total * 0.005), day)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 25)
        let avg = try engine.run("SELECT avg(value) FROM sleep WHERE date >= '2024-03-10'").rows[0][0].double ?? 0
        let plain = try store.sql("SELECT avg(asleep_minutes) FROM sleep_sessions WHERE night_date >= '2024-03-10'")[0][0].double ?? 1
        XCTAssertEqual(avg, plain, accuracy: 1e-9)
    }

    func testWorkoutsByType() throws {
        let result = try engine.run("SELECT type, count(*), sum(distance) FROM workouts GROUP BY type ORDER BY type")
        // Each workout once: a copy recorded by a second app (Strava's of a Watch ride) is left out (issue 44).
        let plain = try store.sql("SELECT activity_type, count(*), sum(distance_m) FROM counted_workouts GROUP BY 1 ORDER BY 1")
        XCTAssertEqual(result.rows.map { $0[0].string ?? "" },
                       plain.map { ValueLabels.label($0[0].string ?? "") })
        XCTAssertEqual(result.rows.map { $0[1] }, plain.map { $0[1] })
        // The truth's kinds, by their short names.
        let byType = try XCTUnwrap(store.truth()["workouts_counted_by_type"] as? [String: Int])
        let counts = Dictionary(uniqueKeysWithValues: result.rows.map { ($0[0].string ?? "", Int($0[1].int ?? 0)) })
        for (kind, name) in [("run", "running"), ("cycle", "cycling"), ("swim", "swimming")] where byType[kind] != nil {
            XCTAssertEqual(counts[name] ?? 0, byType[kind]!, name)
        }
        let running = try engine.run("SELECT count(*) FROM workouts WHERE type = 'running' AND duration > 10min").rows[0][0].int
        XCTAssertEqual(running, try store.sql("""
            SELECT count(*) FROM workouts WHERE activity_type = 'HKWorkoutActivityTypeRunning' AND duration_min > 10
            """)[0][0].int)
    }

    // MARK: joins and names

    func testJoinSleepWithNextDaySteps() throws {
        let result = try engine.run("""
            SELECT sleep.date, sleep.asleep, steps.value FROM sleep JOIN steps ON steps.date = sleep.date + 1d
            ORDER BY sleep.date
            """)
        let plain = try store.sql("""
            SELECT s.night_date, s.asleep_minutes, m.sum FROM sleep_sessions s JOIN daily_metrics m
              ON m.type = 'HKQuantityTypeIdentifierStepCount' AND m.date = date(s.night_date, '+1 day')
            ORDER BY s.night_date
            """)
        XCTAssertGreaterThan(plain.count, 25)
        XCTAssertEqual(result.rows.count, plain.count)
        for (a, b) in zip(result.rows, plain) {
            XCTAssertEqual(a[0], b[0])
            XCTAssertEqual(a[1].double ?? 0, b[1].double ?? 1, accuracy: 1e-9)
            XCTAssertEqual(a[2].double ?? 0, b[2].double ?? 1, accuracy: 1e-9)
        }
        let averaged = try engine.run("SELECT avg(steps.value) FROM sleep JOIN steps ON steps.date = sleep.date + 1d WHERE sleep.asleep > 420")
        let expected = plain.filter { ($0[1].double ?? 0) > 420 }.map { $0[2].double ?? 0 }
        XCTAssertEqual(averaged.rows[0][0].double ?? 0, expected.reduce(0, +) / Double(expected.count), accuracy: 1e-6)
    }

    func testCategoryValuesByName() throws {
        func plain(_ identifiers: [String]) throws -> Int64? {
            try store.sql("SELECT count(*) FROM samples WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis' AND category_value IN ("
                          + identifiers.map { _ in "?" }.joined(separator: ",") + ")", identifiers.map { .text($0) })[0][0].int
        }
        let deep = try engine.run("SELECT count(*) FROM sleep_analysis WHERE value = 'deep'").rows[0][0].int
        XCTAssertEqual(deep, try plain(["HKCategoryValueSleepAnalysisAsleepDeep"]))
        XCTAssertGreaterThan(deep ?? 0, 0)
        let stages = try engine.run("SELECT count(*) FROM sleep_analysis WHERE value IN ('rem', 'asleep_core')").rows[0][0].int
        XCTAssertEqual(stages, try plain(["HKCategoryValueSleepAnalysisAsleepREM", "HKCategoryValueSleepAnalysisAsleepCore"]))
        let listed = try engine.run("SELECT value FROM sleep_analysis WHERE value = 'awake' LIMIT 1")
        XCTAssertEqual(listed.rows.first?.first, .text("awake"))
        // Severity of symptoms by name.
        XCTAssertEqual(try engine.run("SELECT count(*) FROM headache WHERE value = 'moderate'").rows[0][0].int, 1)
        XCTAssertThrowsError(try engine.run("SELECT * FROM headache WHERE value = 'severe'")) { error in
            XCTAssertEqual((error as? HealthQLError)?.message, "Unknown value 'severe'. (stored: moderate)")
        }
        XCTAssertThrowsError(try engine.run("SELECT * FROM sleep_analysis WHERE value = 'deeep'")) { error in
            XCTAssertTrue((error as? HealthQLError)?.message.hasPrefix("Unknown value 'deeep'. Did you mean 'deep'?") ?? false, "\(error)")
        }
        XCTAssertTrue(ValueLabels.matches("severe", "HKCategoryValueSeveritySevere"))
        XCTAssertEqual(ValueLabels.label("HKWorkoutActivityTypeTraditionalStrengthTraining"), "traditional_strength_training")
    }

    // MARK: statistics

    /// Percentiles by numpy's default rule, written here independently of HealthQL's.
    static func numpyPercentile(_ values: [Double], _ q: Double) -> Double {
        let s = values.sorted()
        let position = q * Double(s.count - 1)
        let i = Int(position), f = position - Double(i)
        return i + 1 < s.count ? s[i] * (1 - f) + s[i + 1] * f : s[i]
    }

    func testPercentilesAndSpreadAgainstAnIndependentComputation() throws {
        let values = try store.sql("SELECT value FROM samples WHERE type = 'HKQuantityTypeIdentifierHeartRate'").map { $0[0].double ?? 0 }
        XCTAssertGreaterThan(values.count, 500)
        let row = try engine.run("SELECT p50(value), p90(value), p95(value), p99(value), stddev(value), variance(value) FROM heart_rate").rows[0]
        for (i, q) in [0.5, 0.9, 0.95, 0.99].enumerated() {
            XCTAssertEqual(row[i].double ?? 0, Self.numpyPercentile(values, q), accuracy: 1e-9, "p\(q)")
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)
        XCTAssertEqual(row[5].double ?? 0, variance, accuracy: 1e-6)
        XCTAssertEqual(row[4].double ?? 0, variance.squareRoot(), accuracy: 1e-6)
        // Per group as well.
        let weekly = try engine.run("SELECT week, p90(value) FROM heart_rate GROUP BY week")
        XCTAssertGreaterThan(weekly.rows.count, 3)
    }

    // MARK: clauses

    func testHavingOrderByAndLimit() throws {
        let result = try engine.run("SELECT day, sum(value) AS total FROM steps GROUP BY day HAVING total > 8000 ORDER BY total DESC LIMIT 3")
        let plain = try store.sql("SELECT date, steps FROM daily_analytics WHERE steps > 8000 ORDER BY steps DESC, date LIMIT 3")
        XCTAssertEqual(result.rows.map { $0[1].double }, plain.map { $0[1].double })
        XCTAssertEqual(result.rows.count, 3)
        let ascending = try engine.run("SELECT date, steps FROM daily ORDER BY steps ASC LIMIT 2")
        XCTAssertEqual(ascending.rows.map { $0[1] }, try store.sql("SELECT steps FROM daily_analytics ORDER BY steps LIMIT 2").map { $0[0] })
        XCTAssertEqual(try engine.run("SELECT * FROM steps LIMIT 0").rows.count, 0)
    }

    func testInAndIsNull() throws {
        let sources = try store.sql("SELECT DISTINCT source_name FROM samples WHERE type = 'HKQuantityTypeIdentifierStepCount' ORDER BY 1")
            .compactMap { $0[0].string }
        XCTAssertGreaterThan(sources.count, 1)
        let two = Array(sources.prefix(2))
        let quoted = two.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ", ")
        let inList = try engine.run("SELECT count(*) FROM steps WHERE source IN (\(quoted))").rows[0][0].int
        let plainIn = try store.sql("SELECT count(*) FROM samples WHERE type = 'HKQuantityTypeIdentifierStepCount' AND source_name IN (?, ?)",
                                    two.map { .text($0) })[0][0].int
        XCTAssertEqual(inList, plainIn)
        let notIn = try engine.run("SELECT count(*) FROM steps WHERE source NOT IN (\(quoted))").rows[0][0].int
        let all = try engine.run("SELECT count(*) FROM steps").rows[0][0].int
        XCTAssertEqual((inList ?? 0) + (notIn ?? 0), all)
        let noDistance = try engine.run("SELECT count(*) FROM workouts WHERE distance IS NULL").rows[0][0].int
        XCTAssertEqual(noDistance, try store.sql("SELECT count(*) FROM workouts WHERE distance_m IS NULL")[0][0].int)
        let withDevice = try engine.run("SELECT count(*) FROM steps WHERE device IS NOT NULL").rows[0][0].int
        XCTAssertEqual(withDevice, try store.sql("""
            SELECT count(*) FROM samples WHERE type = 'HKQuantityTypeIdentifierStepCount' AND device_model IS NOT NULL
            """)[0][0].int)
        let bySource = try engine.run("SELECT source, sum(value) FROM steps GROUP BY source")
        XCTAssertEqual(bySource.rows.count, sources.count)
    }

    func testTimeFunctionsAndDurationsInTheStoreZone() throws {
        // "Now" is noon UTC on 2024-03-20: today() is that local day in Berlin.
        let now = Date(timeIntervalSince1970: TimeInterval(CivilDate(year: 2024, month: 3, day: 20).daysSinceEpoch) * 86_400 + 12 * 3600)
        let week = try engine.run("SELECT count(*) FROM steps WHERE date >= today() - 7d AND date < today()", now: now).rows[0][0].int
        let from = CivilDate(year: 2024, month: 3, day: 13).daysSinceEpoch, to = CivilDate(year: 2024, month: 3, day: 20).daysSinceEpoch
        XCTAssertEqual(week, try store.sql("""
            SELECT count(*) FROM sample_data WHERE type_id = (SELECT id FROM types WHERE identifier = 'HKQuantityTypeIdentifierStepCount')
              AND local_day >= ? AND local_day < ?
            """, [.integer(Int64(from)), .integer(Int64(to))])[0][0].int)
        let twelveHours = try engine.run("SELECT count(*) FROM heart_rate WHERE date > now() - 12h AND date <= now()", now: now).rows[0][0].int
        let nowUS = Int64(now.timeIntervalSince1970) * 1_000_000
        XCTAssertEqual(twelveHours, try store.sql("""
            SELECT count(*) FROM sample_data WHERE type_id = (SELECT id FROM types WHERE identifier = 'HKQuantityTypeIdentifierHeartRate')
              AND start_us > ? AND start_us <= ?
            """, [.integer(nowUS - 12 * 3_600_000_000), .integer(nowUS)])[0][0].int)
        let month = try engine.run("SELECT count(*) FROM daily WHERE date >= start_of_month()", now: now).rows[0][0].int
        XCTAssertEqual(month, try store.sql("SELECT count(*) FROM daily_analytics WHERE date >= '2024-03-01'")[0][0].int)
        // 2024-03-18 is a Monday.
        let sinceMonday = try engine.run("SELECT min(date) FROM daily WHERE date >= start_of_week()", now: now).rows[0][0]
        XCTAssertEqual(sinceMonday, .text("2024-03-18"))
        let literal = try engine.run("SELECT count(*) FROM daily WHERE date >= '2024-03-10' AND date < '2024-03-10' + 1w")
        XCTAssertEqual(literal.rows[0][0].int, 7)
    }

    // MARK: the command line

    func testQueryCommandFormats() throws {
        let text = "SELECT day, sum(value) FROM steps GROUP BY day LIMIT 3"
        let csv = try runProcess(TestPaths.binary, ["query", text, "--out", store.out, "--format", "csv"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let lines = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        XCTAssertEqual(lines.first, "day,sum(value)")
        XCTAssertEqual(lines.count, 4)
        let first = try store.sql("SELECT date, steps FROM daily_analytics WHERE steps IS NOT NULL ORDER BY date LIMIT 1")[0]
        XCTAssertEqual(lines[1], "\(first[0].string!),\(first[1].int!)")

        let json = try runProcess(TestPaths.binary, ["query", text, "--out", store.out, "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let objects = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(objects.count, 3)
        XCTAssertEqual(objects[0]["day"] as? String, first[0].string)
        XCTAssertEqual((objects[0]["sum(value)"] as? NSNumber)?.int64Value, first[1].int)

        let table = try runProcess(TestPaths.binary, ["query", text, "--out", store.out])
        XCTAssertEqual(table.status, 0, table.stderr)
        let tableLines = table.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(tableLines[0], "day         sum(value)")
        XCTAssertTrue(tableLines[1].hasPrefix("----------  ----------"))
        XCTAssertTrue(tableLines[2].hasSuffix(ResultFormatter.grouped(first[1].int!)), tableLines[2])
        XCTAssertTrue(tableLines.last?.range(of: #"^3 rows \([0-9.]+ ms\)$"#, options: .regularExpression) != nil, tableLines.last ?? "")

        let typo = try runProcess(TestPaths.binary, ["query", "SELECT * FROM stepz", "--out", store.out])
        XCTAssertEqual(typo.status, 64)
        XCTAssertTrue(typo.stderr.contains("line 1, column 15: Unknown type 'stepz'. Did you mean 'steps'?"), typo.stderr)
        XCTAssertTrue(typo.stderr.contains("              ^"), typo.stderr)
        let format = try runProcess(TestPaths.binary, ["query", text, "--out", store.out, "--format", "xml"])
        XCTAssertEqual(format.status, 64)
        let missing = try runProcess(TestPaths.binary, ["query", text, "--out", store.folder.path + "/nothing"])
        XCTAssertEqual(missing.status, 66)
    }

    func testTableFormatting() {
        XCTAssertEqual(ResultFormatter.grouped(1_234_567), "1,234,567")
        XCTAssertEqual(ResultFormatter.grouped(-1000), "-1,000")
        XCTAssertEqual(ResultFormatter.tableCell(.real(12345.678), numeric: true), "12,345.68")
        XCTAssertEqual(ResultFormatter.tableCell(.real(-0.5), numeric: true), "-0.50")
        XCTAssertEqual(ResultFormatter.csvCell(.text("a,\"b\"")), "\"a,\"\"b\"\"\"")
        XCTAssertEqual(ResultFormatter.csvCell(.text("-2+3")), "\"'-2+3\"", "a text that starts a formula is guarded")
        XCTAssertEqual(ResultFormatter.csvCell(.integer(-5)), "-5", "a number is not")
        XCTAssertEqual(ResultFormatter.csvCell(.real(-2.5)), "-2.5")
        XCTAssertEqual(JSONText.quoted("é\"\n"), "\"é\\\"\\n\"")
    }
}
