import Archive
import Foundation
import HealthCore

/// Where an export comes from: a zip, a bare XML file of any name, or an unzipped folder.
/// All three give the same bytes to the parser and the same route files.
package struct ExportSource: Sendable {
    package enum Kind: Sendable { case zip, xml, folder }

    package let kind: Kind
    /// The path the user gave.
    package let path: String
    /// The export XML: a file path, or the entry name inside the zip.
    package let xmlName: String
    /// Bytes the progress bar counts (compressed size for a zip).
    package let totalBytes: Int64
    let zip: ZipArchive?
    let zipEntry: ZipArchive.Entry?
    /// Folder that holds `workout-routes/` for xml and folder inputs.
    let baseFolder: String?
    /// What the user should know about how the export was found (a zip holding two exports).
    package private(set) var notes: [String] = []

    /// Finds the export in `path`. The XML is recognised by its root element, never by its
    /// (localized) name: `export.xml`, `Exportieren.xml`, `导出.xml` all work.
    package init(path: String) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw HealthETLError.inputMissing("\(path): no such file or folder")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw HealthETLError.inputMissing("\(path): not readable")
        }
        if isDirectory.boolValue {
            guard let xml = try Self.findXML(inFolder: path) else {
                throw HealthETLError.dataUnusable("\(path): no Apple Health export XML (root element HealthData) in this folder")
            }
            kind = .folder; xmlName = xml; zip = nil; zipEntry = nil
            baseFolder = PathText.parent(of: xml)
            totalBytes = Self.fileSize(xml)
            return
        }
        if try Self.startsWithZipMagic(path) {
            let archive = try readingArchive { try ZipArchive(path: path) }
            let named = archive.entries.filter { !$0.isDirectory && !$0.isJunk && $0.name.lowercased().hasSuffix(".xml") }
            let candidates = named.filter { !$0.isSymbolicLink }
            let exports = try candidates.sorted(by: { $0.uncompressedSize > $1.uncompressedSize })
                .filter { entry in Self.isHealthExportPrefix(try readingArchive { try archive.readPrefix(entry, maxBytes: 64 * 1024) }) }
            guard let found = exports.first else {
                let links = named.filter(\.isSymbolicLink).map { "'\($0.name)'" }
                throw HealthETLError.dataUnusable("\(path): the zip holds no Apple Health export XML (root element HealthData)"
                    + (links.isEmpty ? "" : "; symbolic links are never followed: \(links.joined(separator: ", "))"))
            }
            if exports.count > 1 {
                notes.append("\(path) holds \(exports.count) Health exports: imported \(found.name) "
                    + "(\(found.uncompressedSize) bytes, the largest); not imported: "
                    + exports.dropFirst().map { "\($0.name) (\($0.uncompressedSize) bytes)" }.joined(separator: ", "))
            }
            kind = .zip; zip = archive; zipEntry = found; xmlName = found.name; baseFolder = nil
            totalBytes = Int64(found.compressedSize)   // what the progress callback counts
            return
        }
        try FileKindCheck.requireXML(path)
        kind = .xml; xmlName = path; zip = nil; zipEntry = nil
        baseFolder = PathText.parent(of: path)
        totalBytes = Self.fileSize(path)
    }

    /// About how many records the export holds, from the size of its XML (exports run 350 to
    /// 450 bytes a record), to size tables up front; at most 2.8 M (a 32 MB duplicate filter),
    /// beyond which they grow as they fill.
    package var estimatedRecords: Int {
        let bytes = zipEntry.map { Int64(clamping: $0.uncompressedSize) } ?? totalBytes
        return Int(min(bytes / 400, 2_800_000))
    }

    /// A name for messages: `export.zip:apple_health_export/导出.xml` or the file path.
    package var displayName: String { kind == .zip ? "\(path):\(xmlName)" : xmlName }

    /// Streams the export XML's raw bytes from `offset` on; `progress` gets the input bytes
    /// consumed so far. A file seeks; a zip entry cannot, so it inflates and discards up to
    /// `offset` (inflate runs at about 1 GB/s, several times the parse).
    func readXML(from offset: Int64 = 0, chunkSize: Int = 1 << 20, progress: (Int64) -> Void,
                 _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let zip, let zipEntry {
            var toSkip = offset
            try readingArchive { try zip.read(zipEntry, chunkSize: chunkSize, compressedProgress: progress) { chunk in
                if toSkip >= Int64(chunk.count) { toSkip -= Int64(chunk.count); return }
                let rest = UnsafeRawBufferPointer(rebasing: chunk[Int(toSkip)...])
                toSkip = 0
                try body(rest)
            } }
        } else {
            try Self.readFile(xmlName, from: offset, chunkSize: chunkSize, progress: progress, body)
        }
    }

    /// The export XML as a file read straight into the caller's buffers (with `direct`, past
    /// the page cache where it can), from `offset` on; nil for a zip, whose entry is inflated
    /// (`readXML`).
    func xmlFile(from offset: Int64, direct: Bool) throws -> FileReader? {
        kind == .zip ? nil : try FileReader(path: xmlName, from: offset, direct: direct)
    }

    /// Streams a file the export references (`/workout-routes/route_….gpx`); false if there
    /// is no such file inside the export. Every reference is resolved inside the export's own
    /// zip or folder and nowhere else: a `..` component, a link that leads out of the folder,
    /// anything but a regular file (a FIFO, a device such as `/dev/zero`, a folder) and a file
    /// over `maximumReferencedFileBytes` count as missing, so an export can never make the
    /// import read (or hang on) a file it does not hold. A zip entry that is there but cannot
    /// be read (a symbolic link, encrypted, too large) throws, saying why.
    func readReferencedFile(_ reference: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let relative = Self.insideRelativePath(reference) else { return false }
        if let zip, let zipEntry {
            let wanted = Self.zipName(relative, besideXML: zipEntry)
            guard let entry = zip.entry(named: wanted) ?? zip.entry(endingWith: relative) else { return false }
            guard entry.uncompressedSize <= UInt64(Self.maximumReferencedFileBytes) else {
                throw HealthETLError.dataUnusable("entry '\(entry.name)' is larger than \(Self.maximumReferencedFileBytes >> 20) MiB")
            }
            // The zip reader refuses symbolic links and encrypted entries, with the reason.
            try readingArchive { try zip.read(entry, chunkSize: 1 << 20, compressedProgress: { _ in }, body) }
            return true
        }
        guard let baseFolder, let file = ReferencedFile(relative, in: baseFolder, maximumBytes: Self.maximumReferencedFileBytes)
        else { return false }
        try file.read(chunkSize: 1 << 20, body)
        return true
    }

    /// Where a file the export holds lies in its zip: `apple_health_export/workout-routes/r.gpx`
    /// for `workout-routes/r.gpx` beside the XML `apple_health_export/export.xml`.
    static func zipName(_ relative: String, besideXML xml: ZipArchive.Entry) -> String {
        let folder = PathText.parent(of: xml.name)
        return folder.isEmpty ? relative : folder + "/" + relative
    }

    /// The largest referenced file read (GPX routes are a few MB even for a day-long ride).
    package static let maximumReferencedFileBytes = 256 << 20

    /// `workout-routes/route.gpx` for `/workout-routes/route.gpx`; nil for a reference that
    /// leaves the export (`..`) or names nothing.
    static func insideRelativePath(_ reference: String) -> String? {
        let parts = reference.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !parts.isEmpty, !parts.contains(".."), !reference.contains("\0") else { return nil }
        return parts.joined(separator: "/")
    }

    // MARK: Helpers

    static func isHealthExportPrefix(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.contains("<HealthData") || text.contains("<!DOCTYPE HealthData")
    }

    /// The export XML in `folder` or in one of its immediate subfolders (`apple_health_export/`
    /// or its localized name), recognised by content; the largest candidate is tried first.
    private static func findXML(inFolder folder: String) throws -> String? {
        let fm = FileManager.default
        func xmlFiles(in dir: String) -> [String] {
            ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).sorted()
                .filter { $0.lowercased().hasSuffix(".xml") }
                .map { (dir as NSString).appendingPathComponent($0) }
        }
        var candidates = xmlFiles(in: folder)
        for name in ((try? fm.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
            let sub = (folder as NSString).appendingPathComponent(name)
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: sub, isDirectory: &isDir), isDir.boolValue { candidates += xmlFiles(in: sub) }
        }
        for file in candidates.sorted(by: { fileSize($0) > fileSize($1) }) {
            // A FIFO or a device among them is refused, not waited on (FileReader.openRegular).
            let prefix = try FileReader.head(of: file, count: 64 * 1024)
            if isHealthExportPrefix(prefix) { return file }
        }
        return nil
    }

    private static func startsWithZipMagic(_ path: String) throws -> Bool {
        let magic = try FileReader.head(of: path, count: 4)
        return magic == [0x50, 0x4B, 0x03, 0x04] || magic == [0x50, 0x4B, 0x05, 0x06]
    }

    static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    private static func readFile(_ path: String, from offset: Int64, chunkSize: Int, progress: (Int64) -> Void,
                                 _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let file = try FileReader(path: path, from: offset, direct: false)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: FileReader.alignment)
        defer { buffer.deallocate() }
        while case let n = try file.read(into: buffer), n > 0 {
            progress(file.offset)
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }
}
