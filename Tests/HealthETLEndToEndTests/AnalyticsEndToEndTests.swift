import XCTest
@testable import HealthEmit
import TestSupport

/// The analytics of a whole import against the generator's own per-day truth (computed from
/// its sample model with the Health app's merge, not from the XML).
final class AnalyticsEndToEndTests: XCTestCase {
    static let integerColumns: Set<String> = ["steps", "stairs_climbed", "exercise_minutes", "stand_minutes"]

    /// Every day's figures within 0.5% (integer columns: within rounding).
    func assertDaysMatchTruth(store: String, truthPath: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: truthPath))) as? [String: Any]
        let truth = try XCTUnwrap(json?["days"] as? [String: [String: Double]])
        let columns = Array(try XCTUnwrap(truth.values.first).keys).sorted()
        let rows = try queryRows(store, "SELECT date, " + columns.map { "ifnull(\($0), 0)" }.joined(separator: ", ")
                                 + " FROM daily_analytics ORDER BY date")
        var stored: [String: [Double]] = [:]
        for row in rows { stored[row[0].string ?? ""] = row.dropFirst().map { $0.double ?? .nan } }
        // Every day of the truth is there; more only at the edges (the evening before the first day).
        XCTAssertEqual(Set(truth.keys).subtracting(stored.keys), [], "days", file: file, line: line)
        let (first, last) = (truth.keys.min()!, truth.keys.max()!)
        XCTAssertEqual(Set(stored.keys).subtracting(truth.keys).filter { $0 > first && $0 < last }, [], file: file, line: line)
        var checked = 0
        for (date, expected) in truth {
            guard let got = stored[date] else { continue }
            for (i, column) in columns.enumerated() {
                let want = expected[column] ?? 0
                let tolerance = max(abs(want) * 0.005, Self.integerColumns.contains(column) ? 0.5 + 1e-9 : 1e-6)
                XCTAssertEqual(got[i], want, accuracy: tolerance, "\(date) \(column)", file: file, line: line)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100, file: file, line: line)
    }

    /// Weekly, monthly and yearly rows hold exactly the sums of their days.
    func assertPeriodsAreSumsOfDays(store: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let metrics = ["steps", "walking_distance_m", "running_distance_m", "cycling_distance_m", "active_energy_kcal",
                       "heartbeats", "stairs_climbed", "exercise_minutes", "stand_minutes", "sleep_total_minutes",
                       "sleep_deep_minutes", "swimming_strokes"]
        let periods = [("weekly_analytics", "week_start", "week_end"), ("monthly_analytics", "start_date", "end_date"),
                       ("yearly_analytics", "start_date", "end_date")]
        for (table, from, to) in periods {
            let sums = metrics.map { "abs(ifnull(p.\($0), 0) - ifnull((SELECT sum(d.\($0)) FROM daily_analytics d WHERE d.date BETWEEN p.\(from) AND p.\(to)), 0))" }
            let worst = try query(store, "SELECT max(" + sums.joined(separator: " + ") + ") FROM \(table) p")
            XCTAssertLessThan(Double(worst.first ?? "") ?? .infinity, 1e-6, table, file: file, line: line)
            let daysOff = try query(store, """
                SELECT count(*) FROM \(table) p WHERE days_with_data !=
                  (SELECT count(*) FROM daily_analytics d WHERE d.date BETWEEN p.\(from) AND p.\(to))
                """)
            XCTAssertEqual(daysOff, ["0"], table, file: file, line: line)
            let covered = try query(store, "SELECT sum(days_with_data) FROM \(table)")
            XCTAssertEqual(covered, try query(store, "SELECT count(*) FROM daily_analytics"), table, file: file, line: line)
        }
    }

    func testBundledSampleMatchesItsTruth() throws {
        let out = try temporaryFolder(self).appendingPathComponent("out").path
        let sample = TestPaths.packageRoot.path + "/sample-data/"
        let result = try healthetl(["import", sample + "export.xml", "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(result.status, 0, result.stderr)
        try assertDaysMatchTruth(store: out + "/health.sqlite", truthPath: sample + "truth.json")
        try assertPeriodsAreSumsOfDays(store: out + "/health.sqlite")
    }

    /// Ten weeks over the end of summer time, in a zip, with the iOS 16 DTD defect.
    func testGeneratedExportAcrossDSTMatchesTruth() throws {
        let dir = try temporaryFolder(self)
        let export = dir.appendingPathComponent("export.zip").path
        let truth = dir.appendingPathComponent("truth.json").path
        try generateExport(["--out", export, "--layout", "zip", "--days", "70", "--start", "2024-09-01", "--seed", "11",
                            "--truth", truth, "--broken-dtd", "--zone", "Europe/Berlin"])
        let out = dir.appendingPathComponent("out").path
        let result = try healthetl(["import", export, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let store = out + "/health.sqlite"
        try assertDaysMatchTruth(store: store, truthPath: truth)
        try assertPeriodsAreSumsOfDays(store: store)
        // Running distance exists only where running workouts do.
        XCTAssertEqual(try query(store, """
            SELECT count(*) FROM daily_analytics d WHERE running_distance_m > 0 AND NOT EXISTS
              (SELECT 1 FROM workouts w WHERE w.activity_type = 'HKWorkoutActivityTypeRunning' AND w.local_date = d.date)
            """), ["0"])
        // Every stored type appears in the long-form table.
        XCTAssertEqual(try query(store, """
            SELECT count(*) FROM types t WHERE t.id IN (SELECT type_id FROM sample_data)
              AND t.identifier NOT IN (SELECT type FROM daily_metrics)
            """), ["0"])
        // Steps in daily_metrics are the merged totals, not the raw (double-counted) sums.
        XCTAssertEqual(try query(store, """
            SELECT count(*) FROM daily_analytics d JOIN daily_metrics m ON m.date = d.date
              AND m.type = 'HKQuantityTypeIdentifierStepCount' WHERE abs(round(m.sum) - d.steps) > 0
            """), ["0"])
        // The merged hours of every cumulative type add up to its day.
        XCTAssertEqual(try query(store, """
            SELECT count(*) FROM daily_metrics m JOIN (SELECT date, type, sum(sum) AS total FROM hourly_metrics
              GROUP BY date, type) h ON h.date = m.date AND h.type = m.type WHERE abs(h.total - m.sum) > 1e-6 * (1 + m.sum)
            """), ["0"])
        XCTAssertEqual(try query(store, "SELECT (count(DISTINCT type) > 3) || '|' || min(hour) || '|' || max(hour) FROM hourly_metrics"), ["1|0|23"])
        let raw = try query(store, "SELECT sum(value) FROM sample_data WHERE type_id = (SELECT id FROM types WHERE identifier = 'HKQuantityTypeIdentifierStepCount')")
        let merged = try query(store, "SELECT sum(steps) FROM daily_analytics")
        XCTAssertGreaterThan(Double(raw[0])!, Double(merged[0])! * 1.05, "iPhone + Watch overlap must be merged away")
    }
}
