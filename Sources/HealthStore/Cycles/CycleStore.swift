import HealthCore
import SQLite

/// The store's side of the menstrual cycles (docs/cycles.md): the cycle records read after the
/// load, and the two tables the cycles are written to. The rule is HealthAggregate's
/// (`MenstrualCycles`); HealthAnalytics' `CycleBuilder` puts the two together.
package struct CycleStore {
    let database: Database
    package init(database: Database) { self.database = database }

    /// The HealthKit types the cycles are read from (Health Connect's are stored under the same
    /// names, its periods as `HKCategoryTypeIdentifierMenstrualPeriod`).
    package static let types = [
        "HKCategoryTypeIdentifierMenstrualFlow", "HKCategoryTypeIdentifierMenstrualPeriod",
        "HKCategoryTypeIdentifierIntermenstrualBleeding", "HKCategoryTypeIdentifierOvulationTestResult",
        "HKCategoryTypeIdentifierCervicalMucusQuality", "HKQuantityTypeIdentifierBasalBodyTemperature",
        "HKCategoryTypeIdentifierSexualActivity", "HKCategoryTypeIdentifierIrregularMenstrualCycles",
        "HKCategoryTypeIdentifierInfrequentMenstrualCycles", "HKCategoryTypeIdentifierProlongedMenstrualPeriods",
        "HKCategoryTypeIdentifierPersistentIntermenstrualBleeding",
    ]

    /// One stored cycle record.
    package struct Record: Sendable {
        package var type: String
        package var localDay: CivilDate
        package var start: Timestamp, end: Timestamp
        package var category: String?
        package var value: Double?
        /// `HKMenstrualCycleStart` of the record's metadata as stored ("1", "0"), nil without it.
        package var cycleStartKey: String?
        package var source: String
    }

    /// Every cycle record, in time order. A store has a few a day at most.
    package func records() throws -> [Record] {
        let list = Self.types.map { "'\($0)'" }.joined(separator: ", ")
        let stmt = try database.prepare("""
            SELECT t.identifier, s.local_day, s.start_us, s.end_us, s.category_value, s.value,
                   CASE WHEN json_valid(s.metadata) THEN json_extract(s.metadata, '$.HKMenstrualCycleStart') END, src.name
            FROM sample_data s JOIN types t ON t.id = s.type_id JOIN sources src ON src.id = s.source_id
            WHERE t.identifier IN (\(list)) ORDER BY s.start_us, s.id
            """)
        var records: [Record] = []
        while try stmt.step() {
            records.append(Record(type: stmt.text(0) ?? "", localDay: CivilDate(daysSinceEpoch: Int(stmt.int64(1))),
                                  start: Timestamp(microseconds: stmt.int64(2)), end: Timestamp(microseconds: stmt.int64(3)),
                                  category: stmt.text(4), value: stmt.isNull(5) ? nil : stmt.double(5),
                                  cycleStartKey: stmt.isNull(6) ? nil : stmt.text(6), source: stmt.text(7) ?? ""))
        }
        return records
    }

    /// The first local day with data (the analytics' first day, computed before the cycles):
    /// before it the store knows nothing. Read from `daily_analytics`' unique index, not by
    /// scanning every sample.
    package func firstDataDay() throws -> CivilDate? {
        try database.scalar("SELECT min(date) FROM daily_analytics").string.flatMap { CivilDate(iso: $0) }
    }

    /// One `cycles` row.
    package struct CycleRow: Sendable {
        package var start: CivilDate, nextStart: CivilDate?
        package var complete: Bool
        package var periodDays: Int?, length: Int?
        package var startFrom: String
        package var light = 0, medium = 0, heavy = 0, unspecified = 0, spotting = 0
        package var ovulationPositive: CivilDate?
        package var ovulationTests = 0, flowRecords = 0
        package var sources: String?, notices: String?
        package init(start: CivilDate, nextStart: CivilDate?, complete: Bool, periodDays: Int?, length: Int?, startFrom: String) {
            self.start = start; self.nextStart = nextStart; self.complete = complete; self.periodDays = periodDays
            self.length = length; self.startFrom = startFrom
        }
    }

    /// One `cycle_days` row.
    package struct DayRow: Sendable {
        package var date: CivilDate
        package var cycleStart: CivilDate?, cycleDay: Int?
        package var inPeriod: Bool
        package var flow: String?
        package var spotting: Bool
        package var ovulationTest: String?, cervicalMucus: String?
        package var basalTemperature: Double?
        package var sexualActivity: Int
        package var notices: String?
        package init(date: CivilDate, cycleStart: CivilDate?, cycleDay: Int?, inPeriod: Bool, flow: String?, spotting: Bool,
                     ovulationTest: String?, cervicalMucus: String?, basalTemperature: Double?, sexualActivity: Int,
                     notices: String?) {
            self.date = date; self.cycleStart = cycleStart; self.cycleDay = cycleDay; self.inPeriod = inPeriod
            self.flow = flow; self.spotting = spotting; self.ovulationTest = ovulationTest
            self.cervicalMucus = cervicalMucus; self.basalTemperature = basalTemperature
            self.sexualActivity = sexualActivity; self.notices = notices
        }
    }

    /// Empties both tables (`reset --keep-profile`: the next import computes them again).
    package func clear() throws {
        guard try database.hasTable("cycles") else { return }
        try database.execute("DELETE FROM cycles; DELETE FROM cycle_days")
    }

    /// Replaces both tables, inside the caller's transaction.
    package func replace(cycles: [CycleRow], days: [DayRow]) throws {
        try database.execute("DELETE FROM cycles; DELETE FROM cycle_days")
        let cycle = try database.prepare("""
            INSERT INTO cycles (start_date, next_start_date, complete, period_days, cycle_length_days, start_from,
                flow_light_days, flow_medium_days, flow_heavy_days, flow_unspecified_days, spotting_days,
                ovulation_positive_date, ovulation_tests, flow_records, sources, notices)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        for c in cycles {
            cycle.bind(1, c.start.iso8601); cycle.bind(2, c.nextStart?.iso8601); cycle.bind(3, Int64(c.complete ? 1 : 0))
            cycle.bind(4, c.periodDays.map(Int64.init)); cycle.bind(5, c.length.map(Int64.init)); cycle.bind(6, c.startFrom)
            for (i, n) in [c.light, c.medium, c.heavy, c.unspecified, c.spotting].enumerated() { cycle.bind(Int32(7 + i), Int64(n)) }
            cycle.bind(12, c.ovulationPositive?.iso8601); cycle.bind(13, Int64(c.ovulationTests))
            cycle.bind(14, Int64(c.flowRecords)); cycle.bind(15, c.sources); cycle.bind(16, c.notices)
            try cycle.run()
        }
        let day = try database.prepare("""
            INSERT INTO cycle_days (date, cycle_start, cycle_day, in_period, flow, spotting, ovulation_test, cervical_mucus,
                basal_temperature_degc, sexual_activity, notices) VALUES (?,?,?,?,?,?,?,?,?,?,?)
            """)
        for d in days {
            day.bind(1, d.date.iso8601); day.bind(2, d.cycleStart?.iso8601); day.bind(3, d.cycleDay.map(Int64.init))
            day.bind(4, Int64(d.inPeriod ? 1 : 0)); day.bind(5, d.flow); day.bind(6, Int64(d.spotting ? 1 : 0))
            day.bind(7, d.ovulationTest); day.bind(8, d.cervicalMucus); day.bind(9, d.basalTemperature)
            day.bind(10, Int64(d.sexualActivity)); day.bind(11, d.notices)
            try day.run()
        }
    }
}
