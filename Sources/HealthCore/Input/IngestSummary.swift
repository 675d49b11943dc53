/// What an input's reader saw besides the batches, kept in the load's checkpoint once the input
/// is read to the end and shown by the run summary. Each reader fills what its input has: an
/// export XML its elements and repairs, and the route, ECG and clinical files beside it; a
/// database its rows (`elements`).
package struct IngestSummary: Codable, Sendable {
    package var elements: Int64 = 0
    package var removedDoctype = false
    package var repairedBytes = 0
    package var routeFilesRead = 0
    package var routeFilesMissing: [String] = []
    /// ECG files read into recordings; those that could not be, each with its reason.
    package var ecgFilesRead = 0
    package var ecgFilesUnreadable = FileNotes()
    /// What the user should know about ECG files that were read (lines skipped).
    package var ecgNotes = FileNotes()
    /// FHIR files of `clinical-records/` read; those that could not be, each with its reason.
    package var clinicalFilesRead = 0
    package var clinicalFilesUnreadable = FileNotes()
    /// What the input holds that its reader does not read (a database's tables or columns of a
    /// newer schema, records with no home in the store), each with its count: named in the run
    /// summary, never dropped in silence.
    package var notRead = FileNotes()
    package init() {}

    enum CodingKeys: String, CodingKey {
        case elements, removedDoctype, repairedBytes, routeFilesRead, routeFilesMissing, ecgFilesRead,
             ecgFilesUnreadable, ecgNotes, clinicalFilesRead, clinicalFilesUnreadable, notRead
    }

    // A checkpoint written before the ECG, clinical or not-read counts existed still resumes.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        elements = try c.decode(Int64.self, forKey: .elements)
        removedDoctype = try c.decode(Bool.self, forKey: .removedDoctype)
        repairedBytes = try c.decode(Int.self, forKey: .repairedBytes)
        routeFilesRead = try c.decode(Int.self, forKey: .routeFilesRead)
        routeFilesMissing = try c.decode([String].self, forKey: .routeFilesMissing)
        ecgFilesRead = try c.decodeIfPresent(Int.self, forKey: .ecgFilesRead) ?? 0
        ecgFilesUnreadable = try c.decodeIfPresent(FileNotes.self, forKey: .ecgFilesUnreadable) ?? FileNotes()
        ecgNotes = try c.decodeIfPresent(FileNotes.self, forKey: .ecgNotes) ?? FileNotes()
        clinicalFilesRead = try c.decodeIfPresent(Int.self, forKey: .clinicalFilesRead) ?? 0
        clinicalFilesUnreadable = try c.decodeIfPresent(FileNotes.self, forKey: .clinicalFilesUnreadable) ?? FileNotes()
        notRead = try c.decodeIfPresent(FileNotes.self, forKey: .notRead) ?? FileNotes()
    }
}
