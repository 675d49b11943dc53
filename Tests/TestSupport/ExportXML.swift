/// The text of small exports for tests, in the shape Apple writes (FORMAT.md): one builder of
/// the document and one of a record, so a fixture's XML is written one way (issue 47: it was
/// written ten ways).
package enum ExportXML {
    /// An `export.xml`: the XML declaration (unless `declaration` is false), `HealthData` in
    /// `locale`, the `ExportDate` (none when nil), then `elements` one a line.
    package static func document(_ elements: [String], exportDate: String?, locale: String = "en_US",
                                 declaration: Bool = true) -> String {
        (declaration ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : "")
            + "<HealthData locale=\"\(locale)\">\n"
            + (exportDate.map { "<ExportDate value=\"\($0)\"/>\n" } ?? "")
            + elements.map { $0 + "\n" }.joined() + "</HealthData>\n"
    }

    /// A `Record`, its attributes in Apple's order. `type` without its `HKQuantityTypeIdentifier`
    /// prefix gets it; `attributes` is written as given (a device, metadata); `created` nil
    /// leaves `creationDate` out; `children` (metadata, HRV beats) go inside the element.
    package static func record(_ type: String, source: String, unit: String? = nil, value: String?,
                               start: String, end: String, created: String?, attributes: String = "",
                               children: String = "") -> String {
        let fullType = type.hasPrefix("HK") ? type : "HKQuantityTypeIdentifier" + type
        let open = #"<Record type="\#(fullType)" sourceName="\#(source)""# + attributes
            + (unit.map { #" unit="\#($0)""# } ?? "")
            + (created.map { #" creationDate="\#($0)""# } ?? "")
            + #" startDate="\#(start)" endDate="\#(end)""#
            + (value.map { #" value="\#($0)""# } ?? "")
        return children.isEmpty ? open + "/>" : open + ">\n" + children + "\n</Record>"
    }
}
