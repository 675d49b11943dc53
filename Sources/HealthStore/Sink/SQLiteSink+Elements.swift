import HealthCore
import SQLite

/// Workouts, correlations and the rarer element kinds. These are few (thousands, not
/// millions), so plain statements per element are fine here.
extension SQLiteSink {
    func write(_ w: NormalizedWorkout) throws {
        guard firstTime(workout: w.id) else { return }
        let x = w.workout
        func statistic(_ type: String) -> ExportWorkoutStatistic? { x.statistics.first { $0.type == type } }
        let hr = statistic("HKQuantityTypeIdentifierHeartRate")
        try database.rows("""
            INSERT INTO workouts (id, activity_type, source_name, source_version, device_model, start_utc, end_utc,
              creation_utc, local_date, duration_min, distance_m, energy_kcal, avg_heart_rate, min_heart_rate,
              max_heart_rate, swimming_strokes, flights_climbed, metadata, start_us, end_us)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """, [.integer(w.id), .text(x.activityType), text(x.source.name), text(x.source.version),
                  text(x.source.deviceModel), text(x.startDate?.iso8601), text(x.endDate?.iso8601),
                  text(x.creationDate?.iso8601), text(w.localDate?.iso8601), real(w.durationMinutes),
                  real(w.distanceMeters), real(w.energyKilocalories), real(hr?.average), real(hr?.minimum),
                  real(hr?.maximum),
                  real(statistic("HKQuantityTypeIdentifierSwimmingStrokeCount")?.sum ?? x.totalSwimmingStrokeCount?.value),
                  real(statistic("HKQuantityTypeIdentifierFlightsClimbed")?.sum ?? x.totalFlightsClimbed?.value),
                  text(JSONText.object(x.metadata)), integer(x.startDate?.microseconds),
                  integer(x.endDate?.microseconds)])
        countWorkout()
        try writeEventsAndStatistics(workout: w.id, activity: nil, events: x.events, statistics: x.statistics)
        for (ordinal, a) in x.activities.enumerated() {
            try database.rows("""
                INSERT INTO workout_activities (workout_id, ordinal, uuid, activity_type, start_utc, end_utc,
                  duration_min, metadata) VALUES (?,?,?,?,?,?,?,?)
                """, [.integer(w.id), .integer(Int64(ordinal)), text(a.uuid), text(a.activityType ?? x.activityType),
                      text(a.startDate?.iso8601), text(a.endDate?.iso8601), real(minutes(a.duration)),
                      text(JSONText.object(a.metadata))])
            try writeEventsAndStatistics(workout: w.id, activity: Int64(ordinal), events: a.events, statistics: a.statistics)
        }
        for route in x.routes {
            try database.rows("""
                INSERT INTO workout_routes (workout_id, source_name, start_utc, end_utc, file_path, metadata)
                VALUES (?,?,?,?,?,?)
                """, [.integer(w.id), text(route.source.name), text(route.startDate?.iso8601),
                      text(route.endDate?.iso8601), text(route.filePath), text(JSONText.object(route.metadata))])
            let routeID = database.lastInsertRowID
            if let path = route.filePath { noteRoute(path: path, id: routeID, start: route.startDate, end: route.endDate) }
            try writePoints(route.points, route: routeID)
        }
    }

    private func writeEventsAndStatistics(workout: Int64, activity: Int64?, events: [ExportWorkoutEvent],
                                          statistics: [ExportWorkoutStatistic]) throws {
        for e in events {
            try database.rows("""
                INSERT INTO workout_events (workout_id, activity_ordinal, type, date_utc, duration_min, metadata)
                VALUES (?,?,?,?,?,?)
                """, [.integer(workout), integer(activity), .text(e.type), text(e.date?.iso8601),
                      real(minutes(e.duration)), text(JSONText.object(e.metadata))])
        }
        for s in statistics {
            let unit = s.unit ?? ""
            // Into the type's own unit, as its samples are (ground-contact time in ms, not the
            // time dimension's minutes).
            let target = TypeRegistry.type(for: s.type).canonicalUnit
            let conversion = UnitConverter.conversion(for: unit, to: target)
            func canonical(_ v: Double?) -> SQLValue { real(v.map { conversion?.apply($0) ?? $0 }) }
            try database.rows("""
                INSERT INTO workout_statistics (workout_id, activity_ordinal, type, start_utc, end_utc, sum, average,
                  minimum, maximum, unit, raw_unit) VALUES (?,?,?,?,?,?,?,?,?,?,?)
                """, [.integer(workout), integer(activity), .text(s.type), text(s.startDate?.iso8601),
                      text(s.endDate?.iso8601), canonical(s.sum), canonical(s.average), canonical(s.minimum),
                      canonical(s.maximum), text(conversion?.canonicalUnit ?? unit), text(s.unit)])
        }
    }

    func writeRest(_ batch: IngestBatch) throws {
        for c in batch.correlations { try write(c) }
        for a in batch.activitySummaries { try write(a) }
        if let profile = batch.profile { try write(profile, locale: batch.locale, exportDate: batch.exportDate) }
        for c in batch.clinicalRecords {
            try database.rows("""
                INSERT OR IGNORE INTO clinical_records (type, identifier, source_name, source_url, fhir_version,
                  received_utc, resource_file_path) VALUES (?,?,?,?,?,?,?)
                """, [.text(c.type), text(c.identifier), text(c.sourceName), text(c.sourceURL), text(c.fhirVersion),
                      text(c.receivedDate?.iso8601), text(c.resourceFilePath)])
        }
        for r in batch.clinicalResources {
            try database.rows("INSERT OR REPLACE INTO clinical_resources (path, resource_type, resource) VALUES (?,?,?)",
                              [.text(r.path), .text(r.resourceType), .text(String(decoding: r.json, as: UTF8.self))])
        }
        for a in batch.audiograms {
            try database.rows("INSERT INTO audiograms (source_name, start_utc, end_utc, metadata) VALUES (?,?,?,?)",
                              [text(a.source.name), text(a.startDate?.iso8601), text(a.endDate?.iso8601),
                               text(JSONText.object(a.metadata))])
            let id = database.lastInsertRowID
            for p in a.points {
                try database.rows("""
                    INSERT INTO audiogram_points (audiogram_id, frequency_hz, left_ear_dbhl, right_ear_dbhl, attributes)
                    VALUES (?,?,?,?,?)
                    """, [.integer(id), real(p.frequencyHz), real(p.leftEarDBHL), real(p.rightEarDBHL),
                          text(JSONText.object(p.attributes))])
            }
        }
        for v in batch.visionPrescriptions {
            try database.rows("""
                INSERT INTO vision_prescriptions (type, date_issued_utc, expiration_utc, brand, right_eye, left_eye,
                  attachments) VALUES (?,?,?,?,?,?,?)
                """, [text(v.type), text(v.dateIssued?.iso8601), text(v.expirationDate?.iso8601), text(v.brand),
                      text(JSONText.object(v.rightEye)), text(JSONText.object(v.leftEye)),
                      text(v.attachments.isEmpty ? nil : "[" + v.attachments.compactMap(JSONText.object).joined(separator: ",") + "]")])
        }
        for file in batch.routeFiles { try writeRouteFile(file) }
        for recording in batch.ecgRecordings { try write(recording) }
    }

    /// A recording and its voltages; nothing if the store holds it already (same instant and
    /// watch: `ecg_recording_identity`).
    private func write(_ r: ECGRecording) throws {
        try database.rows("""
            INSERT OR IGNORE INTO ecg_recordings (recorded_utc, local_date, classification, symptoms, software_version,
              device, sample_rate_hz, lead, unit, average_heart_rate, sample_count, source_file)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
            """, [.text(r.recordedAt.iso8601), text(r.localDate?.iso8601), text(r.classification), text(r.symptoms),
                  text(r.softwareVersion), text(r.device), real(r.sampleRateHz), text(r.lead), text(r.unit),
                  real(r.averageHeartRate), .integer(Int64(r.microvolts.count)), .text(r.sourceFile)])
        guard database.changes > 0 else { return }
        let id = database.lastInsertRowID
        let insert = try database.prepare("INSERT INTO ecg_samples (recording_id, sample_index, microvolts) VALUES (?,?,?)")
        for (index, microvolts) in r.microvolts.enumerated() {
            insert.bind(1, id)
            insert.bind(2, Int64(index))
            insert.bind(3, microvolts)
            try insert.run()
        }
        countECGRecording()
    }

    private func write(_ c: ExportCorrelation) throws {
        var h = StableHasher()
        h.combine(c.type); h.combine(c.source.name)
        h.combine(c.startDate?.microseconds ?? 0); h.combine(c.endDate?.microseconds ?? 0)
        h.combine(c.creationDate?.microseconds ?? 0)
        for m in c.members { h.combine(m.type); h.combine(m.value) }
        guard firstTime(correlation: h.value) else { return }
        try database.rows("""
            INSERT INTO correlations (type, source_id, start_utc, end_utc, creation_utc, metadata, identity)
            VALUES (?,?,?,?,?,?,?)
            """, [.text(c.type), .integer(try sourceID(c.source)), text(c.startDate?.iso8601), text(c.endDate?.iso8601),
                  text(c.creationDate?.iso8601), text(JSONText.object(c.metadata)), .integer(Int64(bitPattern: h.value))])
        let id = database.lastInsertRowID
        countCorrelation()
        for m in c.members {
            let number = m.value.flatMap(Double.init)
            let converted = number.map { UnitConverter.convert($0, m.unit ?? "") }
            try database.rows("""
                INSERT INTO correlation_members (correlation_id, type, value, unit, raw_value, raw_unit, start_utc, end_utc)
                VALUES (?,?,?,?,?,?,?,?)
                """, [.integer(id), .text(m.type), real(converted), text(UnitConverter.canonicalUnit(m.unit ?? "")),
                      text(m.value), text(m.unit), text(m.startDate?.iso8601), text(m.endDate?.iso8601)])
        }
    }

    private func write(_ a: ExportActivitySummary) throws {
        guard let date = a.date else {
            try quarantine(QuarantineEntry(line: a.line, element: "ActivitySummary", type: nil,
                                           reason: "missing or unreadable dateComponents"))
            return
        }
        let energy = a.activeEnergyBurned.map { UnitConverter.convert($0, a.activeEnergyBurnedUnit ?? "kcal") }
        let goal = a.activeEnergyBurnedGoal.map { UnitConverter.convert($0, a.activeEnergyBurnedUnit ?? "kcal") }
        try database.rows("""
            INSERT INTO activity_summaries (date, active_energy_kcal, active_energy_goal_kcal, move_time_min,
              move_time_goal_min, exercise_min, exercise_goal_min, stand_hours, stand_hours_goal)
            VALUES (?,?,?,?,?,?,?,?,?)
            ON CONFLICT (date) DO UPDATE SET active_energy_kcal = excluded.active_energy_kcal,
              active_energy_goal_kcal = excluded.active_energy_goal_kcal, move_time_min = excluded.move_time_min,
              move_time_goal_min = excluded.move_time_goal_min, exercise_min = excluded.exercise_min,
              exercise_goal_min = excluded.exercise_goal_min, stand_hours = excluded.stand_hours,
              stand_hours_goal = excluded.stand_hours_goal
            """, [.text(date.iso8601), real(energy), real(goal), real(a.appleMoveTime), real(a.appleMoveTimeGoal),
                  real(a.appleExerciseTime), real(a.appleExerciseTimeGoal), real(a.appleStandHours),
                  real(a.appleStandHoursGoal)])
    }

    private func write(_ p: ExportProfile, locale: String?, exportDate: Timestamp?) throws {
        let c = p.characteristics
        func value(_ key: String) -> String? {
            guard let v = c["HKCharacteristicTypeIdentifier" + key], !v.isEmpty else { return nil }
            return v
        }
        let all = c.keys.sorted().map { MetadataEntry(key: $0, value: c[$0]!) }
        try database.rows("""
            INSERT OR REPLACE INTO profile (id, date_of_birth, biological_sex, blood_type, fitzpatrick_skin_type,
              cardio_fitness_medications_use, locale, export_date_utc, characteristics, updated_at)
            VALUES (1,?,?,?,?,?,?,?,?,strftime('%Y-%m-%dT%H:%M:%SZ','now'))
            """, [text(value("DateOfBirth")), text(value("BiologicalSex")), text(value("BloodType")),
                  text(value("FitzpatrickSkinType")), text(value("CardioFitnessMedicationsUse")), text(locale),
                  text(exportDate?.iso8601), text(JSONText.object(all))])
    }
}

private func text(_ s: String?) -> SQLValue { s.map(SQLValue.text) ?? .null }
private func real(_ d: Double?) -> SQLValue { d.flatMap { $0.isFinite ? SQLValue.real($0) : nil } ?? .null }
private func integer(_ i: Int64?) -> SQLValue { i.map(SQLValue.integer) ?? .null }
private func minutes(_ m: Measurement?) -> Double? {
    m.map { UnitConverter.convert($0.value, $0.unit ?? "min") }
}
