import SQLite

/// The history of the store's schema: the steps from a store of version 3 (`oldestUpgradable`)
/// to one of `version`, oldest first, each with the version it brings the store to (`upgrade`
/// runs them). A new version adds its step at the end and raises `version`.
///
/// A step runs the fresh schema's own statement while that is still what its version added;
/// where the fresh schema has moved on since, it keeps its version's statement
/// (`version6Tables`). StoreUpgradeTests replays the steps on version 3's tables and compares
/// each version with its shape in git history, so editing a statement a step shares, without a
/// new version, fails there.
///
/// Every step still looks before it adds (`IF NOT EXISTS`, `addColumn`) and can run twice,
/// although `upgrade` runs each once per store: stores that exist today can hold more than their
/// `user_version` says. The upgrade before issue 57 set `user_version` only at its end, after
/// statements that, outside a transaction (a staged store resumed), committed one by one, so a
/// kill in between left later tables under an earlier number. And versions 5 and 6 each reached
/// main in two merges (5: sleep f4aa40f, then partial days 5b484ea; 6: vitals dcf22bb, then
/// quality cd0f3d2): the steps to 6 and to 7 first run the step before theirs again, for a store
/// made between the two.
extension StoreSchema {
    package static let migrations: [SchemaMigration] = [
        SchemaMigration(version: 4, step: addECGTables),
        SchemaMigration(version: 5, step: addSleepNightsAndPartialDays),
        SchemaMigration(version: 6, step: addVitalsAndQualityTables),
        SchemaMigration(version: 7, step: addDuplicateCopies),
        SchemaMigration(version: 8, step: addWorkoutCopies),
        SchemaMigration(version: 9, step: addZoneTimeline),
        SchemaMigration(version: 10, step: addDayZones),
        SchemaMigration(version: 11, step: addClinicalResources),
        SchemaMigration(version: 12, step: addPlatformsAndCycles),
    ]

    /// Version 4 (issue 26): the electrocardiograms, `ecg_recordings` and `ecg_samples`.
    static func addECGTables(_ database: Database) throws {
        try database.execute(ecgTables)
    }

    /// Version 5 (issue 29): nights dated by their wake-up day, naps and in-bed-only nights (the
    /// daily and period tables' `sleep_in_bed_minutes` and `sleep_nap_minutes`, `sleep_sessions`
    /// in its new shape), and `daily_analytics.partial_day` (docs/days-and-averages.md). The old
    /// `sleep_sessions` rows are not kept: a version change recomputes the analytics.
    static func addSleepNightsAndPartialDays(_ database: Database) throws {
        for table in ["daily_analytics", "weekly_analytics", "monthly_analytics", "yearly_analytics"] {
            for column in ["sleep_in_bed_minutes REAL", "sleep_nap_minutes REAL"] {
                try addColumn(column, to: table, in: database)
            }
        }
        if !(try columns(of: "sleep_sessions", in: database).contains("recorded")) {
            try database.execute("DROP TABLE IF EXISTS sleep_sessions; " + sleepSessions)
        }
        try addColumn(partialDayColumn, to: "daily_analytics", in: database)
    }

    /// Version 6: the vitals tables (issue 31, docs/vitals-hrv-workouts.md) and the data-quality
    /// tables (issue 32, docs/data-quality.md), as version 6 had them. A store of version 5 from
    /// between its two merges lacks `partial_day`: the step to 5 adds it first.
    static func addVitalsAndQualityTables(_ database: Database) throws {
        try addSleepNightsAndPartialDays(database)
        try database.execute(version6Tables)
    }

    /// Version 7 (issue 32, docs/data-quality.md): the exact copies dropped at load
    /// (`duplicate_copies`) and `reconciliation.duplicates_dropped` (NULL on the rows already
    /// there). The copies of what a store with samples loaded before were never counted: the
    /// marker `duplicatesUnknownThroughKey` says through which day, set with the table (one
    /// step, one transaction: a store has both or neither). A store of version 6 from between
    /// its two merges lacks the quality tables: the step to 6 adds them first.
    static func addDuplicateCopies(_ database: Database) throws {
        try addVitalsAndQualityTables(database)
        if !(try database.hasTable("duplicate_copies")) {
            try database.execute("""
                \(duplicateTables)
                INSERT OR REPLACE INTO settings (key, value)
                  SELECT '\(duplicatesUnknownThroughKey)', date(max(local_day) * 86400, 'unixepoch') FROM sample_data
                  HAVING count(*) > 0;
                """)
        }
        try addColumn("duplicates_dropped INTEGER", to: "reconciliation", in: database)
    }

    /// Version 8 (issue 44): a workout recorded by two apps counted once,
    /// `workout_details.duplicate_of` and the `counted_workouts` view.
    static func addWorkoutCopies(_ database: Database) throws {
        try addColumn("duplicate_of INTEGER", to: "workout_details", in: database)
        try database.execute(countedWorkoutsView)
    }

    /// Version 9 (issue 48): the person's zone timeline, `zone_timeline` and `zone_windows`.
    static func addZoneTimeline(_ database: Database) throws {
        try database.execute(zoneTables)
    }

    /// Version 10 (issue 48): days local to where the person was, `daily_analytics.zone` and
    /// `travel_day`.
    static func addDayZones(_ database: Database) throws {
        for column in zoneDayColumns { try addColumn(column, to: "daily_analytics", in: database) }
    }

    /// Version 11 (issue 49): the FHIR resources of `clinical-records/`, `clinical_resources`.
    static func addClinicalResources(_ database: Database) throws {
        try database.execute(clinicalResources)
    }

    /// Version 12 (issue 60): `sources.platform`, part of a source's key,
    /// `reconciliation_platforms`, and the menstrual cycles (docs/cycles.md), `cycles` and `cycle_days`. The table is made again (a key cannot be altered), its ids
    /// kept; a store of before held one platform's sources: the one its settings name.
    static func addPlatformsAndCycles(_ database: Database) throws {
        if !(try columns(of: "sources", in: database).contains("platform")) {
            try database.execute("""
                CREATE TEMP TABLE sources_before AS SELECT id, name, version, device, device_model, device_hardware FROM sources;
                DROP TABLE sources;
                \(sourcesTable)
                INSERT INTO sources (id, name, version, device, device_model, device_hardware, platform)
                  SELECT id, name, version, device, device_model, device_hardware,
                         coalesce((SELECT value FROM settings WHERE key = 'platform'), 'apple-health') FROM temp.sources_before;
                DROP TABLE temp.sources_before;
                """)
        }
        try database.execute(platformShares)
        try database.execute(cycleTables)
    }
}
