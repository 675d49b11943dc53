/// A `clinical-records/` file checked (`StrictJSON`) and put on one line: it must be one JSON object with a
/// `resourceType`, nested at most `maximumDepth` deep; the whitespace between its tokens is
/// removed (nothing inside a string changes, so the resource is the provider's, byte for byte
/// in every value), so that it fits on a line of an NDJSON file.
enum ClinicalJSON {
    /// Real resources nest a dozen levels.
    static let maximumDepth = 100

    /// The compacted bytes and the resource type; `UnreadableExportFile` saying why not.
    static func resource(_ bytes: [UInt8]) throws -> (json: [UInt8], resourceType: String) {
        let checked: StrictJSON.Checked
        do {
            checked = try StrictJSON.check(bytes, maximumDepth: maximumDepth)
        } catch {
            throw UnreadableExportFile(error.reason)
        }
        guard checked.isObject else { throw UnreadableExportFile("not a JSON object") }
        guard let type = checked.resourceType, !type.isEmpty, type.utf8.count <= 64,
              type.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw UnreadableExportFile("no resourceType: not a FHIR resource")
        }
        return (checked.compact, type)
    }
}
