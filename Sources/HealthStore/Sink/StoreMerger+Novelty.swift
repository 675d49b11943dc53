import HealthCore
import SQLite

/// Whether the attached delta would change anything if merged (`StoreMerger.merge`), asked
/// without writing: a nightly run over a new export file whose records the store already holds
/// then leaves the published store as it is, instead of copying and publishing it unchanged.
///
/// Each table the merger reads is judged by the merger's own rule: a row it would insert is
/// one the store does not hold by that identity (a sample's type, start and content identity;
/// a workout's id …); a table it replaces (activity summaries, the profile) must hold exactly
/// the rows the store holds. Children (heartbeats, route points, members …) are merged only
/// with a new parent, so they are not judged on their own. A delta table with rows that is
/// named nowhere here counts as new: a table added to the merger but forgotten here costs a
/// copy, never a record. Keep this beside `merge()` when either changes.
extension StoreMerger {
    /// Tables whose rows follow a parent judged below (merged only with a new one).
    static let mergedWithTheirParent: Set<String> = [
        "duplicate_copies", "heartbeat_data", "workout_activities", "workout_events", "workout_statistics", "workout_routes",
        "workout_route_points", "correlation_members", "ecg_samples", "audiogram_points",
    ]
    /// Tables of the delta's schema that the merger never reads (the load's own bookkeeping,
    /// and what the published store computes itself).
    static let neverMerged: Set<String> = [
        "load_checkpoint", "runs", "settings", "anchors", "daily_analytics", "weekly_analytics", "monthly_analytics",
        "yearly_analytics", "daily_metrics", "hourly_metrics", "daily_vitals", "data_quality", "sleep_sessions",
        "blood_pressure", "hrv_measurements", "reconciliation", "reconciliation_sources", "source_inventory",
        "workout_details",
    ]

    private static let profileColumns = """
        id, date_of_birth, biological_sex, blood_type, fitzpatrick_skin_type, cardio_fitness_medications_use, locale,
        export_date_utc, characteristics
        """

    /// For each judged table, a query that returns a row if the merge would add or change one.
    static let wouldChange: [String: String] = [
        "types": "SELECT 1 FROM delta.types d WHERE d.identifier NOT IN (SELECT identifier FROM main.types) LIMIT 1",
        "sources": """
            SELECT 1 FROM delta.sources d WHERE NOT EXISTS (SELECT 1 FROM main.sources m
              WHERE m.name = d.name AND m.version IS d.version AND m.device IS d.device) LIMIT 1
            """,
        "sample_data": """
            SELECT 1 FROM delta.sample_data d JOIN delta.types dt ON dt.id = d.type_id
              LEFT JOIN main.types mt ON mt.identifier = dt.identifier
            WHERE NOT EXISTS (SELECT 1 FROM main.sample_data m
                              WHERE m.type_id = mt.id AND m.start_us = d.start_us AND m.identity = d.identity) LIMIT 1
            """,
        "workouts": "SELECT 1 FROM delta.workouts WHERE id NOT IN (SELECT id FROM main.workouts) LIMIT 1",
        "correlations": "SELECT 1 FROM delta.correlations WHERE identity NOT IN (SELECT identity FROM main.correlations) LIMIT 1",
        "ecg_recordings": """
            SELECT 1 FROM delta.ecg_recordings d WHERE NOT EXISTS (SELECT 1 FROM main.ecg_recordings m
              WHERE m.recorded_utc = d.recorded_utc AND ifnull(m.device, '') = ifnull(d.device, '')) LIMIT 1
            """,
        "audiograms": """
            SELECT 1 FROM delta.audiograms d WHERE NOT EXISTS (SELECT 1 FROM main.audiograms m
              WHERE m.source_name IS d.source_name AND m.start_utc IS d.start_utc AND m.end_utc IS d.end_utc) LIMIT 1
            """,
        "vision_prescriptions": """
            SELECT 1 FROM delta.vision_prescriptions d WHERE NOT EXISTS (SELECT 1 FROM main.vision_prescriptions m
              WHERE m.type IS d.type AND m.date_issued_utc IS d.date_issued_utc) LIMIT 1
            """,
        "clinical_records": """
            SELECT 1 FROM (SELECT type, identifier, source_name, source_url, fhir_version, received_utc, resource_file_path
                           FROM delta.clinical_records
                           EXCEPT SELECT type, identifier, source_name, source_url, fhir_version, received_utc, resource_file_path
                           FROM main.clinical_records) LIMIT 1
            """,
        // Replaced by the merger: new only if a row differs from the store's.
        "clinical_resources": "SELECT 1 \(changedClinicalResources) LIMIT 1",
        "activity_summaries": "SELECT 1 FROM (SELECT * FROM delta.activity_summaries EXCEPT SELECT * FROM main.activity_summaries) LIMIT 1",
        // All but `updated_at` (when a load last wrote the row: every load does, nothing reads it).
        "profile": """
            SELECT 1 FROM (SELECT \(profileColumns) FROM delta.profile EXCEPT SELECT \(profileColumns) FROM main.profile) LIMIT 1
            """,
        // Appended with the run's id: any row is new.
        "quarantine": "SELECT 1 FROM delta.quarantine LIMIT 1",
    ]

    /// The delta's clinical resources that are new or differ from the store's (a later export's
    /// amended copy): what makes a run publish (above) and what the merge counts.
    static let changedClinicalResources = """
        FROM delta.clinical_resources d
        WHERE NOT EXISTS (SELECT 1 FROM main.clinical_resources m WHERE m.path = d.path AND m.resource = d.resource)
        """

    /// Whether merging the attached delta would add or change a row of the store (read only;
    /// attach first). Nil: nothing would change; else the first table that would.
    package func firstTableTheMergeWouldChange() throws -> String? {
        let tables = try database.rows("SELECT name FROM delta.sqlite_master WHERE type = 'table' ORDER BY name")
            .compactMap { $0[0].string }
        for table in tables where !Self.mergedWithTheirParent.contains(table) && !Self.neverMerged.contains(table) {
            let query = Self.wouldChange[table] ?? "SELECT 1 FROM delta.\"\(table)\" LIMIT 1"
            if !(try database.rows(query)).isEmpty { return table }
        }
        return nil
    }
}
