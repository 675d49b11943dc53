import HealthCore

/// Whose export this is, as its `Me` element says: date of birth, biological sex, blood type.
/// Read from the head of the export (the `Me` element follows the `ExportDate`, a few KB in)
/// before a run parses anything, so an import into another person's store is refused at once.
/// A characteristic the person never set (`HKBiologicalSexNotSet`, an empty date) is nil.
package struct ExportPerson: Sendable, Equatable {
    package var dateOfBirth: String?
    package var biologicalSex: String?
    package var bloodType: String?

    package init(dateOfBirth: String? = nil, biologicalSex: String? = nil, bloodType: String? = nil) {
        self.dateOfBirth = dateOfBirth; self.biologicalSex = biologicalSex; self.bloodType = bloodType
    }

    /// The `Me` of `source`, or nil when its head has none.
    package static func read(_ source: ExportSource) throws -> ExportPerson? {
        find(in: try source.head(maxBytes: ExportZoneHints.headBytes))
    }

    static func find(in bytes: [UInt8]) -> ExportPerson? {
        let raw = ["DateOfBirth", "BiologicalSex", "BloodType"].map {
            ExportZoneHints.attribute("HKCharacteristicTypeIdentifier" + $0, after: "<Me ", in: bytes)
        }
        guard raw[0] != nil || raw[1] != nil else { return nil }
        return ExportPerson(dateOfBirth: set(raw[0]), biologicalSex: set(raw[1]), bloodType: set(raw[2]))
    }

    /// nil for a characteristic that is not set: empty, or HealthKit's `…NotSet`.
    package static func set(_ text: String?) -> String? {
        guard let text, !text.isEmpty, !text.hasSuffix("NotSet") else { return nil }
        return text
    }
}
