import Foundation
import HealthCore

extension ExportSource {
    static let clinicalFolder = "clinical-records"
    /// 32 MiB: a resource is a few KB; a document with an attached scan can be a few MB.
    package static let maximumClinicalFileBytes = 32 << 20
}

/// Reads every FHIR file of an export's `clinical-records/` after its XML (like the ECG files),
/// in batches of up to `batchBytes` or `batchFiles` (a zip of a million tiny files stays in
/// bounds). A file that cannot be read (too large, not a FHIR resource in JSON) is named with
/// the reason in the reader's summary and skipped: never fatal. The version each file is in
/// comes from its `ClinicalRecord` element, matched in the store.
enum ClinicalFileCollector {
    static let batchBytes = 8 << 20
    static let batchFiles = 1_000

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
            } catch {
                guard let reason = UnreadableExportFile.reason(for: error) else { throw error }
                summary.clinicalFilesUnreadable.append("\(name): \(reason)")
                continue
            }
            if bytes >= batchBytes || batch.clinicalResources.count >= batchFiles {
                try emit(batch)
                batch.clinicalResources.removeAll()
                bytes = 0
            }
        }
        if !batch.clinicalResources.isEmpty { try emit(batch) }
    }
}
