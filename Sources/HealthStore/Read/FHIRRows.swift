import HealthCore
import SQLite

/// What the FHIR output (issue 49) reads from a store, in stable orders: rows carry the store's
/// content-derived identities (a sample's `identity`, a workout's id, a correlation's
/// `identity`), never row ids a later run could number otherwise.
extension HealthStore {
    /// A source as a FHIR `Device`: name, software version, model.
    package struct FHIRSource: Sendable, Equatable, Hashable {
        package var name: String
        package var version: String?
        package var model: String?
    }

    /// A stored sample of one of `types`, with its source.
    package struct FHIRSample: Sendable {
        package var identity: Int64
        package var type: String
        package var start: Int64
        package var end: Int64
        package var value: Double
        package var source: FHIRSource
    }

    /// A blood-pressure reading (a correlation with both members).
    package struct FHIRBloodPressure: Sendable {
        package var identity: Int64
        package var time: Timestamp
        package var systolic: Double
        package var diastolic: Double
        package var source: FHIRSource
    }

    /// A workout with the figures the FHIR output shows.
    package struct FHIRWorkout: Sendable {
        package var id: Int64
        package var activity: String
        package var start: Int64
        package var end: Int64
        package var minutes: Double?
        package var distanceMeters: Double?
        package var energyKcal: Double?
        package var averageHeartRate: Double?
        package var source: FHIRSource
    }

    /// Every stored clinical resource's row and the `fhirVersion` of the `ClinicalRecord`
    /// element that names it (nil: none does), in path order, without its JSON: what the FHIR
    /// output groups the resources by before it reads them (`forEachClinicalResourceJSON(rows:)`).
    package func forEachClinicalResourceVersion(_ body: (_ row: Int64, _ fhirVersion: String?) throws -> Void) throws {
        let stmt = try database.prepare("""
            WITH versions AS (SELECT ltrim(resource_file_path, '/') AS path, min(fhir_version) AS version
                              FROM clinical_records GROUP BY 1)
            SELECT r.rowid, v.version FROM clinical_resources r LEFT JOIN versions v ON v.path = r.path ORDER BY r.path
            """)
        while try stmt.step() {
            try body(stmt.int64(0), stmt.value(1).string)
        }
    }

    /// The JSON of the clinical resources in `rows` (from `forEachClinicalResourceVersion`), in
    /// their order, `body` called for each: one in memory at a time, each found by its row.
    package func forEachClinicalResourceJSON(rows: [Int64], _ body: (String) throws -> Void) throws {
        let stmt = try database.prepare("SELECT resource FROM clinical_resources WHERE rowid = ?")
        for row in rows {
            stmt.bind(1, row)
            while try stmt.step() {
                guard let json = stmt.value(0).string else { continue }
                try body(json)
            }
        }
    }

    /// Every source of samples, workouts or correlations, in name order.
    package func fhirSources() throws -> [FHIRSource] {
        try database.rows("""
            SELECT DISTINCT name, version, device_model FROM sources
            UNION SELECT DISTINCT source_name, source_version, device_model FROM workouts WHERE source_name IS NOT NULL
            ORDER BY 1, 2, 3
            """).map { FHIRSource(name: $0[0].string ?? "", version: $0[1].string, model: $0[2].string) }
    }

    /// The sources of `platform` (a store made before version 12: its own platform's, all).
    package func fhirSources(of platform: InputPlatform) throws -> Set<FHIRSource> {
        let own = try StoreSettings.platform(in: database)
        return Set(try database.rows("SELECT DISTINCT name, version, device_model FROM sources WHERE ifnull(platform, ?) = ?",
                                     [.text(own), .text(platform.rawValue)])
            .map { FHIRSource(name: $0[0].string ?? "", version: $0[1].string, model: $0[2].string) })
    }

    /// The samples of `types` (identifiers) with a value, in (start, identity) order, `body` called
    /// for each: one row in memory at a time.
    package func forEachFHIRSample(types: [String], _ body: (FHIRSample) throws -> Void) throws {
        let marks = types.map { _ in "?" }.joined(separator: ",")
        let stmt = try database.prepare("""
            SELECT s.identity, t.identifier, s.start_us, s.end_us, s.value, src.name, src.version, src.device_model
            FROM sample_data s JOIN types t ON t.id = s.type_id JOIN sources src ON src.id = s.source_id
            WHERE t.identifier IN (\(marks)) AND s.value IS NOT NULL ORDER BY s.start_us, s.identity
            """)
        try stmt.bind(types.map { .text($0) })
        while try stmt.step() {
            guard let identity = stmt.value(0).int, let type = stmt.value(1).string, let start = stmt.value(2).int,
                  let end = stmt.value(3).int, let value = stmt.value(4).double else { continue }
            try body(FHIRSample(identity: identity, type: type, start: start, end: end, value: value,
                                source: FHIRSource(name: stmt.value(5).string ?? "", version: stmt.value(6).string,
                                                   model: stmt.value(7).string)))
        }
    }

    /// Blood-pressure correlations with both values, in time order.
    package func fhirBloodPressure() throws -> [FHIRBloodPressure] {
        try database.rows("""
            SELECT c.identity, c.start_utc,
                   (SELECT value FROM correlation_members m WHERE m.correlation_id = c.id AND m.type = 'HKQuantityTypeIdentifierBloodPressureSystolic'),
                   (SELECT value FROM correlation_members m WHERE m.correlation_id = c.id AND m.type = 'HKQuantityTypeIdentifierBloodPressureDiastolic'),
                   src.name, src.version, src.device_model
            FROM correlations c LEFT JOIN sources src ON src.id = c.source_id
            WHERE c.type = 'HKCorrelationTypeIdentifierBloodPressure' ORDER BY c.start_utc, c.identity
            """).compactMap { r in
            guard let identity = r[0].int, let time = r[1].string.flatMap(Timestamp.init(iso8601:)),
                  let systolic = r[2].double, let diastolic = r[3].double else { return nil }
            return FHIRBloodPressure(identity: identity, time: time, systolic: systolic, diastolic: diastolic,
                                     source: FHIRSource(name: r[4].string ?? "", version: r[5].string, model: r[6].string))
        }
    }

    /// Each day's heart rate (minimum, mean, maximum of the samples), in date order.
    package func fhirHeartRateDays() throws -> [(date: CivilDate, minimum: Double, mean: Double, maximum: Double)] {
        try database.rows("""
            SELECT date, minimum, average, maximum FROM daily_metrics
            WHERE type = 'HKQuantityTypeIdentifierHeartRate' AND minimum IS NOT NULL ORDER BY date
            """).compactMap { r in
            guard let date = r[0].string.flatMap({ CivilDate(iso: $0) }), let minimum = r[1].double, let mean = r[2].double,
                  let maximum = r[3].double else { return nil }
            return (date, minimum, mean, maximum)
        }
    }

    /// The daily analytics the FHIR output shows, in date order: steps, walking and running
    /// distance together, active energy, exercise minutes, sleep (minutes asleep), and whether
    /// the day is partial.
    package func fhirDays() throws -> [(date: CivilDate, values: [String: Double], partial: Bool)] {
        try database.rows("""
            SELECT date, steps, CASE WHEN walking_distance_m IS NULL AND running_distance_m IS NULL THEN NULL
                                     ELSE coalesce(walking_distance_m, 0) + coalesce(running_distance_m, 0) END,
                   active_energy_kcal, exercise_minutes, sleep_total_minutes, partial_day
            FROM daily_analytics ORDER BY date
            """).compactMap { r in
            guard let date = r[0].string.flatMap({ CivilDate(iso: $0) }) else { return nil }
            var values: [String: Double] = [:]
            for (i, name) in ["steps", "distance", "active_energy", "exercise", "sleep"].enumerated() {
                if let v = r[i + 1].double { values[name] = v }
            }
            return (date, values, (r[6].int ?? 0) != 0)
        }
    }

    /// Every workout with a start and an end, in start order.
    package func fhirWorkouts() throws -> [FHIRWorkout] {
        try database.rows("""
            SELECT id, activity_type, start_us, end_us, duration_min, distance_m, energy_kcal, avg_heart_rate,
                   source_name, source_version, device_model
            FROM workouts WHERE start_us IS NOT NULL AND end_us IS NOT NULL ORDER BY start_us, id
            """).compactMap { r in
            guard let id = r[0].int, let activity = r[1].string, let start = r[2].int, let end = r[3].int else { return nil }
            return FHIRWorkout(id: id, activity: activity, start: start, end: end, minutes: r[4].double, distanceMeters: r[5].double,
                               energyKcal: r[6].double, averageHeartRate: r[7].double,
                               source: FHIRSource(name: r[8].string ?? "", version: r[9].string, model: r[10].string))
        }
    }

    /// The identity of the earliest sample (by start, then identity): with the birth date and
    /// sex, what a person's FHIR ids derive from. A later export adds later samples, so it stays.
    package func earliestSampleIdentity() throws -> Int64? {
        // Each type's first start through the (type, start) index, then the rows at the earliest.
        try database.rows("""
            SELECT identity FROM sample_data WHERE type_id IN (SELECT id FROM types)
              AND start_us = (SELECT min((SELECT min(start_us) FROM sample_data s WHERE s.type_id = t.id)) FROM types t)
            ORDER BY identity LIMIT 1
            """).first?.first?.int
    }
}
