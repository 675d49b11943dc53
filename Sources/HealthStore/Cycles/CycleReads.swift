import HealthCore
import SQLite

/// A cycle as the readers show it (`cycles`, docs/cycles.md).
package struct StoredCycle: Sendable, Equatable {
    package var start: CivilDate
    package var nextStart: CivilDate?
    package var complete: Bool
    package var periodDays: Int?
    package var length: Int?
    package var startFrom: String
    package var spottingDays: Int
    package var ovulationPositive: CivilDate?
    package var sources: String?
}

/// A day of `cycle_days`.
package struct StoredCycleDay: Sendable, Equatable {
    package var date: CivilDate
    package var cycleDay: Int?
    package var inPeriod: Bool
    package var flow: String?
    package var spotting: Bool
    package var ovulationTest: String?
}

/// Whole lists for the report and FHIR; a store from before version 12 has no cycle tables and
/// reads as none.
extension HealthStore {
    package func allCycles() throws -> [StoredCycle] {
        guard try database.hasTable("cycles") else { return [] }
        return try database.rows("""
            SELECT start_date, next_start_date, complete, period_days, cycle_length_days, start_from, spotting_days,
                   ovulation_positive_date, sources FROM cycles ORDER BY start_date
            """).compactMap { r in
            guard let start = r[0].string.flatMap({ CivilDate(iso: $0) }) else { return nil }
            return StoredCycle(start: start, nextStart: r[1].string.flatMap { CivilDate(iso: $0) }, complete: r[2].int == 1,
                               periodDays: r[3].int.map { Int($0) }, length: r[4].int.map { Int($0) },
                               startFrom: r[5].string ?? "", spottingDays: Int(r[6].int ?? 0),
                               ovulationPositive: r[7].string.flatMap { CivilDate(iso: $0) }, sources: r[8].string)
        }
    }

    package func allCycleDays() throws -> [StoredCycleDay] {
        guard try database.hasTable("cycle_days") else { return [] }
        return try database.rows("""
            SELECT date, cycle_day, in_period, flow, spotting, ovulation_test FROM cycle_days ORDER BY date
            """).compactMap { r in
            guard let date = r[0].string.flatMap({ CivilDate(iso: $0) }) else { return nil }
            return StoredCycleDay(date: date, cycleDay: r[1].int.map { Int($0) }, inPeriod: r[2].int == 1,
                                  flow: r[3].string, spotting: r[4].int == 1, ovulationTest: r[5].string)
        }
    }
}
