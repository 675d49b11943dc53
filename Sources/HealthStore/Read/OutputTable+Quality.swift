import HealthCore

/// The data-quality tables (docs/data-quality.md) as files: `reconciliation`,
/// `reconciliation_sources`, `data_quality` and `sources` (the store's `source_inventory`).
extension OutputTable {
    package static let quality: [OutputTable] = [reconciliation, reconciliationSources, reconciliationPlatforms, dataQuality,
                                                 sourceInventory]

    package static let reconciliation = OutputTable(
        name: "reconciliation",
        columns: [Column("date", .date, optional: false), Column("metric", .text(dictionary: true), optional: false),
                  Column("merged", .real(places: 2)), Column("all_sources_sum", .real(places: 2), optional: false),
                  Column("overlap_removed", .real(places: 2)), Column("source_count", .integer, optional: false),
                  Column("rings", .real(places: 2)), Column("rings_difference", .real(places: 2)),
                  Column("rings_disagree", .integer), Column("duplicates_dropped", .integer)],
        sql: """
            SELECT date, metric, merged, all_sources_sum, overlap_removed, source_count, rings, rings_difference, rings_disagree,
                   duplicates_dropped
            FROM reconciliation ORDER BY date, metric
            """)

    package static let reconciliationSources = OutputTable(
        name: "reconciliation_sources",
        columns: [Column("date", .date, optional: false), Column("metric", .text(dictionary: true), optional: false),
                  Column("source_name", .text(dictionary: true), optional: false),
                  Column("device_model", .text(dictionary: true)),
                  Column("total", .real(places: 2), optional: false), Column("samples", .integer, optional: false),
                  Column("priority", .integer)],
        sql: """
            SELECT date, metric, source_name, device_model, total, samples, priority FROM reconciliation_sources
            ORDER BY date, metric, source_name, device_model
            """)

    /// A store of one person's two phones: each platform's part of each day's total (issue 60).
    package static let reconciliationPlatforms = OutputTable(
        name: "reconciliation_platforms",
        columns: [Column("date", .date, optional: false), Column("metric", .text(dictionary: true), optional: false),
                  Column("platform", .text(dictionary: true), optional: false),
                  Column("counted", .real(places: 2), optional: false), Column("all_sources_sum", .real(places: 2), optional: false),
                  Column("samples", .integer, optional: false)],
        sql: """
            SELECT date, metric, platform, counted, all_sources_sum, samples FROM reconciliation_platforms
            ORDER BY date, metric, platform
            """)

    package static let dataQuality = OutputTable(
        name: "data_quality",
        columns: [Column("date", .date, optional: false), Column("watch_hours", .integer, optional: false),
                  Column("phone_hours", .integer, optional: false), Column("source_count", .integer, optional: false),
                  Column("valid_day", .integer, optional: false), Column("partial_day", .integer, optional: false),
                  Column("time_zone", .text(dictionary: true)), Column("utc_offset", .text(dictionary: true))],
        sql: """
            SELECT date, watch_hours, phone_hours, source_count, valid_day, partial_day, time_zone, utc_offset
            FROM data_quality ORDER BY date
            """)

    /// The store's `sources` table holds source ids; the inventory is `sources` in the files.
    package static let sourceInventory = OutputTable(
        name: "sources",
        columns: [Column("source_name", .text(dictionary: true), optional: false),
                  Column("device_model", .text(dictionary: true)),
                  Column("type", .text(dictionary: true), optional: false), Column("records", .integer, optional: false),
                  Column("first_seen", .date, optional: false), Column("last_seen", .date, optional: false),
                  Column("priority", .integer)],
        sql: """
            SELECT source_name, device_model, type, records, first_seen, last_seen, priority FROM source_inventory
            ORDER BY source_name, device_model, type
            """)
}
