import XCTest
import HealthStore
@testable import HealthQL
@testable import SQLite

/// The `ecg` source (also `ecg_recordings`): one row per recording, on a store with the real
/// schema and recordings written into it here, in the store's zone (Europe/Berlin).
final class ECGSourceTests: XCTestCase {
    /// (recorded_utc, local_date, classification, average heart rate, samples, device)
    static let recordings: [(String, String, String, Double?, Int, String)] = [
        ("2020-03-15T23:30:00Z", "2020-03-16", "Sinus Rhythm", 61, 15_360, "Watch4,4"),
        ("2020-03-16T08:00:05Z", "2020-03-16", "Atrial Fibrillation", 97, 15_360, "Watch4,4"),
        ("2020-03-17T12:00:00Z", "2020-03-17", "Sinus Rhythm", nil, 7_680, "Watch6,1"),
    ]

    private func store(withECG: Bool = true) throws -> QueryEngine {
        QueryEngine(store: try schemaStore(self, "ecg", schema: 3) { db in
            for r in Self.recordings {
                try db.rows("""
                    INSERT INTO ecg_recordings (recorded_utc, local_date, classification, device, sample_rate_hz, average_heart_rate,
                      sample_count, source_file) VALUES (?,?,?,?,512,?,?,'electrocardiograms/x.csv')
                    """, [.text(r.0), .text(r.1), .text(r.2), .text(r.5), r.3.map(SQLValue.real) ?? .null, .integer(Int64(r.4))])
            }
            if !withECG { try db.execute("DROP TABLE ecg_recordings; DROP TABLE ecg_samples") }
        })
    }

    func testListsEveryRecordingWithItsStarFieldsInLocalTime() throws {
        let result = try store().run("SELECT * FROM ecg ORDER BY date")
        XCTAssertEqual(result.columns.map(\.name), ["date", "classification", "heart_rate", "samples", "device"])
        XCTAssertEqual(result.rows.count, Self.recordings.count)
        for (row, want) in zip(result.rows, Self.recordings) {
            XCTAssertEqual(row[1], .text(want.2))
            XCTAssertEqual(row[2].double, want.3)
            XCTAssertEqual(row[3].double, Double(want.4))
            XCTAssertEqual(row[4], .text(want.5))
        }
        // Shown in the store's zone: 23:30 UTC in March is 00:30 the next day in Berlin.
        XCTAssertEqual(result.rows.first?[0].string, "2020-03-16 00:30:00")
    }

    func testGroupsByDayAndClassificationAndFiltersByLocalDay() throws {
        let engine = try store()
        let byDay = try engine.run("SELECT day, count(*) FROM ecg_recordings GROUP BY day")
        let expectedDays = Dictionary(grouping: Self.recordings, by: \.1).mapValues(\.count)
        XCTAssertEqual(byDay.rows.count, expectedDays.count)
        for row in byDay.rows { XCTAssertEqual(row[1].double, row[0].string.flatMap { expectedDays[$0] }.map(Double.init), "\(row)") }

        let sinus = try engine.run("SELECT count(*) FROM ecg WHERE classification = 'Sinus Rhythm'")
        XCTAssertEqual(sinus.rows.first?[0].double, Double(Self.recordings.filter { $0.2 == "Sinus Rhythm" }.count))

        let onDay = try engine.run("SELECT avg(heart_rate), sum(duration) FROM ecg WHERE date = '2020-03-16'")
        let day = Self.recordings.filter { $0.1 == "2020-03-16" }
        XCTAssertEqual(onDay.rows.first?[0].double ?? 0, day.compactMap(\.3).reduce(0, +) / Double(day.count), accuracy: 1e-9)
        XCTAssertEqual(onDay.rows.first?[1].double ?? 0, Double(day.map(\.4).reduce(0, +)) / 512 / 60, accuracy: 1e-9)
    }

    func testAStoreWithoutTheTableSaysSo() throws {
        XCTAssertThrowsError(try store(withECG: false).run("SELECT * FROM ecg")) { error in
            XCTAssertEqual((error as? HealthQLError)?.message,
                           "This store has no ECG recordings table (made by an older healthetl); the next import adds it")
        }
    }
}
