import HealthCore
import SQLite

/// Applies the store of an incremental run (`delta`: only records the anchors let through,
/// already deduped and indexed) to the published store, inside the caller's transaction.
///
/// Rows already present are recognised by what identifies them in every export: a sample's
/// content identity (and with it the exact copies the delta dropped of it), a workout's stable
/// id, a correlation's identity, a summary's date.
/// Ids of new rows are the delta's plus an offset past the store's largest, so child rows
/// (heartbeats, route points, correlation members) keep their links without a lookup each.
package struct StoreMerger {
    let database: Database
    package init(database: Database) { self.database = database }

    package struct Result: Sendable {
        /// Samples with `id > firstNewSampleID - 1` are the ones this merge added.
        package var firstNewSampleID: Int64
        package var newSamples: Int
        package var newWorkouts: Int
        /// Start and end (µs) of each new workout.
        package var newWorkoutSpans: [(Int64, Int64)]
        /// ECG recordings the published store did not hold.
        package var newECGRecordings = 0
        /// Clinical resources (`clinical-records/` files) new or changed since the published store.
        package var changedClinicalResources = 0
    }

    /// SQLite attaches only outside a transaction: attach, then merge inside one, then detach.
    package func attach(deltaPath: String) throws {
        try database.rows("ATTACH DATABASE ? AS delta", [.text(deltaPath)])
    }

    package func detach() { try? database.execute("DETACH DATABASE delta") }

    /// Merges the attached delta; call inside a transaction.
    package func merge() throws -> Result {
        try database.execute("""
            INSERT INTO main.types (identifier)
              SELECT identifier FROM delta.types WHERE identifier NOT IN (SELECT identifier FROM main.types);
            INSERT INTO main.sources (name, version, device, device_model, device_hardware, platform)
              SELECT d.name, d.version, d.device, d.device_model, d.device_hardware, d.platform FROM delta.sources d
              WHERE NOT EXISTS (SELECT 1 FROM main.sources m
                                WHERE m.name = d.name AND m.version IS d.version AND m.device IS d.device
                                  AND m.platform IS d.platform);
            CREATE TEMP TABLE type_map AS
              SELECT d.id AS old, m.id AS new FROM delta.types d JOIN main.types m ON m.identifier = d.identifier;
            CREATE TEMP TABLE source_map AS
              SELECT d.id AS old, min(m.id) AS new FROM delta.sources d JOIN main.sources m
                ON m.name = d.name AND m.version IS d.version AND m.device IS d.device AND m.platform IS d.platform
              GROUP BY d.id;
            CREATE TEMP TABLE new_workouts AS
              SELECT id FROM delta.workouts WHERE id NOT IN (SELECT id FROM main.workouts);
            """)
        defer { try? database.execute("DROP TABLE IF EXISTS temp.type_map; DROP TABLE IF EXISTS temp.source_map; DROP TABLE IF EXISTS temp.new_workouts") }

        let sampleOffset = try maxID("sample_data")
        try database.execute("""
            INSERT INTO main.sample_data (id, type_id, source_id, start_us, end_us, created_us, local_day, value,
              unit, raw_value, raw_unit, category_value, metadata, identity, line, user_entered)
              SELECT d.id + \(sampleOffset), t.new, s.new, d.start_us, d.end_us, d.created_us, d.local_day, d.value,
                     d.unit, d.raw_value, d.raw_unit, d.category_value, d.metadata, d.identity, d.line, d.user_entered
              FROM delta.sample_data d JOIN temp.type_map t ON t.old = d.type_id JOIN temp.source_map s ON s.old = d.source_id
              WHERE NOT EXISTS (SELECT 1 FROM main.sample_data m
                                WHERE m.type_id = t.new AND m.start_us = d.start_us AND m.identity = d.identity);
            """)
        let newSamples = database.changes
        // The copies the delta dropped count only for a record new to the store: a record the
        // store holds had its copies counted when it was first imported (a full import of the
        // newer export counts them once too).
        try database.execute("""
            INSERT INTO main.duplicate_copies (identity, type_id, local_day, copies)
              SELECT d.identity, t.new, d.local_day, d.copies
              FROM delta.duplicate_copies d JOIN temp.type_map t ON t.old = d.type_id
              WHERE d.identity IN (SELECT identity FROM main.sample_data WHERE id > \(sampleOffset))
            ON CONFLICT (identity) DO UPDATE SET copies = copies + excluded.copies;
            """)
        try database.execute("""
            INSERT INTO main.heartbeat_data (sample_id, time_us, bpm)
              SELECT h.sample_id + \(sampleOffset), h.time_us, h.bpm FROM delta.heartbeat_data h
              WHERE h.sample_id + \(sampleOffset) IN (SELECT id FROM main.sample_data WHERE id > \(sampleOffset));
            """)
        let spans = try database.rows("""
            SELECT start_us, end_us FROM delta.workouts WHERE id IN (SELECT id FROM temp.new_workouts) AND start_us IS NOT NULL
            """).map { ($0[0].int ?? 0, $0[1].int ?? 0) }
        try mergeWorkouts()
        try deriveWorkoutHeartRates(newSamplesAfter: sampleOffset)
        try mergeCorrelations()
        let changedClinical = Int(try database.rows("SELECT count(*) \(Self.changedClinicalResources)").first?.first?.int ?? 0)
        try mergeRest()
        return Result(firstNewSampleID: sampleOffset + 1, newSamples: newSamples, newWorkouts: spans.count,
                      newWorkoutSpans: spans, newECGRecordings: try mergeECGRecordings(),
                      changedClinicalResources: changedClinical)
    }

    /// Recordings are known by instant and watch (a cumulative export brings every one again);
    /// the new ones keep their voltages through an id offset, like audiograms.
    private func mergeECGRecordings() throws -> Int {
        let offset = try maxID("ecg_recordings")
        try database.execute("""
            CREATE TEMP TABLE new_ecg_recordings AS
              SELECT id FROM delta.ecg_recordings d WHERE NOT EXISTS (SELECT 1 FROM main.ecg_recordings m
                WHERE m.recorded_utc = d.recorded_utc AND ifnull(m.device, '') = ifnull(d.device, ''));
            INSERT INTO main.ecg_recordings (id, recorded_utc, local_date, classification, symptoms, software_version, device,
              sample_rate_hz, lead, unit, average_heart_rate, sample_count, source_file)
              SELECT id + \(offset), recorded_utc, local_date, classification, symptoms, software_version, device,
                     sample_rate_hz, lead, unit, average_heart_rate, sample_count, source_file
              FROM delta.ecg_recordings WHERE id IN (SELECT id FROM temp.new_ecg_recordings);
            """)
        let added = database.changes
        try database.execute("""
            INSERT INTO main.ecg_samples (recording_id, sample_index, microvolts)
              SELECT recording_id + \(offset), sample_index, microvolts FROM delta.ecg_samples
              WHERE recording_id IN (SELECT id FROM temp.new_ecg_recordings) ORDER BY recording_id, sample_index;
            DROP TABLE temp.new_ecg_recordings;
            """)
        return added
    }

    private func maxID(_ table: String) throws -> Int64 {
        try database.scalar("SELECT ifnull(max(id), 0) FROM main.\(table)").int ?? 0
    }

    private func mergeWorkouts() throws {
        let routeOffset = try maxID("workout_routes")
        let newOnly = "workout_id IN (SELECT id FROM temp.new_workouts)"
        try database.execute("""
            INSERT INTO main.workouts SELECT * FROM delta.workouts WHERE id IN (SELECT id FROM temp.new_workouts);
            INSERT INTO main.workout_activities SELECT * FROM delta.workout_activities WHERE \(newOnly);
            INSERT INTO main.workout_events SELECT * FROM delta.workout_events WHERE \(newOnly);
            INSERT INTO main.workout_statistics SELECT * FROM delta.workout_statistics WHERE \(newOnly);
            INSERT INTO main.workout_routes (id, workout_id, source_name, start_utc, end_utc, file_path, point_count, metadata)
              SELECT id + \(routeOffset), workout_id, source_name, start_utc, end_utc, file_path, point_count, metadata
              FROM delta.workout_routes WHERE \(newOnly);
            INSERT INTO main.workout_route_points
              SELECT p.route_id + \(routeOffset), p.time_utc, p.latitude, p.longitude, p.altitude, p.horizontal_accuracy,
                     p.vertical_accuracy, p.course, p.speed
              FROM delta.workout_route_points p JOIN delta.workout_routes r ON r.id = p.route_id
              WHERE r.workout_id IN (SELECT id FROM temp.new_workouts);
            """)
    }

    /// A new workout's figures, derived in the delta from the delta's samples only, and an
    /// older workout's, derived before its later samples came, are derived again from every
    /// stored sample: a ride that syncs a day after its heart rates, or heart rates uploaded
    /// after their workout, end as a full import of the newer export ends.
    private func deriveWorkoutHeartRates(newSamplesAfter offset: Int64) throws {
        guard let hr = try database.scalar("SELECT id FROM main.types WHERE identifier = '\(DerivedWorkoutHeartRates.heartRateType)'").int
        else { return }
        try DerivedWorkoutHeartRates.derive(in: database, heartRate: hr, where: """
            w.id IN (SELECT id FROM temp.new_workouts) OR EXISTS (SELECT 1 FROM main.sample_data n
              WHERE n.type_id = \(hr) AND n.start_us BETWEEN w.start_us AND w.end_us AND n.id > \(offset))
            """)
    }

    private func mergeCorrelations() throws {
        let offset = try maxID("correlations")
        try database.execute("""
            CREATE TEMP TABLE new_correlations AS
              SELECT id FROM delta.correlations WHERE identity NOT IN (SELECT identity FROM main.correlations);
            INSERT INTO main.correlations (id, type, source_id, start_utc, end_utc, creation_utc, metadata, identity)
              SELECT c.id + \(offset), c.type, s.new, c.start_utc, c.end_utc, c.creation_utc, c.metadata, c.identity
              FROM delta.correlations c LEFT JOIN temp.source_map s ON s.old = c.source_id
              WHERE c.id IN (SELECT id FROM temp.new_correlations);
            INSERT INTO main.correlation_members
              SELECT correlation_id + \(offset), type, value, unit, raw_value, raw_unit, start_utc, end_utc
              FROM delta.correlation_members WHERE correlation_id IN (SELECT id FROM temp.new_correlations);
            DROP TABLE temp.new_correlations;
            """)
    }

    /// Summaries are replaced (today's rings grow); the profile follows the newest export.
    private func mergeRest() throws {
        let audiogramOffset = try maxID("audiograms")
        try database.execute("""
            INSERT OR REPLACE INTO main.activity_summaries SELECT * FROM delta.activity_summaries;
            INSERT OR REPLACE INTO main.profile SELECT * FROM delta.profile;
            INSERT OR IGNORE INTO main.clinical_records (type, identifier, source_name, source_url, fhir_version,
              received_utc, resource_file_path)
              SELECT type, identifier, source_name, source_url, fhir_version, received_utc, resource_file_path
              FROM delta.clinical_records;
            INSERT OR REPLACE INTO main.clinical_resources (path, resource_type, resource)
              SELECT path, resource_type, resource FROM delta.clinical_resources;
            CREATE TEMP TABLE new_audiograms AS
              SELECT id FROM delta.audiograms d WHERE NOT EXISTS (SELECT 1 FROM main.audiograms m
                WHERE m.source_name IS d.source_name AND m.start_utc IS d.start_utc AND m.end_utc IS d.end_utc);
            INSERT INTO main.audiograms SELECT id + \(audiogramOffset), source_name, start_utc, end_utc, metadata
              FROM delta.audiograms WHERE id IN (SELECT id FROM temp.new_audiograms);
            INSERT INTO main.audiogram_points SELECT audiogram_id + \(audiogramOffset), frequency_hz, left_ear_dbhl,
              right_ear_dbhl, attributes FROM delta.audiogram_points WHERE audiogram_id IN (SELECT id FROM temp.new_audiograms);
            DROP TABLE temp.new_audiograms;
            INSERT INTO main.vision_prescriptions (type, date_issued_utc, expiration_utc, brand, right_eye, left_eye, attachments)
              SELECT type, date_issued_utc, expiration_utc, brand, right_eye, left_eye, attachments FROM delta.vision_prescriptions d
              WHERE NOT EXISTS (SELECT 1 FROM main.vision_prescriptions m
                                WHERE m.type IS d.type AND m.date_issued_utc IS d.date_issued_utc);
            INSERT INTO main.quarantine (run_id, line, element, type, reason)
              SELECT run_id, line, element, type, reason FROM delta.quarantine;
            """)
    }
}
