import Foundation
import XCTest
import TestSupport

/// Issue 58: a scheduled Health Connect export holds everything, every night. Ten nights of
/// nightly exports into one folder — with a record an app deleted and one it edited on the way —
/// ends with the store and files a `--full` import of the last export makes.
final class HealthConnectNightlyTests: XCTestCase {
    static let (phone, watch) = ("com.google.android.apps.fitness", "com.sec.android.app.shealth")

    /// Day `d` of March 2025: the watch's and the phone's overlapping steps, a night's sleep
    /// and a heart-rate series, each with its own uuid (as Health Connect keeps it).
    static func records(day d: Int, editedCount: Int? = nil, editedAt: String? = nil) -> [[String: Any]] {
        func at(_ hour: Int, _ minute: Int = 0, day: Int = d) -> String { String(format: "2025-03-%02dT%02d:%02d:00+01:00", day, hour, minute) }
        func uuid(_ i: Int) -> String { String(format: "%032x", d * 100 + i) }
        return [
            ["table": "steps_record_table", "app": watch, "uuid": uuid(1), "device": 1, "start": at(9), "end": at(10),
             "count": editedCount ?? 1000 + d, "last_modified": editedAt ?? at(10, 5)],
            ["table": "steps_record_table", "app": phone, "uuid": uuid(2), "device": 0, "start": at(9, 30), "end": at(11),
             "count": 1500, "last_modified": at(11, 5)],
            ["table": "sleep_session_record_table", "app": watch, "uuid": uuid(3), "device": 1, "start": at(0), "end": at(7),
             "last_modified": at(7, 5),
             "children": ["sleep_stages_table": [["start": at(0), "end": at(3), "stage_type": 4], ["start": at(3), "end": at(7), "stage_type": 5]]]],
            ["table": "heart_rate_record_table", "app": watch, "uuid": uuid(4), "device": 1, "start": at(12), "end": at(12, 10),
             "last_modified": at(12, 15),
             "children": ["heart_rate_record_series_table": (0..<5).map { ["time": at(12, $0 * 2), "beats_per_minute": 60 + d + $0] }]],
        ]
    }

    /// Nights of exports (each a run of its own: the class takes about half a minute).
    static let nights = 10

    func testTenNightlyExportsEqualAFullImport() throws {
        let dir = try temporaryFolder(self)
        let nightly = dir.appendingPathComponent("nightly").path, fresh = dir.appendingPathComponent("fresh").path
        let (deletedOn, editedOn) = (4, 7)
        var modes: [Int: String] = [:], notes: [Int: [String]] = [:]
        var last = ""
        for night in 1...Self.nights {
            var s = HealthConnectScenario()
            s.apps = [(Self.phone, "Fit"), (Self.watch, "Samsung Health")]
            s.devices = [["manufacturer": "Google", "model": "Pixel 8", "type": 2], ["manufacturer": "Samsung", "model": "Galaxy Watch6", "type": 1]]
            s.priority = ["ACTIVITY": [Self.watch, Self.phone], "SLEEP": [Self.watch]]
            for day in 1...night {
                let edited = night >= editedOn && day == 5
                var records = Self.records(day: day, editedCount: edited ? 4321 : nil, editedAt: edited ? "2025-03-07T20:00:00+01:00" : nil)
                // The phone's steps of the 3rd, deleted in the app before the 4th's export.
                if night >= deletedOn && day == 3 { records.remove(at: 1) }
                s.records += records
            }
            last = dir.appendingPathComponent("export-\(night).zip").path
            try s.write(to: last)
            let summary = try importJSON(last, nightly, zone: nil)
            modes[night] = summary["mode"] as? String
            notes[night] = summary["notes"] as? [String] ?? []
        }
        _ = try importJSON(last, fresh, ["--full"], zone: nil)

        XCTAssertEqual(modes[1], "full")
        for night in [2, 3, 5, 6, 8, Self.nights] { XCTAssertEqual(modes[night], "incremental", "night \(night)") }
        for night in [deletedOn, editedOn] {
            XCTAssertEqual(modes[night], "full", "night \(night): \(notes[night] ?? [])")
            XCTAssertTrue(notes[night]?.contains { $0.contains("changed or deleted") } == true, "night \(night): \(notes[night] ?? [])")
        }
        // By hand: the 3rd has the watch's hour alone (1003); the 5th the edited 4321 from 9:00 to
        // 10:00 and the phone's 10:00–11:00 (1000 of its 1500 over 90 minutes).
        let samples = "SELECT type, source_name, device_model, start_utc, end_utc, creation_utc, local_date, value, unit, category_value, metadata FROM samples ORDER BY type, start_utc, source_name, value, category_value"
        let steps = "SELECT date || ' ' || steps FROM daily_analytics WHERE date IN ('2025-03-03', '2025-03-05') ORDER BY date"
        XCTAssertEqual(try query(fresh + "/health.sqlite", steps), ["2025-03-03 1003", "2025-03-05 5321"])
        XCTAssertEqual(try analyticsSnapshot(nightly + "/health.sqlite"), try analyticsSnapshot(fresh + "/health.sqlite"))
        XCTAssertEqual(try queryRows(nightly + "/health.sqlite", samples), try queryRows(fresh + "/health.sqlite", samples))
        for name in ["csv/daily.csv", "csv/sleep.csv", "parquet/daily.parquet", "parquet/samples.parquet"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: nightly + "/" + name))
            XCTAssertEqual(a, try Data(contentsOf: URL(fileURLWithPath: fresh + "/" + name)), name)
        }
    }
}
