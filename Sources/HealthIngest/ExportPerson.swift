import HealthCore

/// Whose export this is, as its `Me` element says: date of birth, biological sex, blood type.
/// Read from the head of the export (the `Me` element follows the `ExportDate`, a few KB in)
/// before a run parses anything, so an import into another person's store is refused at once.
/// A characteristic the person never set (`HKBiologicalSexNotSet`, an empty date) is nil.
public struct ExportPerson: Sendable, Equatable {
    public var dateOfBirth: String?
    public var biologicalSex: String?
    public var bloodType: String?

    public init(dateOfBirth: String? = nil, biologicalSex: String? = nil, bloodType: String? = nil) {
        self.dateOfBirth = dateOfBirth; self.biologicalSex = biologicalSex; self.bloodType = bloodType
    }

    /// The `Me` of `source`, or nil when its head has none.
    public static func read(_ source: ExportSource) throws -> ExportPerson? {
        find(in: try source.head(maxBytes: ExportZoneHints.headBytes))
    }

    static func find(in bytes: [UInt8]) -> ExportPerson? {
        func value(_ key: String) -> String? {
            guard let text = ExportZoneHints.attribute("HKCharacteristicTypeIdentifier" + key, after: "<Me ", in: bytes) else { return nil }
            return set(text)
        }
        guard ExportZoneHints.attribute("HKCharacteristicTypeIdentifierDateOfBirth", after: "<Me ", in: bytes) != nil
            || ExportZoneHints.attribute("HKCharacteristicTypeIdentifierBiologicalSex", after: "<Me ", in: bytes) != nil else { return nil }
        return ExportPerson(dateOfBirth: value("DateOfBirth"), biologicalSex: value("BiologicalSex"), bloodType: value("BloodType"))
    }

    /// nil for a characteristic that is not set: empty, or HealthKit's `…NotSet`.
    public static func set(_ text: String?) -> String? {
        guard let text, !text.isEmpty, !text.hasSuffix("NotSet") else { return nil }
        return text
    }
}
