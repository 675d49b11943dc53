import Archive
import Foundation
import HealthCore

/// The ECG files of an export: `electrocardiograms/*.csv` beside the export XML, in the zip or
/// the folder (`fileNames(inFolder:suffix:)`: the XML does not reference them).
extension ExportSource {
    static let ecgFolder = "electrocardiograms"
    /// 32 MiB: a real file is 150 KB; `ECGReader.maximumSamples` voltages fit with room to spare.
    package static let maximumECGFileBytes = 32 << 20

    /// Paths inside the export (`electrocardiograms/ecg_2020-03-15.csv`), sorted.
    package func ecgFileNames() -> [String] { fileNames(inFolder: Self.ecgFolder, suffix: ".csv") }
}

/// Reads every ECG file of an export after its XML, each into a batch of its own. A file that
/// cannot be read is named with the reason in the reader's summary and skipped: never fatal.
enum ECGFileCollector {
    static func readAll(from source: ExportSource, summary: inout ExportReader.Summary, position: InputPosition,
                        emit: (IngestBatch) throws -> Void) throws {
        for name in source.ecgFileNames() {
            let recording: ECGRecording
            do {
                recording = try read(name, from: source)
            } catch {
                guard let reason = UnreadableExportFile.reason(for: error) else { throw error }
                summary.ecgFilesUnreadable.append("\(name): \(reason)")
                continue
            }
            summary.ecgFilesRead += 1
            if recording.skippedLines > 0 {
                summary.ecgNotes.append("\(name): \(recording.skippedLines) lines among the voltages are not numbers (skipped)")
            }
            var batch = IngestBatch()
            batch.ecgRecordings = [recording]
            batch.position = position
            try emit(batch)
        }
    }

    /// The size limit is kept by `readFile`: a zip entry's declared size is checked before it
    /// is read and the zip reader stops an entry that inflates past it; a file is read up to
    /// the size it had when opened.
    private static func read(_ name: String, from source: ExportSource) throws -> ECGRecording {
        var parser = ECGParser(fileName: name)
        try source.readFile(name, inFolder: ExportSource.ecgFolder, maximumBytes: ExportSource.maximumECGFileBytes) {
            try parser.feed($0)
        }
        return try parser.finish()
    }
}
