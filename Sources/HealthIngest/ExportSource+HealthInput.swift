import HealthCore

/// An Apple Health export (a zip, an XML of any name, an unzipped folder) as one of the
/// pipeline's inputs.
extension ExportSource: HealthInput, HealthInputFormat {
    package var platform: InputPlatform { .appleHealth }
    package var kindName: String { "\(kind)" }
    package var dataFile: String { xmlName }
    package var inputBytes: Int64 { totalBytes }
    package var progressTotal: Int64 { totalBytes }
    package var fingerprintFile: String { kind == .zip ? path : xmlName }
    /// Route, ECG and clinical files sit beside an unzipped export's XML.
    package var companionFolder: String? { kind == .zip ? nil : PathText.parent(of: xmlName) }

    package func person() throws -> ExportPerson? { try ExportPerson.read(self) }
    package func zoneHints() throws -> ExportZoneHints { try ExportZoneHints.read(self) }

    package func read(resumingAt resume: ResumePoint?, knownRoutePaths: [String], prefilter: (any RecordPrefilter)?,
                      emit: @escaping (IngestBatch) throws -> Void) throws -> IngestSummary {
        try ExportReader(source: self, prefilter: prefilter).run(resumingAt: resume, knownRoutePaths: knownRoutePaths, emit: emit)
    }

    /// Whatever no other format claims: the pipeline asks this format last, and its own checks
    /// then say what the file is not (a gzip, a PDF, a zip with no export in it).
    package static func recognizes(_ path: String) throws -> Bool { true }
    package static func open(_ path: String, scratch: String) throws -> any HealthInput { try ExportSource(path: path) }
}
