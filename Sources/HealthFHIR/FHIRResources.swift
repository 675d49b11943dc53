import HealthCore
import HealthStore

/// The FHIR R4 resources of one person's store, as JSON objects (`[String: Any]`, written with
/// sorted keys: the same store gives the same bytes). Every id derives from the store's
/// content (`personID`, sample identities, workout ids), so a server that receives the files
/// twice updates what it has instead of adding copies.
struct FHIRResources {
    /// 16 hex digits from the birth date, the sex and the store's earliest sample's identity:
    /// the prefix of every id, so two people's files never share one.
    let personID: String
    /// Local times and days: the store's calendar (its zone, or a traveller's timeline).
    var calendar: LocalCalendar
    /// The sources that came through Android's Health Connect (a person who switched phones
    /// has both kinds): their devices say so, each named by its app.
    var healthConnectSources: Set<HealthStore.FHIRSource> = []
    /// Every source is one (a workout's app too, which may have written no sample).
    var onlyHealthConnect = false

    var patientReference: [String: Any] { ["reference": "Patient/\(personID)"] }

    static func personID(_ profile: StoredProfile?, earliestIdentity: Int64?) -> String {
        var h = StableHasher()
        h.combine(profile?.dateOfBirth?.iso8601)
        h.combine(profile?.biologicalSex)
        h.combine(earliestIdentity.map { UInt64(bitPattern: $0) } ?? 0)
        return hex(h.value)
    }

    static func hex(_ v: UInt64) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    // MARK: Patient and devices

    func patient(_ profile: StoredProfile?) -> [String: Any] {
        var p: [String: Any] = ["resourceType": "Patient", "id": personID, "gender": Self.gender(profile?.biologicalSex)]
        if let birth = profile?.dateOfBirth { p["birthDate"] = birth.iso8601 }
        return p
    }

    static func gender(_ sex: String?) -> String {
        switch sex {
        case "HKBiologicalSexFemale": "female"
        case "HKBiologicalSexMale": "male"
        case "HKBiologicalSexOther": "other"
        default: "unknown"
        }
    }

    func deviceID(_ s: HealthStore.FHIRSource) -> String {
        var h = StableHasher()
        h.combine(s.name); h.combine(s.version); h.combine(s.model)
        return personID + "-d" + Self.hex(h.value)
    }

    func device(_ s: HealthStore.FHIRSource) -> [String: Any] {
        var d: [String: Any] = ["resourceType": "Device", "id": deviceID(s), "patient": patientReference,
                                "deviceName": [["name": s.name, "type": "user-friendly-name"]]]
        if let model = s.model, !model.isEmpty { d["modelNumber"] = model }
        if let version = s.version, !version.isEmpty { d["version"] = [["value": version]] }
        if onlyHealthConnect || healthConnectSources.contains(s) {
            d["note"] = [["text": "Recorded by the app \(s.name) and exported by Android Health Connect"]]
        }
        return d
    }

    // MARK: Observations

    static func codeable(_ c: FHIRCode) -> [String: Any] {
        var codings: [[String: Any]] = []
        if let loinc = c.loinc { codings.append(["system": FHIRCode.loincSystem, "code": loinc, "display": c.display]) }
        codings.append(["system": FHIRCode.healthKitSystem, "code": c.healthKit, "display": c.display])
        return ["coding": codings, "text": c.display]
    }

    static func quantity(_ value: Double, _ c: FHIRCode) -> [String: Any] {
        ["value": value, "unit": c.unit, "system": FHIRCode.ucumSystem, "code": c.ucum]
    }

    func observation(id: String, _ c: FHIRCode, effective: [String: Any], device: HealthStore.FHIRSource? = nil) -> [String: Any] {
        var o: [String: Any] = [
            "resourceType": "Observation", "id": id, "status": "final", "code": Self.codeable(c), "subject": patientReference,
            "category": [["coding": [["system": FHIRCode.categorySystem, "code": c.category.rawValue]]]],
        ]
        for (k, v) in effective { o[k] = v }
        if let device, !device.name.isEmpty { o["device"] = ["reference": "Device/\(deviceID(device))"] }
        return o
    }

    /// `2024-03-21T08:00:00+01:00`: the instant at the wall clock where it was recorded.
    /// FHIR's offsets are whole minutes; a zone's older offsets are not (Amsterdam's +00:19:32
    /// before 1937, Monrovia's -00:44:30 before 1972): the wall clock is then read at the
    /// nearest whole minute, so that the text still names the exact instant.
    mutating func dateTime(_ instant: Timestamp) -> String {
        let seconds = instant.microseconds.floorDivided(by: 1_000_000).quotient
        let offset = (calendar.offset(at: instant) + 30).floorDivided(by: 60).quotient * 60
        let local = seconds + offset
        let (day, second) = local.floorDivided(by: 86_400)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let sign = offset < 0 ? "-" : "+"
        return CivilDate(daysSinceEpoch: Int(day)).iso8601 + "T" + two(second / 3600) + ":" + two(second / 60 % 60) + ":"
            + two(second % 60) + sign + two(abs(offset) / 3600) + ":" + two(abs(offset) / 60 % 60)
    }

    mutating func period(_ start: Timestamp, _ end: Timestamp) -> [String: Any] {
        ["effectivePeriod": ["start": dateTime(start), "end": dateTime(end)]]
    }

    mutating func sample(_ s: HealthStore.FHIRSample, _ c: FHIRCode) -> [String: Any] {
        let effective = s.end > s.start ? period(Timestamp(microseconds: s.start), Timestamp(microseconds: s.end))
            : ["effectiveDateTime": dateTime(Timestamp(microseconds: s.start))]
        var o = observation(id: personID + "-s" + Self.hex(UInt64(bitPattern: s.identity)), c, effective: effective, device: s.source)
        o["valueQuantity"] = Self.quantity(s.value * c.factor, c)
        return o
    }

    mutating func bloodPressure(_ b: HealthStore.FHIRBloodPressure) -> [String: Any] {
        var o = observation(id: personID + "-b" + Self.hex(UInt64(bitPattern: b.identity)), FHIRCode.bloodPressure,
                            effective: ["effectiveDateTime": dateTime(b.time)], device: b.source)
        o["component"] = [(FHIRCode.systolic, b.systolic), (FHIRCode.diastolic, b.diastolic)].map { c, v in
            ["code": Self.codeable(c), "valueQuantity": Self.quantity(v, c)] as [String: Any]
        }
        return o
    }

    /// One day's metric over the local day (the Health app's merged total).
    mutating func day(_ date: CivilDate, metric: String, value: Double, _ c: FHIRCode) -> [String: Any] {
        let effective = period(calendar.startOfDay(date), calendar.startOfDay(date.adding(days: 1)))
        var o = observation(id: "\(personID)-\(metric.replacingOccurrences(of: "_", with: "-"))-\(date.iso8601)", c, effective: effective)
        o["valueQuantity"] = Self.quantity(value, c)
        return o
    }

    /// The day's heart rate as its minimum, mean and maximum (components).
    mutating func heartRateDay(_ date: CivilDate, minimum: Double, mean: Double, maximum: Double) -> [String: Any] {
        let c = FHIRCode.heartRate
        var o = observation(id: "\(personID)-heart-rate-\(date.iso8601)", c,
                            effective: period(calendar.startOfDay(date), calendar.startOfDay(date.adding(days: 1))))
        o["component"] = zip(FHIRCode.statistics, [minimum, mean, maximum]).map { statistic, value in
            ["code": ["coding": [["system": FHIRCode.healthKitSystem, "code": statistic.1, "display": "heart rate \(statistic.0)"]],
                      "text": "heart rate \(statistic.0)"],
             "valueQuantity": Self.quantity(value, c)] as [String: Any]
        }
        return o
    }

    mutating func workout(_ w: HealthStore.FHIRWorkout) -> [String: Any] {
        var o = observation(id: personID + "-w" + Self.hex(UInt64(bitPattern: w.id)), FHIRCode.exerciseActivity,
                            effective: period(Timestamp(microseconds: w.start), Timestamp(microseconds: w.end)), device: w.source)
        o["valueCodeableConcept"] = ["coding": [["system": FHIRCode.healthKitSystem, "code": w.activity]],
                                     "text": w.activity.replacingOccurrences(of: "HKWorkoutActivityType", with: "")]
        var components: [[String: Any]] = []
        for (c, value) in [(FHIRCode.workoutDuration, w.minutes), (FHIRCode.workoutDistance, w.distanceMeters),
                           (FHIRCode.workoutEnergy, w.energyKcal), (FHIRCode.heartRate, w.averageHeartRate)] {
            guard let value else { continue }
            components.append(["code": Self.codeable(c), "valueQuantity": Self.quantity(value, c)])
        }
        if !components.isEmpty { o["component"] = components }
        return o
    }
}
