import HealthCore

/// The `Me` element of an Apple export, read from the head of the XML (it follows the
/// `ExportDate`, a few KB in).
extension ExportPerson {
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
}
