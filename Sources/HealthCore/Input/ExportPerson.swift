/// Whose export this is: date of birth, biological sex, blood type, as the export says (an
/// Apple export's `Me` element; a Health Connect export has none). Read before a run parses
/// anything, so an import into another person's store is refused at once. A characteristic
/// the person never set (`HKBiologicalSexNotSet`, an empty date) is nil.
package struct ExportPerson: Sendable, Equatable {
    package var dateOfBirth: String?
    package var biologicalSex: String?
    package var bloodType: String?

    package init(dateOfBirth: String? = nil, biologicalSex: String? = nil, bloodType: String? = nil) {
        self.dateOfBirth = dateOfBirth; self.biologicalSex = biologicalSex; self.bloodType = bloodType
    }

    /// nil for a characteristic that is not set: empty, or HealthKit's `…NotSet`.
    package static func set(_ text: String?) -> String? {
        guard let text, !text.isEmpty, !text.hasSuffix("NotSet") else { return nil }
        return text
    }
}
