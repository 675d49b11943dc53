import XCTest
@testable import HealthCore
@testable import HealthStore
import SQLite

/// Issue 48: the store's side of days local to where the person was: the mode in the settings
/// line, the calendar readers get, and the rows dated again where the timeline moved them.
final class LocalDayRedatingTests: XCTestCase {
    private func t(_ iso: String) -> Int64 { Timestamp(iso8601: iso)!.microseconds }
    private func day(_ iso: String) -> Int64 { Int64(CivilDate(iso: iso)!.daysSinceEpoch) }

    /// LA (home) until 1 Feb 2025 06:30Z, Tokyo until 11 Feb 06:30Z, LA again.
    private let trip = ZoneTimeline(
        stretches: [.init(start: nil, zone: "America/Los_Angeles"),
                    .init(start: Timestamp(iso8601: "2025-02-01T06:30:00Z")!, zone: "Asia/Tokyo"),
                    .init(start: Timestamp(iso8601: "2025-02-11T06:30:00Z")!, zone: "America/Los_Angeles")],
        windows: [], home: "America/Los_Angeles")

    func testTheModeIsInTheLineOnlyWhenTheDaysFollowTheTimeline() throws {
        let zone = StoreSettings(zone: "America/Los_Angeles", priority: [], heartbeatMaxGapMinutes: 30, weekStart: 0, schema: 6)
        XCTAssertFalse(zone.line.contains("localDays"), "a one-zone store's line is what it was")
        var recorded = zone
        recorded.localDays = .whereRecorded
        XCTAssertTrue(recorded.line.hasSuffix(";localDays=where-recorded"), recorded.line)
        XCTAssertEqual(StoreSettings(line: recorded.line), recorded)
        XCTAssertEqual(StoreSettings(line: zone.line)?.localDays, .zone)

        // The readers' calendar: the kept timeline when the days follow it, else the zone.
        let db = try Database(path: ":memory:")
        try db.execute(StoreSchema.tables)
        try ZoneStore(database: db).replace(with: trip)
        let instant = Timestamp(iso8601: "2025-02-05T20:00:00Z")!   // 12:00 PST 5 Feb, 05:00 JST 6 Feb
        try zone.save(in: db)
        var calendar = try XCTUnwrap(try StoreSettings.calendar(in: db))
        XCTAssertEqual(calendar.localDate(of: instant).iso8601, "2025-02-05")
        try recorded.save(in: db)
        calendar = try XCTUnwrap(try StoreSettings.calendar(in: db))
        XCTAssertEqual(calendar.localDate(of: instant).iso8601, "2025-02-06")
    }

    func testRowsStartingInTheRangeAreDatedAgainAndNoOthers() throws {
        let db = try Database(path: ":memory:")
        try db.execute(StoreSchema.tables)
        try db.execute("""
            INSERT INTO types (id, identifier) VALUES (1, 'HKQuantityTypeIdentifierStepCount');
            INSERT INTO sources (id, name) VALUES (1, 'iPhone');
            """)
        // Dated at load in LA: 5 Feb 20:00Z is 5 Feb in LA (6 Feb in Tokyo); 20 Feb 20:00Z is 20 Feb in both.
        let rows: [(id: Int64, start: String, loaded: String, identity: Int64)] = [
            (1, "2025-02-05T20:00:00Z", "2025-02-05", 11), (2, "2025-02-20T20:00:00Z", "2025-02-20", 12),
        ]
        for r in rows {
            try db.rows("""
                INSERT INTO sample_data (id, type_id, source_id, start_us, end_us, local_day, value, identity, line, user_entered)
                VALUES (?, 1, 1, ?, ?, ?, 1, ?, 1, 0)
                """, [.integer(r.id), .integer(t(r.start)), .integer(t(r.start)), .integer(day(r.loaded)), .integer(r.identity)])
            try db.rows("INSERT INTO duplicate_copies (identity, type_id, local_day, copies) VALUES (?, 1, ?, 1)",
                        [.integer(r.identity), .integer(day(r.loaded))])
        }
        try db.rows("""
            INSERT INTO workouts (id, activity_type, start_utc, start_us, local_date) VALUES (1, 'HKWorkoutActivityTypeRunning', ?, ?, '2025-02-05')
            """, [.text("2025-02-05T20:00:00Z"), .integer(t("2025-02-05T20:00:00Z"))])
        try db.rows("INSERT INTO ecg_recordings (id, recorded_utc, local_date, sample_count) VALUES (1, '2025-02-05T20:00:00Z', '2025-02-05', 0)")

        let moved = try LocalDayRedating(database: db)
            .redate(startingIn: [t("2025-01-31T08:00:00Z")..<t("2025-02-13T08:00:00Z")], calendar: LocalCalendar(timeline: trip))
        XCTAssertEqual(moved, 1)
        XCTAssertEqual(try db.rows("SELECT id, local_day FROM sample_data ORDER BY id"),
                       [[.integer(1), .integer(day("2025-02-06"))], [.integer(2), .integer(day("2025-02-20"))]])
        XCTAssertEqual(try db.rows("SELECT identity, local_day FROM duplicate_copies ORDER BY identity"),
                       [[.integer(11), .integer(day("2025-02-06"))], [.integer(12), .integer(day("2025-02-20"))]])
        XCTAssertEqual(try db.rows("SELECT local_date FROM workouts"), [[.text("2025-02-06")]])
        XCTAssertEqual(try db.rows("SELECT local_date FROM ecg_recordings"), [[.text("2025-02-06")]])
        // Outside the range nothing is touched, whatever the calendar says.
        XCTAssertEqual(try LocalDayRedating(database: db)
            .redate(startingIn: [t("2025-02-14T00:00:00Z")..<t("2025-03-01T00:00:00Z")], calendar: LocalCalendar(identifier: "Asia/Tokyo")!), 1)
        XCTAssertEqual(try db.rows("SELECT local_day FROM sample_data WHERE id = 1"), [[.integer(day("2025-02-06"))]])
    }
}
