import Archive
import Foundation
import HealthCore

/// The folders of files beside the export XML that the XML does not reference by name
/// (`electrocardiograms/`, `clinical-records/`): found by listing the folder, in the zip or on
/// disk, and read under the rules of every file the export holds: inside the export only (a
/// link out of the folder, anything but a regular file, a file over the caller's limit is
/// unreadable), opened without following a last link and without blocking.
extension ExportSource {
    /// Paths inside the export (`electrocardiograms/ecg_2020-03-15.csv`) of the files directly in
    /// `folder` whose names end in `suffix` (any case), sorted.
    package func fileNames(inFolder folder: String, suffix: String) -> [String] {
        let suffix = suffix.lowercased()
        if let zip, let zipEntry {
            let prefix = Self.zipName(folder + "/", besideXML: zipEntry)
            return zip.entries.filter { entry in
                !entry.isDirectory && !entry.isJunk && entry.name.hasPrefix(prefix)
                    && !entry.name.dropFirst(prefix.count).contains("/") && entry.baseName.lowercased().hasSuffix(suffix)
            }.map { folder + "/" + $0.baseName }.sorted()
        }
        guard let baseFolder else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: (baseFolder as NSString).appendingPathComponent(folder))) ?? []
        return names.filter { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(suffix) }.map { folder + "/" + $0 }.sorted()
    }

    /// Streams the file `name` (one of `fileNames(inFolder: folder, …)`); `UnreadableExportFile`
    /// when it is not a regular file inside the export of at most `maximumBytes`.
    package func readFile(_ name: String, inFolder folder: String, maximumBytes: Int,
                          _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let tooLarge = UnreadableExportFile("not a regular file inside the export, or larger than \(maximumBytes >> 20) MiB")
        if let zip, let zipEntry {
            let wanted = Self.zipName(folder + "/" + (name as NSString).lastPathComponent, besideXML: zipEntry)
            guard let entry = zip.fileEntry(named: wanted) else {
                throw UnreadableExportFile("not in the zip")
            }
            // The zip reader also stops an entry that inflates past its declared size.
            guard entry.uncompressedSize <= UInt64(maximumBytes) else { throw tooLarge }
            try readingArchive { try zip.read(entry, chunkSize: 64 << 10, body) }
            return
        }
        guard let baseFolder, let relative = Self.insideRelativePath(name),
              let file = ReferencedFile(relative, in: baseFolder, maximumBytes: maximumBytes) else { throw tooLarge }
        try file.read(chunkSize: 64 << 10, body)
    }
}

/// Why a file beside the XML was not read: it is skipped and named in the run summary, never
/// fatal.
package struct UnreadableExportFile: Error, Equatable, Sendable, CustomStringConvertible {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { reason }

    /// Why a file beside the XML is skipped, when `error` loses the file and not the import:
    /// the file is unusable (this, or a reader's own kind, `ECGUnreadable`), or its zip entry is
    /// damaged or a read fails (`HealthETLError`). Nil: any other error, which stops the run.
    static func reason(for error: any Error) -> String? {
        switch error {
        case let unreadable as UnreadableExportFile: unreadable.reason
        case let unreadable as ECGUnreadable: unreadable.reason
        case let damaged as HealthETLError: damaged.description
        default: nil
        }
    }
}
