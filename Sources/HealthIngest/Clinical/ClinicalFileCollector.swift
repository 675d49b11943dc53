import Foundation
import HealthCore

extension ExportSource {
    static let clinicalFolder = "clinical-records"
    /// 32 MiB: a resource is a few KB; a document with an attached scan can be a few MB.
    package static let maximumClinicalFileBytes = 32 << 20
}

/// Reads every FHIR file of an export's `clinical-records/` after its XML (like the ECG files),
/// in batches of up to `batchBytes`. A file that cannot be read (too large, not a FHIR resource
/// in JSON) is named with the reason in the reader's summary and skipped: never fatal. The
/// version each file is in comes from its `ClinicalRecord` element, matched in the store.
enum ClinicalFileCollector {
    static let batchBytes = 8 << 20

    static func readAll(from source: ExportSource, summary: inout ExportReader.Summary, position: InputPosition,
                        emit: (IngestBatch) throws -> Void) throws {
        var batch = IngestBatch()
        batch.position = position
        var bytes = 0
        for name in source.fileNames(inFolder: ExportSource.clinicalFolder, suffix: ".json") {
            do {
                var content: [UInt8] = []
                try source.readFile(name, inFolder: ExportSource.clinicalFolder,
                                    maximumBytes: ExportSource.maximumClinicalFileBytes) { content.append(contentsOf: $0) }
                let (json, type) = try ClinicalJSON.resource(content)
                batch.clinicalResources.append(ClinicalResource(path: name, resourceType: type, json: json))
                bytes += json.count
                summary.clinicalFilesRead += 1
            } catch let unreadable as UnreadableExportFile {
                summary.clinicalFilesUnreadable.append("\(name): \(unreadable.reason)")
                continue
            } catch let damaged as HealthETLError {
                summary.clinicalFilesUnreadable.append("\(name): \(damaged.description)")
                continue
            }
            if bytes >= batchBytes {
                try emit(batch)
                batch.clinicalResources.removeAll()
                bytes = 0
            }
        }
        if !batch.clinicalResources.isEmpty { try emit(batch) }
    }
}
