import HealthCore
import HealthStore

/// What a name after FROM / JOIN means.
enum SourceKind: Equatable {
    case type(HealthType)
    case table(TableSource)
}

/// The sources that are not HealthKit types.
enum TableSource: String, CaseIterable {
    case sleep, workouts, activity, daily, weekly, monthly, yearly, ecg
    /// docs/vitals-hrv-workouts.md: `daily_vitals`, `blood_pressure`, `hrv_measurements`. (`hrv`
    /// stays the alias of the HRV SDNN type: existing queries read Apple's values through it.)
    case vitals, bloodPressure = "blood_pressure", hrvMeasurements = "hrv_measurements"
    /// The data-quality tables (docs/data-quality.md); `sources` is the store's `source_inventory`.
    case reconciliation, dataQuality = "data_quality", sources
    /// A store of one person's two phones: each platform's part of each day's total (issue 60).
    case reconciliationPlatforms = "reconciliation_platforms"
    /// The menstrual cycles (docs/cycles.md): one row a cycle, and the days with cycle records.
    case cycles, cycleDays = "cycle_days"
}

/// How rows of a HealthKit type are read.
enum TypeReading {
    /// Raw samples, one row per stored sample, with their source.
    case samples
    /// The source-merged series of a cumulative type, one value per local day (`daily_metrics`).
    case mergedDays
    /// The same per local clock hour (`hourly_metrics`).
    case mergedHours
    /// One row per day and type (`daily_metrics`): what a JOIN of day-level series pairs.
    case days
}

/// Every source HealthQL knows, as subqueries over `health.sqlite`.
enum SourceCatalog {
    static let tableNames = TableSource.allCases.map(\.rawValue)

    /// Names for completion and suggestions: the table sources, then every type's alias and name.
    static var allNames: [String] { tableNames + TypeRegistry.allNames }

    static func resolve(_ ref: SourceRef) throws(HealthQLError) -> SourceKind {
        let lower = ref.name.lowercased()
        if let table = TableSource(rawValue: lower) { return .table(table) }
        if lower == "workout" { return .table(.workouts) }
        if ["daily_vitals", "vital"].contains(lower) { return .table(.vitals) }
        if ["beats", "beat_lists"].contains(lower) { return .table(.hrvMeasurements) }
        if ["ecg_recordings", "ecgs", "electrocardiograms"].contains(lower) { return .table(.ecg) }
        if let type = TypeRegistry.lookup(ref.name) { return .type(type) }
        throw HealthQLError("Unknown type '\(ref.name)'." + Suggestion.hint(for: lower, in: allNames), at: ref.at.position)
    }

    static func qualifiers(_ ref: SourceRef, _ kind: SourceKind) -> Set<String> {
        var names: Set<String> = [ref.name.lowercased()]
        switch kind {
        case .type(let t): names.formUnion([t.alias, t.name, t.identifier.lowercased()])
        case .table(let t): names.insert(t.rawValue)
        }
        return names
    }

    // MARK: HealthKit types

    static func relation(_ ref: SourceRef, type: HealthType, reading: TypeReading, params: Parameters) -> Relation {
        let qualifiers = qualifiers(ref, .type(type))
        switch reading {
        case .samples:
            let typeID = "(SELECT id FROM types WHERE identifier = \(params.add(.text(type.identifier))))"
            let value: Field = type.kind == .category
                ? Field("value", .label, "s.category_value",
                        storedValuesSQL: "SELECT DISTINCT category_value FROM sample_data WHERE type_id = "
                            + "(SELECT id FROM types WHERE identifier = ?1) AND category_value IS NOT NULL",
                        storedValuesBindings: [.text(type.identifier)])
                : Field("value", .number, "s.value")
            return Relation(
                name: ref.name, qualifiers: qualifiers,
                fields: [Field("date", .instant, "s.start_us"), value,
                         Field("end_date", .instant, "s.end_us", natural: false),
                         Field("duration", .number, "(s.end_us - s.start_us) / 60000000.0", natural: false),
                         Field("unit", .text, "s.unit", natural: type.kind != .category),
                         Field("source", .text, "src.name"), Field("device", .text, "src.device_model", natural: false),
                         Field("start", .instant, "s.start_us", natural: false),
                         Field("end", .instant, "s.end_us", natural: false)],
                from: "sample_data s JOIN sources src ON src.id = s.source_id", condition: "s.type_id = \(typeID)",
                dateKind: .instant, dayColumn: "date(s.local_day * 86400, 'unixepoch')", hourColumn: nil,
                summary: "the samples of \(type.alias)")
        case .mergedDays:
            // Counts (steps, flights, strokes) are whole per day, as daily_analytics stores them.
            let value = type.canonicalUnit == "count" ? "round(m.sum)" : "m.sum"
            return Relation(
                name: ref.name, qualifiers: qualifiers,
                fields: [Field("date", .date, "m.date"), Field("value", .number, value), Field("unit", .text, "m.unit", natural: false)],
                from: "daily_metrics m", condition: "m.type = \(params.add(.text(type.identifier)))",
                dateKind: .date, dayColumn: "m.date", hourColumn: nil,
                summary: "the source-merged daily series of \(type.alias)")
        case .mergedHours:
            return Relation(
                name: ref.name, qualifiers: qualifiers,
                fields: [Field("date", .instant, "ql_hour_start(h.date, h.hour)"), Field("value", .number, "h.sum")],
                from: "hourly_metrics h", condition: "h.type = \(params.add(.text(type.identifier)))",
                dateKind: .instant, dayColumn: "h.date", hourColumn: "h.date || ' ' || printf('%02d', h.hour) || ':00'",
                summary: "the source-merged hourly series of \(type.alias)")
        case .days:
            let value = type.aggregation == .cumulative || type.kind == .category ? "m.sum" : "m.average"
            return Relation(
                name: ref.name, qualifiers: qualifiers,
                fields: [Field("date", .date, "m.date"), Field("value", .number, value),
                         Field("minimum", .number, "m.minimum", natural: false), Field("maximum", .number, "m.maximum", natural: false),
                         Field("samples", .number, "m.count", natural: false), Field("unit", .text, "m.unit", natural: false)],
                from: "daily_metrics m", condition: "m.type = \(params.add(.text(type.identifier)))",
                dateKind: .date, dayColumn: "m.date", hourColumn: nil,
                summary: "the daily series of \(type.alias)")
        }
    }

    // MARK: tables

    static func relation(_ ref: SourceRef, table: TableSource) -> Relation {
        let qualifiers = qualifiers(ref, .table(table))
        func make(_ fields: [Field], _ from: String, day: String, hour: String? = nil, date: ValueKind = .date,
                  _ summary: String) -> Relation {
            Relation(name: ref.name, qualifiers: qualifiers, fields: fields, from: from, condition: nil, dateKind: date,
                     dayColumn: day, hourColumn: hour, summary: summary)
        }
        let metrics = DailyMetric.allCases.map { Field($0.column, .number, "t.\($0.column)") }
        switch table {
        case .sleep:
            return make([Field("date", .date, "t.night_date"), Field("asleep", .number, "t.asleep_minutes"),
                         Field("in_bed", .number, "t.in_bed_minutes"), Field("core", .number, "t.core_minutes"),
                         Field("deep", .number, "t.deep_minutes"), Field("rem", .number, "t.rem_minutes"),
                         Field("unspecified", .number, "t.unspecified_minutes", natural: false),
                         Field("awake", .number, "t.awake_minutes"),
                         Field("nap", .number, "t.nap_minutes", natural: false),
                         Field("naps", .number, "t.naps", natural: false),
                         Field("recorded", .text, "t.recorded", natural: false),
                         Field("start", .instant, "unixepoch(t.start_utc) * 1000000", natural: false),
                         Field("end", .instant, "unixepoch(t.end_utc) * 1000000", natural: false),
                         Field("duration", .number, "(unixepoch(t.end_utc) - unixepoch(t.start_utc)) / 60.0", natural: false),
                         Field("source", .text, "t.sources", natural: false),
                         Field("value", .number, "t.asleep_minutes", natural: false)],
                        "sleep_sessions t", day: "t.night_date",
                        "the sleep nights (sleep_sessions), each on its wake-up day")
        case .workouts:
            return make([Field("date", .date, "t.local_date"),
                         Field("type", .label, "t.activity_type",
                               storedValuesSQL: "SELECT DISTINCT activity_type FROM counted_workouts"),
                         Field("duration", .number, "t.duration_min"), Field("distance", .number, "t.distance_m"),
                         Field("calories", .number, "t.energy_kcal"),
                         Field("avg_heart_rate", .number, "t.avg_heart_rate", natural: false),
                         Field("min_heart_rate", .number, "t.min_heart_rate", natural: false),
                         Field("max_heart_rate", .number, "t.max_heart_rate", natural: false),
                         Field("source", .text, "t.source_name"), Field("device", .text, "t.device_model", natural: false),
                         Field("start", .instant, "t.start_us", natural: false), Field("end", .instant, "t.end_us", natural: false),
                         Field("value", .number, "t.duration_min", natural: false)],
                        "counted_workouts t", day: "t.local_date", hour: "ql_hour(t.start_us)",
                        "the workouts, each once (a copy recorded by a second app is left out)")
        case .activity:
            return make([Field("date", .date, "t.date"), Field("active_energy", .number, "t.active_energy_kcal"),
                         Field("active_energy_goal", .number, "t.active_energy_goal_kcal"),
                         Field("move_time", .number, "t.move_time_min", natural: false),
                         Field("move_time_goal", .number, "t.move_time_goal_min", natural: false),
                         Field("exercise", .number, "t.exercise_min"), Field("exercise_goal", .number, "t.exercise_goal_min"),
                         Field("stand_hours", .number, "t.stand_hours"), Field("stand_hours_goal", .number, "t.stand_hours_goal"),
                         Field("value", .number, "t.active_energy_kcal", natural: false)],
                        "activity_summaries t", day: "t.date", "the activity summaries")
        case .ecg:
            let start = "unixepoch(t.recorded_utc) * 1000000"
            return make([Field("date", .instant, start), Field("classification", .text, "t.classification"),
                         Field("heart_rate", .number, "t.average_heart_rate"), Field("samples", .number, "t.sample_count"),
                         Field("device", .text, "t.device"), Field("symptoms", .text, "t.symptoms", natural: false),
                         Field("sample_rate", .number, "t.sample_rate_hz", natural: false),
                         Field("duration", .number, "t.sample_count / t.sample_rate_hz / 60.0", natural: false),
                         Field("lead", .text, "t.lead", natural: false), Field("unit", .text, "t.unit", natural: false),
                         Field("software_version", .text, "t.software_version", natural: false),
                         Field("file", .text, "t.source_file", natural: false), Field("id", .number, "t.id", natural: false),
                         Field("start", .instant, start, natural: false),
                         Field("value", .number, "t.average_heart_rate", natural: false)],
                        "ecg_recordings t", day: "t.local_date", hour: "ql_hour(\(start))", date: .instant,
                        "the ECG recordings (ecg_recordings)")
        case .vitals:
            return make([Field("date", .date, "t.date")]
                            + VitalsStore.dailyVitalColumns.map { Field($0, .number, "t.\($0)") }
                            + [Field("value", .number, "t.resting_heart_rate", natural: false)],
                        "daily_vitals t", day: "t.date", "the daily vitals (daily_vitals)")
        case .bloodPressure:
            let time = "unixepoch(t.time_utc) * 1000000"
            return make([Field("date", .instant, time), Field("systolic", .number, "t.systolic_mmhg"),
                         Field("diastolic", .number, "t.diastolic_mmhg"), Field("source", .text, "t.source_name"),
                         Field("start", .instant, time, natural: false),
                         Field("value", .number, "t.systolic_mmhg", natural: false)],
                        "blood_pressure t", day: "t.local_date", hour: "ql_hour(\(time))", date: .instant,
                        "the blood-pressure readings (blood_pressure)")
        case .hrvMeasurements:
            let time = "unixepoch(t.start_utc) * 1000000"
            return make([Field("date", .instant, time), Field("rmssd", .number, "t.rmssd_ms"), Field("sdnn", .number, "t.sdnn_ms"),
                         Field("apple_sdnn", .number, "t.apple_sdnn_ms"), Field("mean_nn", .number, "t.mean_nn_ms"),
                         Field("pnn50", .number, "t.pnn50_percent"), Field("beats", .number, "t.beats"),
                         Field("intervals", .number, "t.intervals", natural: false),
                         Field("source", .text, "t.source_name", natural: false),
                         Field("note", .text, "t.note", natural: false), Field("start", .instant, time, natural: false),
                         Field("value", .number, "t.rmssd_ms", natural: false)],
                        "hrv_measurements t", day: "t.local_date", hour: "ql_hour(\(time))", date: .instant,
                        "the HRV measurements from beat lists (hrv_measurements)")
        case .reconciliation:
            return make([Field("date", .date, "t.date"),
                         Field("metric", .label, "t.metric", storedValuesSQL: "SELECT DISTINCT metric FROM reconciliation"),
                         Field("merged", .number, "t.merged"), Field("all_sources_sum", .number, "t.all_sources_sum"),
                         Field("overlap_removed", .number, "t.overlap_removed"), Field("source_count", .number, "t.source_count"),
                         Field("rings", .number, "t.rings"), Field("rings_difference", .number, "t.rings_difference"),
                         Field("rings_disagree", .number, "t.rings_disagree"),
                         Field("duplicates_dropped", .number, "t.duplicates_dropped"),
                         Field("value", .number, "t.overlap_removed", natural: false)],
                        "reconciliation t", day: "t.date", "our daily totals against every source's sum and the rings")
        case .reconciliationPlatforms:
            return make([Field("date", .date, "t.date"),
                         Field("metric", .label, "t.metric", storedValuesSQL: "SELECT DISTINCT metric FROM reconciliation_platforms"),
                         Field("platform", .text, "t.platform"),
                         Field("counted", .number, "t.counted"), Field("all_sources_sum", .number, "t.all_sources_sum"),
                         Field("samples", .number, "t.samples"), Field("value", .number, "t.counted", natural: false)],
                        "reconciliation_platforms t", day: "t.date", "each platform's part of a day's total (two phones)")
        case .dataQuality:
            return make([Field("date", .date, "t.date"), Field("watch_hours", .number, "t.watch_hours"),
                         Field("phone_hours", .number, "t.phone_hours"), Field("source_count", .number, "t.source_count"),
                         Field("valid_day", .number, "t.valid_day"), Field("partial_day", .number, "t.partial_day"),
                         Field("time_zone", .text, "t.time_zone"), Field("utc_offset", .text, "t.utc_offset", natural: false),
                         Field("value", .number, "t.watch_hours", natural: false)],
                        "data_quality t", day: "t.date", "each day's wear hours and whether it is valid")
        case .sources:
            return make([Field("date", .date, "t.first_seen", natural: false), Field("source", .text, "t.source_name"),
                         Field("device", .text, "t.device_model"),
                         Field("type", .text, "t.type"),
                         Field("records", .number, "t.records"), Field("first_seen", .date, "t.first_seen"),
                         Field("last_seen", .date, "t.last_seen"), Field("priority", .number, "t.priority"),
                         Field("value", .number, "t.records", natural: false)],
                        "source_inventory t", day: "t.first_seen", "every source and device (source_inventory)")
        case .cycles:
            return make([Field("date", .date, "t.start_date"), Field("start", .date, "t.start_date", natural: false),
                         Field("next_start", .date, "t.next_start_date", natural: false),
                         Field("period_days", .number, "t.period_days"), Field("cycle_length", .number, "t.cycle_length_days"),
                         Field("complete", .number, "t.complete"), Field("start_from", .text, "t.start_from"),
                         Field("light_days", .number, "t.flow_light_days", natural: false),
                         Field("medium_days", .number, "t.flow_medium_days", natural: false),
                         Field("heavy_days", .number, "t.flow_heavy_days", natural: false),
                         Field("unspecified_days", .number, "t.flow_unspecified_days", natural: false),
                         Field("spotting_days", .number, "t.spotting_days"),
                         Field("ovulation_positive", .date, "t.ovulation_positive_date"),
                         Field("ovulation_tests", .number, "t.ovulation_tests", natural: false),
                         Field("flow_records", .number, "t.flow_records", natural: false),
                         Field("source", .text, "t.sources", natural: false), Field("notices", .text, "t.notices", natural: false),
                         Field("value", .number, "t.cycle_length_days", natural: false)],
                        "cycles t", day: "t.start_date",
                        "the menstrual cycles, each from its start day (cycle_length empty for the open one and a partial one)")
        case .cycleDays:
            return make([Field("date", .date, "t.date"), Field("cycle_start", .date, "t.cycle_start", natural: false),
                         Field("cycle_day", .number, "t.cycle_day"), Field("in_period", .number, "t.in_period"),
                         Field("flow", .text, "t.flow"), Field("spotting", .number, "t.spotting"),
                         Field("ovulation_test", .text, "t.ovulation_test"), Field("mucus", .text, "t.cervical_mucus"),
                         Field("basal_temperature", .number, "t.basal_temperature_degc"),
                         Field("sexual_activity", .number, "t.sexual_activity", natural: false),
                         Field("notices", .text, "t.notices", natural: false),
                         Field("value", .number, "t.cycle_day", natural: false)],
                        "cycle_days t", day: "t.date", "each day with a cycle record or inside a period (cycle_days)")
        case .daily:
            // `partial_day` (1: the first day of data, the export's own day): an assistant reading a
            // day's figures must know a part-day from a whole one (issue 45).
            return make([Field("date", .date, "t.date")] + metrics + [Field("partial_day", .number, "t.partial_day")],
                        "daily_analytics t", day: "t.date", "daily_analytics")
        case .weekly:
            return make([Field("date", .date, "t.week_start", natural: false), Field("week_start", .date, "t.week_start"),
                         Field("week_end", .date, "t.week_end")] + metrics
                            + [Field("days_with_data", .number, "t.days_with_data")],
                        "weekly_analytics t", day: "t.week_start", "weekly_analytics")
        case .monthly:
            return make([Field("date", .date, "t.start_date", natural: false), Field("year", .number, "t.year"),
                         Field("month", .number, "t.month"), Field("start_date", .date, "t.start_date", natural: false),
                         Field("end_date", .date, "t.end_date", natural: false)] + metrics
                            + [Field("days_with_data", .number, "t.days_with_data")],
                        "monthly_analytics t", day: "t.start_date", "monthly_analytics")
        case .yearly:
            return make([Field("date", .date, "t.start_date", natural: false), Field("year", .number, "t.year"),
                         Field("start_date", .date, "t.start_date", natural: false),
                         Field("end_date", .date, "t.end_date", natural: false)] + metrics
                            + [Field("days_with_data", .number, "t.days_with_data")],
                        "yearly_analytics t", day: "t.start_date", "yearly_analytics")
        }
    }
}
