import HealthStore

/// The workbook's Data quality sheet (docs/data-quality.md): one row per day, its wear and
/// validity, and how our steps and active energy compare with every source's sum and the rings,
/// with the exact copies dropped of each.
extension HealthWorkbook {
    static let dataQualitySheet: (title: String, table: OutputTable) = ("Data quality", OutputTable(
        name: "data_quality_sheet",
        columns: OutputTable.dataQuality.columns + [
            OutputTable.Column("steps", .integer), OutputTable.Column("steps_all_sources", .integer),
            OutputTable.Column("steps_overlap_removed", .integer), OutputTable.Column("steps_duplicates_dropped", .integer),
            OutputTable.Column("active_energy_kcal", .real(places: 1)), OutputTable.Column("active_energy_all_sources_kcal", .real(places: 1)),
            OutputTable.Column("active_energy_rings_kcal", .real(places: 1)),
            OutputTable.Column("active_energy_rings_difference_kcal", .real(places: 1)),
            OutputTable.Column("rings_disagree", .integer), OutputTable.Column("active_energy_duplicates_dropped", .integer)],
        sql: """
            SELECT q.date, q.watch_hours, q.phone_hours, q.source_count, q.valid_day, q.partial_day, q.time_zone, q.utc_offset,
                   s.merged, s.all_sources_sum, s.overlap_removed, s.duplicates_dropped, e.merged, e.all_sources_sum, e.rings,
                   e.rings_difference, e.rings_disagree, e.duplicates_dropped
            FROM data_quality q
            LEFT JOIN reconciliation s ON s.date = q.date AND s.metric = 'steps'
            LEFT JOIN reconciliation e ON e.date = q.date AND e.metric = 'active_energy_kcal'
            ORDER BY q.date
            """))
}
