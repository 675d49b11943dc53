import HealthCore
import HealthStore

/// The menstrual cycles as Observations (docs/FHIR.md, docs/cycles.md): one a cycle, coded
/// LOINC 8665-2 (last menstrual period start date) with the start as `valueDateTime`; the
/// period's length as a component coded 3144-3 (last menstrual period duration) where known,
/// the cycle's length as a component with the HealthKit-style coding alone (LOINC has no code
/// for a cycle's length: 49033-4, sometimes named for it, is "Menstrual history – reported").
extension FHIRCode {
    static let cycleStart = FHIRCode(loinc: "8665-2", display: "Last menstrual period start date",
                                     healthKit: "HKCategoryTypeIdentifierMenstrualFlow", ucum: "", unit: "", category: .socialHistory)
    static let periodDuration = FHIRCode(loinc: "3144-3", display: "Last menstrual period duration",
                                         healthKit: "HKMenstrualCycle.periodDays", ucum: "d", unit: "days", category: .socialHistory)
    static let cycleLength = FHIRCode(loinc: nil, display: "Menstrual cycle length",
                                      healthKit: "HKMenstrualCycle.length", ucum: "d", unit: "days", category: .socialHistory)
}

extension FHIRResources {
    /// A cycle: effective on its start day; a partial cycle (its start may be earlier) says so in
    /// a note and carries no lengths, as the store does not know them.
    func cycle(_ c: StoredCycle) -> [String: Any] {
        var o = observation(id: "\(personID)-cycle-\(c.start.iso8601)", FHIRCode.cycleStart,
                            effective: ["effectiveDateTime": c.start.iso8601])
        o["valueDateTime"] = c.start.iso8601
        var components: [[String: Any]] = []
        if let days = c.periodDays {
            components.append(["code": Self.codeable(FHIRCode.periodDuration),
                               "valueQuantity": Self.quantity(Double(days), FHIRCode.periodDuration)])
        }
        if let length = c.length {
            components.append(["code": Self.codeable(FHIRCode.cycleLength),
                               "valueQuantity": Self.quantity(Double(length), FHIRCode.cycleLength)])
        }
        if !components.isEmpty { o["component"] = components }
        var notes = ["start: \(c.startFrom)"]
        if !c.complete { notes.append("partial: the period was already going on when the data begin; its start is not known") }
        o["note"] = notes.map { ["text": $0] }
        return o
    }
}
