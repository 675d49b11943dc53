import HealthCore

/// The cycle tables as files (docs/cycles.md): `cycles.csv` / `.parquet` and `cycle_days`.
extension OutputTable {
    package static let cycleTables: [OutputTable] = [cycles, cycleDays]

    package static let cycles = OutputTable(
        name: "cycles",
        columns: [Column("start_date", .date, optional: false), Column("next_start_date", .date),
                  Column("complete", .integer, optional: false),
                  Column("period_days", .integer), Column("cycle_length_days", .integer),   // empty: not known
                  Column("start_from", .text(dictionary: true), optional: false)]
            + ["flow_light_days", "flow_medium_days", "flow_heavy_days", "flow_unspecified_days", "spotting_days"]
                .map { Column($0, .integer, optional: false) }
            + [Column("ovulation_positive_date", .date), Column("ovulation_tests", .integer, optional: false),
               Column("flow_records", .integer, optional: false), Column("sources", .text(dictionary: true)),
               Column("notices", .text(dictionary: true))],
        sql: """
            SELECT start_date, next_start_date, complete, period_days, cycle_length_days, start_from, flow_light_days,
                   flow_medium_days, flow_heavy_days, flow_unspecified_days, spotting_days, ovulation_positive_date,
                   ovulation_tests, flow_records, sources, notices FROM cycles ORDER BY start_date
            """)

    package static let cycleDays = OutputTable(
        name: "cycle_days",
        columns: [Column("date", .date, optional: false), Column("cycle_start", .date), Column("cycle_day", .integer),
                  Column("in_period", .integer, optional: false), Column("flow", .text(dictionary: true)),
                  Column("spotting", .integer, optional: false), Column("ovulation_test", .text(dictionary: true)),
                  Column("cervical_mucus", .text(dictionary: true)), Column("basal_temperature_degc", .real(places: 2)),
                  Column("sexual_activity", .integer, optional: false), Column("notices", .text(dictionary: true))],
        sql: """
            SELECT date, cycle_start, cycle_day, in_period, flow, spotting, ovulation_test, cervical_mucus,
                   basal_temperature_degc, sexual_activity, notices FROM cycle_days ORDER BY date
            """)
}
