import Archive
import Foundation
import HealthCore

/// The ECG files of an export: `electrocardiograms/*.csv` beside the export XML, in the zip or
/// the folder. They are found by listing that folder (the XML does not reference them) and
/// read under the rules of every file the export holds: inside the export only (a link out of
/// the folder, anything but a regular file, a file over `maximumECGFileBytes` is unreadable),
/// opened without following a last link and without blocking.
extension ExportSource {
    static let ecgFolder = "electrocardiograms"
    /// 32 MiB: a real file is 150 KB; `ECGReader.maximumSamples` voltages fit with room to spare.
    package static let maximumECGFileBytes = 32 << 20

    /// Paths inside the export (`electrocardiograms/ecg_2020-03-15.csv`), sorted.
    package func ecgFileNames() -> [String] {
        if let zip, let zipEntry {
            let prefix = Self.zipName(Self.ecgFolder + "/", besideXML: zipEntry)
            return zip.entries.filter { entry in
                !entry.isDirectory && !entry.isJunk && entry.name.hasPrefix(prefix)
                    && !entry.name.dropFirst(prefix.count).contains("/") && Self.isCSVName(entry.baseName)
            }.map { Self.ecgFolder + "/" + $0.baseName }.sorted()
        }
        guard let baseFolder else { return [] }
        let folder = (baseFolder as NSString).appendingPathComponent(Self.ecgFolder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") && Self.isCSVName($0) }.map { Self.ecgFolder + "/" + $0 }.sorted()
    }

    /// Streams the ECG file `name` (one of `ecgFileNames()`); `ECGUnreadable` when it is not a
    /// regular file inside the export of at most `maximumECGFileBytes`.
    package func readECGFile(_ name: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let tooLarge = ECGUnreadable("not a regular file inside the export, or larger than \(Self.maximumECGFileBytes >> 20) MiB")
        if let zip, let zipEntry {
            let wanted = Self.zipName(Self.ecgFolder + "/" + (name as NSString).lastPathComponent, besideXML: zipEntry)
            guard let entry = zip.entries.first(where: { $0.name == wanted && !$0.isDirectory }) else {
                throw ECGUnreadable("not in the zip")
            }
            guard entry.uncompressedSize <= UInt64(Self.maximumECGFileBytes) else { throw tooLarge }
            try readingArchive { try zip.read(entry, chunkSize: 64 << 10, body) }
            return
        }
        guard let baseFolder, let relative = Self.insideRelativePath(name),
              let file = ReferencedFile(relative, in: baseFolder, maximumBytes: Self.maximumECGFileBytes) else { throw tooLarge }
        try file.read(chunkSize: 64 << 10, body)
    }

    private static func isCSVName(_ name: String) -> Bool { name.lowercased().hasSuffix(".csv") }
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
            } catch let unreadable as ECGUnreadable {
                summary.ecgFilesUnreadable.append("\(name): \(unreadable.reason)")
                continue
            } catch let damaged as HealthETLError {
                // A damaged zip entry or a read error loses this recording, not the import.
                summary.ecgFilesUnreadable.append("\(name): \(damaged.description)")
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

    /// The size limit is kept by `readECGFile`: a zip entry's declared size is checked before it
    /// is read and the zip reader stops an entry that inflates past it; a file is read up to
    /// the size it had when opened.
    private static func read(_ name: String, from source: ExportSource) throws -> ECGRecording {
        var parser = ECGParser(fileName: name)
        try source.readECGFile(name) { try parser.feed($0) }
        return try parser.finish()
    }
}
