import HealthCore

/// One person's exports of two platforms read as one input, one after the other (issue 60): a
/// store that holds an iPhone's and an Android phone's records is only ever built from both,
/// so a rebuild (`--full`, an edited Health Connect export, changed settings) never loses the
/// platform this run was not given. Each batch says its platform (the store keeps it per
/// source); a resume point says which export it is in (`ResumePoint.part`); progress counts
/// through the exports in turn.
struct CombinedInput: HealthInput {
    let parts: [any HealthInput]

    /// `parts`: at least two, each of its own platform.
    init(_ parts: [any HealthInput]) {
        precondition(parts.count > 1, "a combined input of one export")
        self.parts = parts
    }

    var platform: InputPlatform { parts[0].platform }
    var path: String { parts.map(\.path).joined(separator: " + ") }
    var kindName: String { parts.map(\.kindName).joined(separator: "+") }
    var dataFile: String { parts.map(\.dataFile).joined(separator: " + ") }
    var displayName: String { parts.map(\.displayName).joined(separator: " + ") }
    var inputBytes: Int64 { parts.reduce(0) { $0 + $1.inputBytes } }
    var progressTotal: Int64 { parts.reduce(0) { $0 + $1.progressTotal } }
    var estimatedRecords: Int { parts.reduce(0) { $0 + $1.estimatedRecords } }
    var notes: [String] { parts.flatMap(\.notes) }
    var fingerprintFile: String { parts[0].fingerprintFile }
    var companionFolder: String? { parts[0].companionFolder }
    var sourcePriority: [String: [String]] {
        parts.reduce(into: [:]) { lists, part in lists.merge(part.sourcePriority) { a, _ in a } }
    }

    func person() throws -> ExportPerson? {
        for part in parts { if let person = try part.person() { return person } }
        return nil
    }

    func zoneHints() throws -> ExportZoneHints {
        for part in parts {
            let hints = try part.zoneHints()
            if hints != ExportZoneHints() { return hints }
        }
        return ExportZoneHints()
    }

    func read(resumingAt resume: ResumePoint?, knownRoutePaths: [String], prefilter: (any RecordPrefilter)?,
              emit: @escaping (IngestBatch) throws -> Void) throws -> IngestSummary {
        let first = resume?.part ?? 0
        var summary = IngestSummary()
        var before = parts[..<min(first, parts.count)].reduce(Int64(0)) { $0 + $1.progressTotal }
        let total = progressTotal
        for index in first..<parts.count {
            let part = parts[index], isLast = index == parts.count - 1, offset = before
            var resumeHere = index == first ? resume : nil
            resumeHere?.part = nil
            let read = try part.read(resumingAt: resumeHere, knownRoutePaths: knownRoutePaths, prefilter: prefilter) { batch in
                var batch = batch
                batch.platform = part.platform
                batch.position.bytesRead += offset
                batch.position.totalBytes = total
                if var point = batch.position.resume {
                    // A finished export that is not the last: the next starts from its beginning.
                    if point.inputComplete && !isLast {
                        point = ResumePoint(inputOffset: 0, elementOrdinal: 0, line: 1)
                        point.part = index + 1
                    } else {
                        point.part = index
                    }
                    batch.position.resume = point
                }
                try emit(batch)
            }
            summary.add(read)
            before += part.progressTotal
        }
        return summary
    }
}

extension IngestSummary {
    /// Adds what another export's reader saw (`CombinedInput`).
    mutating func add(_ other: IngestSummary) {
        elements += other.elements
        removedDoctype = removedDoctype || other.removedDoctype
        repairedBytes += other.repairedBytes
        routeFilesRead += other.routeFilesRead
        routeFilesMissing += other.routeFilesMissing
        ecgFilesRead += other.ecgFilesRead
        ecgFilesUnreadable.add(other.ecgFilesUnreadable)
        ecgNotes.add(other.ecgNotes)
        clinicalFilesRead += other.clinicalFilesRead
        clinicalFilesUnreadable.add(other.clinicalFilesUnreadable)
        notRead.add(other.notRead)
    }
}
