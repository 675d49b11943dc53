import Foundation
import HealthCore

/// A run's outputs (the store, CSV and Parquet files) moved into place as one step: each
/// file that is replaced is first moved aside, and if any move fails, every move already made
/// is undone, so the folder holds the old outputs or the new ones, never a mix of two runs.
/// The old files are removed only once every new one is in place (`commit`).
///
/// A marker (`.healthetl/publishing`) is written before the first move and removed when the
/// publication is committed or fully undone. A marker found by a later run means one was cut
/// short (the process was killed between two moves, or an undo failed): that run rewrites
/// every output, whether its export brought anything new or not, and never reports success
/// while an output may be stale.
final class Publication {
    private let folder: OutputFolder
    private let aside: String
    private var moves: [(staged: String, final: String, replaced: String?)] = []

    init(folder: OutputFolder) {
        self.folder = folder
        aside = (folder.stateFolder as NSString).appendingPathComponent("replaced-\(getpid())")
    }

    static func markerPath(_ folder: OutputFolder) -> String {
        (folder.stateFolder as NSString).appendingPathComponent("publishing")
    }

    /// Whether an earlier run's publication was cut short (its outputs may be stale).
    static func wasCutShort(in folder: OutputFolder) -> Bool {
        FileManager.default.fileExists(atPath: markerPath(folder))
    }

    /// Moves `staged` to `final`; the file at `final`, if any, is moved aside first.
    func move(_ staged: String, to final: String) throws {
        if moves.isEmpty { try writeMarker() }
        var replaced: String?
        var info = stat()
        if lstat(final, &info) == 0 {
            // Only our own kind of file is replaced: a folder or a link in the way is the user's.
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw HealthETLError.io("cannot publish \(final): something that is not a file is in the way")
            }
            try OutputFolder.makePrivateFolder(aside)
            let path = (aside as NSString).appendingPathComponent("\(moves.count)-" + (final as NSString).lastPathComponent)
            guard rename(final, path) == 0 else { throw Self.failure(final) }
            replaced = path
        }
        let fd = open(staged, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
        guard rename(staged, final) == 0 else {
            let error = Self.failure(final)
            if let replaced { rename(replaced, final) }
            throw error
        }
        moves.append((staged, final, replaced))
        Self.syncFolder(of: final)
    }

    /// Keeps the new outputs: removes the replaced ones and the marker.
    func commit() {
        moves = []
        try? FileManager.default.removeItem(atPath: aside)
        unlink(Self.markerPath(folder))
    }

    /// Undoes every move, last first: each new file back to where it was staged, each old
    /// one back in place. The marker stays if something could not be undone.
    func rollBack() {
        var complete = true
        for move in moves.reversed() {
            if rename(move.final, move.staged) != 0 { complete = false }
            if let replaced = move.replaced, rename(replaced, move.final) != 0 { complete = false }
            Self.syncFolder(of: move.final)
        }
        moves = []
        if complete {
            try? FileManager.default.removeItem(atPath: aside)
            unlink(Self.markerPath(folder))
        }
    }

    private func writeMarker() throws {
        let path = Self.markerPath(folder)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure(path) }
        let text = Array("\(getpid()) \(Date().timeIntervalSince1970)\n".utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        Self.syncFolder(of: path)
    }

    private static func failure(_ path: String) -> HealthETLError {
        .io("cannot publish \(path): \(String(cString: strerror(errno)))")
    }

    private static func syncFolder(of path: String) {
        let dir = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_CLOEXEC)
        if dir >= 0 { fsync(dir); close(dir) }
    }
}
