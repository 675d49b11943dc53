import HealthCore
import SQLite

/// A day as the report reads it from `daily_analytics`: the totals it shows, time in bed, and
/// whether the day is known to be incomplete.
package struct StoredReportDay: Sendable, Equatable {
    package var date: CivilDate
    package var steps: Double?
    package var activeEnergyKcal: Double?
    package var exerciseMinutes: Double?
    package var sleepMinutes: Double?
    /// Walking and running distance together (0 when neither).
    package var distanceMeters: Double?
    package var inBedMinutes: Double?
    /// `partial_day`; nil in a store of version 4 (written before the column), where the reader
    /// applies the rule itself (docs/days-and-averages.md).
    package var partial: Bool?
    /// The day's zone and travel mark (issue 48); nil and false in a store before them.
    package var zone: String?
    package var travelDay = false
}

extension HealthStore {
    /// Every day of `daily_analytics`, oldest first.
    package func allReportDays() throws -> [StoredReportDay] {
        let columns = try database.rows("PRAGMA table_info(daily_analytics)").compactMap { $0[1].string }
        let hasPartial = columns.contains("partial_day"), hasZone = columns.contains("zone")
        return try database.rows("""
            SELECT date, steps, active_energy_kcal, exercise_minutes, sleep_total_minutes,
                   coalesce(walking_distance_m, 0) + coalesce(running_distance_m, 0), sleep_in_bed_minutes,
                   \(hasPartial ? "partial_day" : "NULL"), \(hasZone ? "zone, travel_day" : "NULL, 0")
            FROM daily_analytics ORDER BY date
            """).compactMap { r in
            guard let date = r[0].string.flatMap({ CivilDate(iso: $0) }) else { return nil }
            return StoredReportDay(date: date, steps: r[1].double, activeEnergyKcal: r[2].double, exerciseMinutes: r[3].double,
                                   sleepMinutes: r[4].double, distanceMeters: r[5].double, inBedMinutes: r[6].double,
                                   partial: hasPartial ? (r[7].int ?? 0) != 0 : nil, zone: r[8].string,
                                   travelDay: (r[9].int ?? 0) != 0)
        }
    }
}
