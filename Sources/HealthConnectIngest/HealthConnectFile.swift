#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Archive
import Foundation
import HealthCore
import PrivateFiles
import SQLite

/// Where a Health Connect database is: the file itself, the one `.db` entry of the export's zip,
/// or the `.db` file of a folder. Recognised by SQLite's 16-byte header, never by a name
/// (`health_connect_export.db` is what Android writes, but people rename files).
struct HealthConnectFile {
    static let sqliteHeader = Array("SQLite format 3\0".utf8)
    static let zipMagic: [[UInt8]] = [[0x50, 0x4B, 0x03, 0x04], [0x50, 0x4B, 0x05, 0x06]]

    enum Place {
        case file(String)
        case zipEntry(ZipArchive, ZipArchive.Entry)
    }

    let place: Place
    /// `database`, `zip` or `folder` (the run summary's `input_kind`).
    let kind: String
    /// The database's path, or its entry's name in the zip.
    let dataFile: String
    /// The file's size (the zip's, for a zip).
    let bytes: Int64

    /// The database at `path`, if there is one; nil when `path` is something else (left to the
    /// next format). A zip or folder with two databases is Health Connect's only if it holds
    /// nothing else an Apple export would, and is then refused by `open`, naming both.
    static func find(_ path: String) throws -> HealthConnectFile? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue { return try inFolder(path) }
        let head = head(of: path, count: 16)
        if head == sqliteHeader { return HealthConnectFile(place: .file(path), kind: "database", dataFile: path, bytes: size(path)) }
        guard head.count >= 4, zipMagic.contains(Array(head.prefix(4))) else { return nil }
        let archive: ZipArchive
        do { archive = try ZipArchive(path: path) } catch { return nil }   // the Apple reader says what is wrong with it
        // The largest entries only: an export's zip holds its database alone, and an Apple
        // export's hundred thousand small files are not each opened to be looked at.
        let largest = archive.entries.filter { !$0.isDirectory && !$0.isJunk && !$0.isSymbolicLink }
            .sorted { $0.uncompressedSize > $1.uncompressedSize }.prefix(8)
        var databases: [ZipArchive.Entry] = []
        for entry in largest where (try? archive.readPrefix(entry, maxBytes: 16)) == sqliteHeader { databases.append(entry) }
        guard let first = databases.first else { return nil }
        guard databases.count == 1 else {
            throw HealthETLError.dataUnusable("\(path): the zip holds \(databases.count) SQLite databases ("
                + databases.map { "'\($0.name)'" }.joined(separator: ", ")
                + "); a Health Connect export holds one, health_connect_export.db")
        }
        return HealthConnectFile(place: .zipEntry(archive, first), kind: "zip", dataFile: first.name, bytes: size(path))
    }

    private static func inFolder(_ folder: String) throws -> HealthConnectFile? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        let databases = names.map { (folder as NSString).appendingPathComponent($0) }
            .filter { isRegular($0) && head(of: $0, count: 16) == sqliteHeader }
        guard let first = databases.first else { return nil }
        guard databases.count == 1 else {
            throw HealthETLError.dataUnusable("\(folder): the folder holds \(databases.count) SQLite databases ("
                + databases.map { "'\(($0 as NSString).lastPathComponent)'" }.joined(separator: ", ")
                + "); give the Health Connect export's own file")
        }
        return HealthConnectFile(place: .file(first), kind: "folder", dataFile: first, bytes: size(first))
    }

    /// Opens the database (unpacking a zip's entry into `scratch` first: SQLite reads files, not
    /// zip entries). The unpacked copy is unlinked as soon as SQLite has it open, so no copy of
    /// the data outlives the run, whatever stops it.
    func open(scratch: String) throws -> (database: Database, name: String) {
        switch place {
        case .file(let path):
            return (try openUntrusted(path), path)
        case .zipEntry(let archive, let entry):
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let copy = (scratch as NSString).appendingPathComponent("health-connect-\(getpid()).db")
            defer { unlink(copy) }
            let file = try AtomicOutputFile(path: copy, durability: .syncedWhenPublished)
            do {
                try Self.readingArchive { try archive.read(entry) { try file.write($0) } }
                try file.commit()
            } catch {
                file.discard()
                throw error
            }
            return (try openUntrusted(copy), "\(archive.path):\(entry.name)")
        }
    }

    private func openUntrusted(_ path: String) throws -> Database {
        do {
            return try Database(path: path, mode: .untrusted)
        } catch let error as SQLiteError {
            throw HealthETLError.dataUnusable("\(dataFile): cannot be opened as a SQLite database (\(error.description))")
        }
    }

    /// An archive's failures as the person's (exit 65, naming the entry); a bomb keeps its own kind.
    static func readingArchive<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ArchiveError where error.kind != .bomb {
            throw error.kind == .io ? HealthETLError.io(error.description) : HealthETLError.dataUnusable(error.description)
        }
    }

    /// The first `count` bytes of a regular file; fewer (or none) for anything else: a FIFO or
    /// a device is never waited on.
    static func head(of path: String, count: Int) -> [UInt8] { fileHead(path, count) }

    static func isRegular(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    static func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}

/// Outside the type, whose `open` would hide the C function's name.
private func fileHead(_ path: String, _ count: Int) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return [] }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return [] }
    var bytes = [UInt8](repeating: 0, count: count)
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
    return n > 0 ? Array(bytes.prefix(n)) : []
}
