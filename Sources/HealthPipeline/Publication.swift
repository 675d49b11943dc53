import Foundation
import HealthCore
import HealthStore
import PrivateFiles

/// A run's outputs (the store, CSV and Parquet files, and companion outputs such as a person's
/// dataset partitions, which are folders) moved into place as one step: each file or folder
/// that is replaced is first moved aside, and if any move fails, every move already made is
/// undone, so the folder holds the old outputs or the new ones, never a mix of two runs. The
/// old ones are removed only once every new one is in place (`commit`).
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
    /// Staged paths synced already (`syncAhead`), and the folders that received a move and
    /// are synced once, by `syncFolders`, before the publication is committed.
    private var synced: Set<String> = []
    private var folders: [String] = []

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

    /// Moves `staged` (a file or a folder) to `final`; what is at `final`, if anything, is
    /// moved aside first.
    func move(_ staged: String, to final: String) throws {
        try folder.refuseLinks(onTheWayTo: final)
        if moves.isEmpty { try writeMarker() }
        var replaced: String?
        var info = stat(), stagedInfo = stat()
        guard lstat(staged, &stagedInfo) == 0 else { throw Self.failure(final) }
        if lstat(final, &info) == 0 {
            // Only our own kind of thing is replaced: a file by a file, a folder by a folder; a
            // link, or a folder where a file goes, is the user's.
            let kind = info.st_mode & S_IFMT
            guard kind == stagedInfo.st_mode & S_IFMT, kind == S_IFREG || kind == S_IFDIR else {
                throw HealthETLError.io("cannot publish \(final): something of another kind is in the way")
            }
            try OutputFolders.makePrivate(aside)
            let path = (aside as NSString).appendingPathComponent("\(moves.count)-" + (final as NSString).lastPathComponent)
            guard FileCall.rename(final, path) == 0 else { throw Self.failure(final) }
            replaced = path
        }
        do {
            // What is published must be on disk before its name is: a file that cannot be synced
            // is not published.
            if !synced.contains(staged) { try Self.sync(staged, publishing: final) }
            guard FileCall.rename(staged, final) == 0 else { throw Self.failure(final) }
        } catch {
            if let replaced { _ = FileCall.rename(replaced, final) }
            throw error
        }
        moves.append((staged, final, replaced))
        let folder = PathText.parent(of: final)
        if !folders.contains(folder) { folders.append(folder) }
    }

    /// Syncs the staged files or folders of `moves` (moved next) on a few threads at once. A
    /// run publishes some forty small files: each sync is a wait for the disk, and one at a
    /// time they add up; side by side they overlap.
    func syncAhead(_ moves: [StagedOutput]) throws {
        let workers = min(moves.count, 8)
        guard workers > 1 else { return }   // one file: `move` syncs it
        let threads = StageThreads()
        for worker in 0..<workers {
            let share = stride(from: worker, to: moves.count, by: workers).map { moves[$0] }
            threads.spawn("sync \(worker)") { for move in share { try Self.sync(move.staged, publishing: move.final) } }
        }
        try threads.wait()
        synced.formUnion(moves.map(\.staged))
    }

    /// Makes every move durable: each folder that received one is synced, once. Called before
    /// `commit`; if a folder cannot be synced, the caller rolls every move back.
    func syncFolders() throws {
        for folder in folders where !Self.sync(folder: folder) {
            throw HealthETLError.io("cannot publish into \(folder)/: cannot sync the folder (\(String(cString: strerror(errno))))")
        }
    }

    /// Keeps the new outputs: removes the replaced ones and the marker.
    func commit() {
        moves = []
        folders = []
        try? FileManager.default.removeItem(atPath: aside)
        unlink(Self.markerPath(folder))
    }

    /// Undoes every move, last first: each new file back to where it was staged, each old
    /// one back in place. The marker stays if something could not be undone.
    func rollBack() {
        var complete = true
        for move in moves.reversed() {
            if FileCall.rename(move.final, move.staged) != 0 { complete = false }
            if let replaced = move.replaced, FileCall.rename(replaced, move.final) != 0 { complete = false }
            _ = Self.syncFolder(of: move.final)
        }
        moves = []
        folders = []
        if complete {
            try? FileManager.default.removeItem(atPath: aside)
            unlink(Self.markerPath(folder))
        }
    }

    /// The marker must be on disk before the first move: it is what tells a later run that a
    /// publication was cut short. (Its text, the pid and time, is for people.)
    private func writeMarker() throws {
        let path = Self.markerPath(folder)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure(path) }
        defer { close(fd) }
        let text = Array("\(getpid()) \(Date().timeIntervalSince1970)\n".utf8)
        if text.withUnsafeBytes({ writeFully(fd, $0.baseAddress!, $0.count, file: path) }) != nil
            || FileCall.fsync(fd, file: path) != 0 || !Self.syncFolder(of: path) {
            let error = Self.failure(path)
            unlink(path)
            throw error
        }
    }

    private static func failure(_ path: String) -> HealthETLError {
        .io("cannot publish \(path): \(String(cString: strerror(errno)))")
    }

    /// Syncs the file at `path` (staged to be published as `final`), or the folder and
    /// everything in it.
    private static func sync(_ path: String, publishing final: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw failure(final) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(final) }
        if info.st_mode & S_IFMT == S_IFDIR {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { throw failure(final) }
            for name in names {
                try sync((path as NSString).appendingPathComponent(name), publishing: final)
            }
        }
        guard FileCall.fsync(fd, file: path) == 0 else { throw failure(final) }
    }

    /// Syncs the folder holding `path` (its entries: a rename is durable once this returns true).
    @discardableResult
    private static func syncFolder(of path: String) -> Bool {
        sync(folder: PathText.parent(of: path))
    }

    private static func sync(folder: String) -> Bool {
        let dir = open(folder, O_RDONLY | O_CLOEXEC)
        guard dir >= 0 else { return false }
        defer { close(dir) }
        return FileCall.fsync(dir, file: folder) == 0
    }
}
