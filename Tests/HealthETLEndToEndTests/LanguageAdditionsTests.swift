import XCTest
import HealthCore
@testable import HealthQL
@testable import SQLite
import TestSupport

/// Issue 34's additions to the language: BETWEEN, LIKE, relative periods counted from the data,
/// numbers by column kind, suggestions for names written short, the note on sample-level
/// filters, and tables that count display columns.
final class LanguageAdditionsTests: XCTestCase {
    // MARK: parser

    func testBetweenIsBothBoundsIncluded() throws {
        let q = try Parser.parse("SELECT * FROM daily WHERE steps BETWEEN 8000 AND 10000 AND date > '2024-01-01'")
        XCTAssertEqual(q.filter?.text, "(steps >= 8000) AND (steps <= 10000) AND (date > '2024-01-01')")
        let negated = try Parser.parse("SELECT * FROM daily WHERE steps NOT BETWEEN 1 AND 2")
        XCTAssertEqual(negated.filter?.text, "NOT ((steps >= 1) AND (steps <= 2))")
        // The printed text reads back to the same tree.
        XCTAssertEqual(try Parser.parse(negated.description), negated)
        XCTAssertThrowsError(try Parser.parse("SELECT * FROM daily WHERE steps BETWEEN 1 OR 2")) { error in
            XCTAssertEqual((error as? HealthQLError)?.message, "Expected AND after BETWEEN 1 but found 'OR'.")
        }
        XCTAssertTrue((try? Parser.parse("SELECT * FROM daily WHERE steps BETWEEN 1")) == nil)
        do { _ = try Parser.parse("SELECT * FROM daily WHERE steps BETWEEN 1"); XCTFail() } catch { XCTAssertTrue(error.isIncomplete) }
    }

    func testLikeAndNotLike() throws {
        let q = try Parser.parse("SELECT * FROM steps WHERE source LIKE '%Watch%' AND source NOT LIKE 'i%'")
        XCTAssertEqual(q.filter?.text, "(source LIKE '%Watch%') AND (NOT (source LIKE 'i%'))")
        XCTAssertEqual(try Parser.parse(q.description), q)
        XCTAssertTrue(LikePattern.matches("run%", "running"))
        XCTAssertTrue(LikePattern.matches("%ING", "running"))
        XCTAssertTrue(LikePattern.matches("r_n%g", "running"))
        XCTAssertFalse(LikePattern.matches("run", "running"))
        XCTAssertFalse(LikePattern.matches("%x%", "running"))
        XCTAssertTrue(LikePattern.matches("%", ""))
    }

    func testRelativePeriodsAreRangesFromToday() throws {
        func filter(_ period: String) throws -> String? { try Parser.parse("SELECT * FROM daily WHERE date IN \(period)").filter?.text }
        XCTAssertEqual(try filter("LAST 4 WEEKS"), "(date >= (today() - 4w + 1d)) AND (date <= today())")
        XCTAssertEqual(try filter("last 7 days"), "(date >= (today() - 7d + 1d)) AND (date <= today())")
        XCTAssertEqual(try filter("LAST 1 MONTH"), "(date >= (today() - 1mo + 1d)) AND (date <= today())")
        XCTAssertEqual(try filter("THIS MONTH"), "(date >= start_of_month()) AND (date <= today())")
        XCTAssertEqual(try filter("THIS YEAR"), "(date >= start_of_year()) AND (date <= today())")
        XCTAssertEqual(try filter("LAST WEEK"), "(date >= (start_of_week() - 1w)) AND (date <= (start_of_week() - 1d))")
        XCTAssertEqual(try filter("LAST MONTH"), "(date >= (start_of_month() - 1mo)) AND (date <= (start_of_month() - 1d))")
        XCTAssertEqual(try Parser.parse("SELECT * FROM daily WHERE date NOT IN THIS WEEK").filter?.text,
                       "NOT ((date >= start_of_week()) AND (date <= today()))")
        let errors: [(String, String)] = [
            ("LAST 0 WEEKS", "Expected a whole number of periods (1 to 10000) after LAST"),
            ("LAST 2.5 WEEKS", "Expected a whole number of periods (1 to 10000) after LAST"),
            ("LAST 4 FORTNIGHTS", "Expected DAYS, WEEKS, MONTHS or YEARS after LAST 4 but found 'FORTNIGHTS'"),
            ("THIS DAY", "Use LAST 1 DAY or today() for a single day"),
        ]
        for (period, message) in errors {
            XCTAssertThrowsError(try Parser.parse("SELECT * FROM daily WHERE date IN \(period)"), period) { error in
                XCTAssertEqual((error as? HealthQLError)?.message, message)
            }
        }
        do { _ = try Parser.parse("SELECT * FROM daily WHERE date IN LAST 4"); XCTFail() } catch { XCTAssertTrue(error.isIncomplete) }
    }

    func testNamesWrittenShortGetASuggestion() throws {
        let store = try SharedStore.get()
        XCTAssertEqual(Suggestion.closest(to: "resting_hr", in: SourceCatalog.allNames), "resting_heart_rate")
        XCTAssertEqual(Suggestion.closest(to: "rest_hr", in: SourceCatalog.allNames), "resting_heart_rate")
        XCTAssertEqual(Suggestion.closest(to: "hr_var", in: ["heart_rate", "heart_rate_variability_sdnn", "hrv"]), "heart_rate_variability_sdnn")
        XCTAssertEqual(Suggestion.closest(to: "walk_dist", in: ["steps", "walking_distance_m", "running_distance_m"]), "walking_distance_m")
        XCTAssertEqual(Suggestion.closest(to: "stepz", in: SourceCatalog.allNames), "steps", "typos still win")
        XCTAssertNil(Suggestion.closest(to: "zq", in: SourceCatalog.allNames))
        let functions = AggregateFunction.allCases.map(\.rawValue)
        XCTAssertEqual(Suggestion.closest(to: "avrage", in: functions), "avg", "a word people write for a function")
        XCTAssertEqual(Suggestion.closest(to: "median", in: functions), "p50")
        XCTAssertThrowsError(try store.engine().run("SELECT sleeep.date FROM sleep")) { error in
            XCTAssertTrue((error as? HealthQLError)?.message.hasSuffix("Did you mean 'sleep'?") == true, "\(error)")
        }
    }

    // MARK: against a store

    private var store: SharedStore!
    private var engine: QueryEngine!

    override func setUpWithError() throws {
        store = try SharedStore.get()
        engine = try store.engine()
    }

    /// The generated export's ExportDate, read with plain SQL; today() is the local day before.
    private func exportDay() throws -> CivilDate {
        let text = try XCTUnwrap(store.sql("SELECT export_date_utc FROM profile")[0][0].string)
        let instant = try XCTUnwrap(Timestamp(iso8601: text))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(identifier: "Europe/Berlin"))
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(instant.microseconds) / 1e6))
        return CivilDate(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    func testTodayIsTheDataLastCompleteDayAndTheResultSaysSo() throws {
        let today = try exportDay().adding(days: -1)
        let result = try engine.run("SELECT count(*) FROM daily WHERE date IN LAST 7 DAYS")
        XCTAssertEqual(result.rows[0][0].int, try store.sql("SELECT count(*) FROM daily_analytics WHERE date BETWEEN ? AND ?",
                                                             [.text(today.adding(days: -6).iso8601), .text(today.iso8601)])[0][0].int)
        XCTAssertEqual(result.notes.count, 1)
        XCTAssertTrue(result.notes[0].hasPrefix("today() is \(today.iso8601), the last complete day of the data (exported "), result.notes[0])
        XCTAssertTrue(ResultFormatter.table(result).hasSuffix("\nnote: " + result.notes[0]))
        XCTAssertEqual(try engine.run("SELECT count(*) FROM daily").notes, [], "no note when no relative date is used")

        // THIS MONTH and LAST MONTH against plain SQL.
        let monthStart = CivilDate(year: today.year, month: today.month, day: 1)
        XCTAssertEqual(try engine.run("SELECT count(*) FROM daily WHERE date IN THIS MONTH").rows[0][0].int,
                       try store.sql("SELECT count(*) FROM daily_analytics WHERE date BETWEEN ? AND ?",
                                     [.text(monthStart.iso8601), .text(today.iso8601)])[0][0].int)
        let previous = CivilDate(year: monthStart.adding(days: -1).year, month: monthStart.adding(days: -1).month, day: 1)
        XCTAssertEqual(try engine.run("SELECT count(*) FROM daily WHERE date IN LAST MONTH").rows[0][0].int,
                       try store.sql("SELECT count(*) FROM daily_analytics WHERE date BETWEEN ? AND ?",
                                     [.text(previous.iso8601), .text(monthStart.adding(days: -1).iso8601)])[0][0].int)
    }

    func testNowGivenMovesTodayAndDropsTheNote() throws {
        let engine = try store.engine()
        try engine.setNow("2024-03-20")
        let result = try engine.run("SELECT min(date), max(date) FROM daily WHERE date IN LAST 7 DAYS")
        XCTAssertEqual(result.rows[0], [.text("2024-03-14"), .text("2024-03-20")])
        XCTAssertEqual(result.notes, [])
        XCTAssertThrowsError(try engine.setNow("yesterday"))
        let cli = try runProcess(TestPaths.binary, ["query", "SELECT count(*) FROM daily WHERE date IN LAST 3 DAYS", "--out", store.out,
                                                   "--now", "2024-03-20", "--format", "csv"])
        XCTAssertEqual(cli.stdout, "count(*)\r\n3\r\n", cli.stderr)
        XCTAssertEqual(cli.stderr, "")
        let noted = try runProcess(TestPaths.binary, ["query", "SELECT count(*) FROM daily WHERE date IN LAST 3 DAYS", "--out", store.out,
                                                     "--format", "json"])
        XCTAssertTrue(noted.stderr.hasPrefix("note: today() is "), "JSON stays data; the note goes to stderr: " + noted.stderr)
    }

    func testYearsAndIdsAreNotGroupedAndAveragesRoundAsTheReport() throws {
        let yearly = ResultFormatter.table(try engine.run("SELECT * FROM yearly"))
        XCTAssertTrue(yearly.contains("\n2024  "), yearly)
        XCTAssertFalse(yearly.contains("2,024"), yearly)
        let monthly = try engine.run("SELECT year, month, steps / days_with_data AS per_day FROM monthly")
        let plain = try store.sql("SELECT CAST(steps AS REAL) / days_with_data FROM monthly_analytics ORDER BY year, month")
        XCTAssertEqual(monthly.rows.count, plain.count)
        XCTAssertEqual(monthly.rows.map { $0[2] }, plain.map { $0[0] }, "real division: an integer quotient would truncate")
        let lines = ResultFormatter.table(monthly).split(separator: "\n").map(String.init)
        for (row, expected) in zip(lines.dropFirst(2), plain) {
            let rounded = ResultFormatter.grouped(Int64((expected[0].double ?? 0).rounded()))
            XCTAssertTrue(row.hasPrefix("2024  ") && row.hasSuffix(" " + rounded), "\(row) should end with \(rounded)")
        }
        XCTAssertEqual(monthly.columns.map(\.style), [.identifier, .identifier, .whole])
        XCTAssertEqual(try engine.run("SELECT week, avg(value) FROM heart_rate GROUP BY week").columns.map(\.style), [.text, .decimal])
        XCTAssertEqual(try engine.run("SELECT steps / 1000, steps * 0.8, steps FROM daily").columns.map(\.style),
                       [.decimal, .decimal, .whole], "thousands of steps or metres are measures again")
        XCTAssertEqual(try engine.run("SELECT avg(steps), stddev(steps), count(*) FROM daily").columns.map(\.style), [.whole, .decimal, .whole])
        XCTAssertEqual(try engine.run("SELECT avg(value) FROM bmi").columns.map(\.style), [.decimal], "BMI's unit is 'count' too, but it is no count")
        XCTAssertEqual(try engine.run("SELECT avg(value) FROM steps").columns.map(\.style), [.whole])
    }

    func testSampleLevelFilterOnACumulativeTypePointsAtTheDailyTable() throws {
        let result = try engine.run("SELECT date, value FROM steps WHERE value > 10000")
        XCTAssertEqual(result.notes.count, 1)
        XCTAssertTrue(result.notes[0].contains("single samples"), result.notes[0])
        XCTAssertTrue(result.notes[0].contains("SELECT date, steps FROM daily WHERE steps > …"), result.notes[0])
        XCTAssertEqual(try engine.run("SELECT day, sum(value) FROM steps GROUP BY day HAVING sum(value) > 10000").notes, [])
        XCTAssertEqual(try engine.run("SELECT date, value FROM heart_rate WHERE value > 150").notes, [], "a discrete type's samples are what one filters")
    }

    func testLikeAgainstPlainSQL() throws {
        let watch = try engine.run("SELECT count(*) FROM steps WHERE source LIKE '%watch%'").rows[0][0].int
        XCTAssertEqual(watch, try store.sql("""
            SELECT count(*) FROM sample_data s JOIN sources src ON src.id = s.source_id
            WHERE s.type_id = (SELECT id FROM types WHERE identifier = 'HKQuantityTypeIdentifierStepCount') AND src.name LIKE '%watch%'
            """)[0][0].int)
        let running = try engine.run("SELECT count(*) FROM workouts WHERE type LIKE 'run%'").rows[0][0].int
        XCTAssertEqual(running, try store.sql("SELECT count(*) FROM workouts WHERE activity_type = 'HKWorkoutActivityTypeRunning'")[0][0].int)
        XCTAssertGreaterThan(running ?? 0, 0)
        let between = try engine.run("SELECT count(*) FROM daily WHERE steps BETWEEN 8000 AND 10000").rows[0][0].int
        XCTAssertEqual(between, try store.sql("SELECT count(*) FROM daily_analytics WHERE steps BETWEEN 8000 AND 10000")[0][0].int)
    }

    // MARK: tables

    func testWideCharactersCountTwoColumns() {
        XCTAssertEqual(DisplayWidth.of("걷기"), 4)
        XCTAssertEqual(DisplayWidth.of("步数"), 4)
        XCTAssertEqual(DisplayWidth.of("abc"), 3)
        XCTAssertEqual(DisplayWidth.of("é"), 1)
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1, "a combining accent takes no column")
        let result = QueryResult(columns: [ResultColumn(name: "source", isNumeric: false), ResultColumn(name: "n", isNumeric: true)],
                                 rows: [[.text("아이폰 걸음"), .integer(1200)], [.text("Watch"), .integer(5)]], milliseconds: 0, sql: "")
        let lines = ResultFormatter.table(result).split(separator: "\n").map(String.init)
        // The numbers' right edges line up in display columns.
        XCTAssertEqual(Set(lines.prefix(4).map(DisplayWidth.of)).count, 1, lines.joined(separator: "\n"))
        XCTAssertEqual(lines[2], "아이폰 걸음  1,200")
    }
}
