import HealthCore

/// The normalize stage: checks each record's dates and value, converts the value into its
/// canonical unit, finds its local day, and sends what cannot be used to quarantine with
/// the reason. Workouts get their totals in canonical units.
package struct Normalizer: StageHandler {
    package typealias InboundIn = IngestBatch
    package typealias InboundOut = NormalizedBatch

    private var calendar: LocalCalendar

    package init(calendar: LocalCalendar) { self.calendar = calendar }

    package mutating func handle(_ input: consuming IngestBatch, emit: (consuming NormalizedBatch) throws -> Void) throws {
        var out = NormalizedBatch()
        var records = input.records
        input.records = []
        normalize(&records, into: &out)
        for workout in input.workouts {
            // A workout that cannot be placed in time is quarantined with the reason, as a record
            // is, rather than stored without dates (where no day, week or report would show it).
            guard workout.startDate != nil, workout.endDate != nil else {
                let missing = workout.startDate == nil ? "startDate" : "endDate"
                out.quarantine.append(QuarantineEntry(line: workout.line, element: "Workout", type: workout.activityType,
                                                      reason: "missing or unreadable \(missing)"))
                continue
            }
            out.workouts.append(normalize(workout))
        }
        input.workouts = []
        out.rest = input
        out.rest.profile = out.rest.profile.map(ProfileValues.normalized)
        for i in out.rest.ecgRecordings.indices {
            out.rest.ecgRecordings[i].localDate = calendar.localDate(of: out.rest.ecgRecordings[i].recordedAt)
        }
        // Handed over, not copied: the next stage then owns the only reference to the samples
        // and can move them on in turn (`consume out` is not supported here by Swift 6.3).
        var batch = NormalizedBatch()
        swap(&batch, &out)
        try emit(consume batch)
    }

    /// Each record moves into its sample, uncopied: the sample is made in the array's own
    /// storage. Appended, it was made on the stack and copied in (a dozen reference counts
    /// retained, then released with the copy on the stack).
    private mutating func normalize(_ records: inout [ExportRecord], into out: inout NormalizedBatch) {
        var quarantine = out.quarantine
        out.samples = Array(unsafeUninitializedCapacity: records.count) { slots, made in
            records.drain { record in
                if normalize(record, into: slots.baseAddress! + made, quarantine: &quarantine) { made += 1 }
            }
        }
        out.quarantine = quarantine
    }

    package mutating func normalize(_ record: consuming ExportRecord) -> Result<Sample, QuarantineEntry> {
        var quarantine: [QuarantineEntry] = []
        let slot = UnsafeMutablePointer<Sample>.allocate(capacity: 1)
        defer { slot.deallocate() }
        if normalize(record, into: slot, quarantine: &quarantine) { return .success(slot.move()) }
        return .failure(quarantine[0])
    }

    /// Initializes `slot` with the record's sample and returns true, or appends the record's
    /// quarantine entry and returns false. The record moves into the sample.
    mutating func normalize(_ record: consuming ExportRecord, into slot: UnsafeMutablePointer<Sample>,
                            quarantine: inout [QuarantineEntry]) -> Bool {
        if record.type.isEmpty { return Self.reject(record, quarantine: &quarantine, "missing type") }
        if let bad = record.unreadableDates.first { return Self.reject(record, quarantine: &quarantine, "unreadable \(bad)") }
        guard let start = record.startDate else { return Self.reject(record, quarantine: &quarantine, "missing startDate") }
        let end = record.endDate ?? start
        if end < start { return Self.reject(record, quarantine: &quarantine, "endDate before startDate") }
        // The facts are read in place from `lastType`: a copy of them (`let facts = …`)
        // retained and released the strings of the type's registry entry once a record (issue 62).
        refreshFacts(for: record.type)
        let maximumSpan = lastType.maximumSpan
        // A record's span is spread over its days and hours: a hostile one from year 0001 to
        // 9999 would take memory and time per day of it.
        if end.microseconds - start.microseconds > maximumSpan {
            let days = (end.microseconds - start.microseconds) / 86_400_000_000
            return Self.reject(record, quarantine: &quarantine,
                               "spans \(days) days, more than the \(maximumSpan / 86_400_000_000) days one \(lastType.alias) record may")
        }
        var value: Double?
        var unit = record.unit
        var category: String?
        if lastType.isCategory {
            category = CategoryValues.canonical(record.value, type: record.type)
        } else if let text = record.value ?? Self.aggregatedValue(record) {
            guard let number = DecimalText.double(text) else {
                return Self.reject(record, quarantine: &quarantine, "unreadable value '\(text.prefix(40))'")
            }
            value = number
            if let printed = record.unit, !printed.isEmpty {
                switch conversion(type: record.type, unit: printed) {
                case .success(let c):
                    value = c.apply(number)
                    unit = c.canonicalUnit
                case .failure(let reason):
                    return Self.reject(record, quarantine: &quarantine, reason.description)
                }
            }
        } else if lastType.isQuantity {
            return Self.reject(record, quarantine: &quarantine, "missing value")
        }
        if let value, let problem = lastType.bounds.problem(with: value) {
            return Self.reject(record, quarantine: &quarantine, problem)
        }
        let userEntered = Self.wasUserEntered(record)
        let localDate = calendar.localDate(of: start)
        Sample.initialize(slot, record: record, start: start, end: end, value: value, unit: unit, categoryValue: category,
                          localDate: localDate, userEntered: userEntered)
        return true
    }

    private static func reject(_ record: borrowing ExportRecord, quarantine: inout [QuarantineEntry],
                               _ reason: String) -> Bool {
        quarantine.append(QuarantineEntry(line: record.line, element: "Record", type: record.type, reason: reason))
        return false
    }

    static func wasUserEntered(_ record: ExportRecord) -> Bool {
        guard let entry = record.metadata.first(where: { $0.key == "HKWasUserEntered" }) else { return false }
        return entry.value == "1" || entry.value == "true"
    }

    /// iOS 8 wrote daily aggregates with `min`/`max`/`average` (or `sum`) and no `value`
    /// for discrete types; the average is the value.
    static func aggregatedValue(_ record: ExportRecord) -> String? {
        record.metadata.first { $0.key == "average" }?.value ?? record.metadata.first { $0.key == "sum" }?.value
    }

    /// What the checks of a record need from its type. Kept for the last type seen: records
    /// come in long runs of one type, and type names are interned, so comparing the name with
    /// the last one (equal storage) is cheaper than the two lookups it saves, each hashing it.
    private struct TypeFacts {
        let identifier: String
        let alias: String
        let maximumSpan: Int64
        let bounds: PlausibleValues.Bounds
        let isCategory: Bool
        let isQuantity: Bool

        init(_ identifier: String) {
            let type = TypeRegistry.type(for: identifier)
            self.identifier = identifier
            alias = type.alias
            maximumSpan = PlausibleValues.maximumSpan(of: type)
            bounds = PlausibleValues.bounds(of: type)
            isCategory = identifier.hasPrefix("HKCategoryTypeIdentifier")
            isQuantity = identifier.hasPrefix("HKQuantityTypeIdentifier")
        }
    }
    /// Not optional, so that the checks borrow it in place (an unwrapped optional's `bounds`
    /// was copied for every value checked). No record has the empty type of the first facts:
    /// it is refused before its facts are needed.
    private var lastType = TypeFacts("")

    /// Makes `lastType` the facts of `identifier`.
    private mutating func refreshFacts(for identifier: String) {
        if lastType.identifier != identifier { lastType = TypeFacts(identifier) }
    }

    private struct TypeUnit: Hashable { var type: String; var unit: String }
    /// Conversions by (type, printed unit): a handful of pairs per export, looked up per record.
    private var conversions: [TypeUnit: Result<UnitConverter.Conversion, QuarantineReason>] = [:]
    private var lastConversion: TypeUnit?
    private var lastResult: Result<UnitConverter.Conversion, QuarantineReason> = .failure(QuarantineReason(description: ""))

    struct QuarantineReason: Error, CustomStringConvertible {
        var description: String
    }

    /// The conversion of `unit` into the registry's canonical unit for `type`; a unit of
    /// another dimension (steps in km) cannot be converted.
    mutating func conversion(type: String, unit: String) -> Result<UnitConverter.Conversion, QuarantineReason> {
        // Records come in long runs of one type and unit, interned: equal strings share their
        // storage, so comparing with the last pair is cheaper than hashing both.
        if lastConversion?.type == type, lastConversion?.unit == unit { return lastResult }
        let key = TypeUnit(type: type, unit: unit)
        let found = conversions[key] ?? {
            let canonical = TypeRegistry.type(for: type).canonicalUnit
            let result: Result<UnitConverter.Conversion, QuarantineReason>
            if let c = UnitConverter.conversion(for: unit, to: canonical), canonical == nil || c.canonicalUnit == canonical {
                result = .success(c)
            } else if UnitConverter.conversion(for: unit) == nil {
                result = .failure(QuarantineReason(description: "unknown unit '\(unit)'"))
            } else {
                result = .failure(QuarantineReason(description: "unit '\(unit)' cannot be converted to \(canonical ?? "")"))
            }
            conversions[key] = result
            return result
        }()
        (lastConversion, lastResult) = (key, found)
        return found
    }

    private mutating func normalize(_ workout: ExportWorkout) -> NormalizedWorkout {
        func statistic(_ types: [String]) -> Double? {
            var total: Double?
            for s in workout.statistics where types.contains(s.type) {
                guard let sum = s.sum else { continue }
                let (v, _) = UnitConverter.canonical(sum, unit: s.unit ?? "")
                total = (total ?? 0) + v
            }
            return total
        }
        let distance = statistic(WorkoutTotals.distanceTypes)
            ?? workout.totalDistance.map { UnitConverter.canonical($0.value, unit: $0.unit ?? "m").0 }
        let energy = statistic(["HKQuantityTypeIdentifierActiveEnergyBurned"])
            ?? workout.totalEnergyBurned.map { UnitConverter.canonical($0.value, unit: $0.unit ?? "kcal").0 }
        var minutes = workout.duration.map { UnitConverter.canonical($0.value, unit: $0.unit ?? "min").0 }
        if minutes == nil, let s = workout.startDate, let e = workout.endDate {
            minutes = Double(e.microseconds - s.microseconds) / 60_000_000
        }
        return NormalizedWorkout(workout: workout, id: workout.storeID,
                                 localDate: workout.startDate.map { calendar.localDate(of: $0) },
                                 durationMinutes: minutes, distanceMeters: distance, energyKilocalories: energy)
    }
}

enum WorkoutTotals {
    static let distanceTypes = [
        "HKQuantityTypeIdentifierDistanceWalkingRunning", "HKQuantityTypeIdentifierDistanceCycling",
        "HKQuantityTypeIdentifierDistanceSwimming", "HKQuantityTypeIdentifierDistanceWheelchair",
        "HKQuantityTypeIdentifierDistanceDownhillSnowSports", "HKQuantityTypeIdentifierDistanceCrossCountrySkiing",
        "HKQuantityTypeIdentifierDistancePaddleSports", "HKQuantityTypeIdentifierDistanceRowing",
        "HKQuantityTypeIdentifierDistanceSkatingSports",
    ]
}
