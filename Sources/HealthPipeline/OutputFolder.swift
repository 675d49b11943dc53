import Foundation
import HealthCore
import HealthStore
import PrivateFiles

/// The output folder: private (0700/0600), with a lock so that one run at a time writes
/// it, and atomic publishing (write beside, then rename) so that readers and a killed
/// run never see half a file.
public struct OutputFolder: Sendable {
    public let path: String
    /// What its outputs publish there (`OutputLayout`).
    package let layout: OutputLayout
    public var stateFolder: String { (path as NSString).appendingPathComponent(".healthetl") }
    public var databasePath: String { (path as NSString).appendingPathComponent(OutputLayout.store) }

    public init(path: String) { self.init(path: path, layout: .storeOnly) }

    package init(path: String, layout: OutputLayout) { self.path = path; self.layout = layout }

    /// Creates the folders (0700). Files created later are 0600 via the process umask.
    package func prepare() throws {
        try refusePlantedLinks()   // before anything is created, or a link's target set to 0700
        for folder in [path, stateFolder] { try OutputFolders.makePrivate(folder) }
    }

    /// `.healthetl/runs.log`: one JSON line per run, failed ones included (for cron users; the
    /// store's `runs` table keeps the successful ones). Best effort: a log that cannot be
    /// written does not fail the run, but a log replaced by a link is not followed, and the
    /// warning names it.
    package func appendToRunLog(_ line: String) {
        // A run refused for a planted `.healthetl` link logs nothing through it.
        guard !Self.isLink(stateFolder) else { return }
        let path = (stateFolder as NSString).appendingPathComponent("runs.log")
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP {
                FileHandle.standardError.write(Data("healthetl: warning: \(path) is a symbolic link; the run log was not written\n".utf8))
            }
            return
        }
        defer { close(fd) }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { writeFully(fd, $0.baseAddress!, $0.count, file: path) }
    }

    /// Removes staging files a killed run left behind (their owner is gone: we hold the lock).
    /// `.partial-` names are staged stores of versions before the resumable load; today's
    /// staged load (`load.sqlite`, `delta.sqlite`) is resumed, not removed.
    package func removeStaleStaging() {
        let fm = FileManager.default
        for folder in [path, stateFolder] + layout.published.map({ (path as NSString).appendingPathComponent($0) }) {
            for name in (try? fm.contentsOfDirectory(atPath: folder)) ?? []
            where name.contains(".partial-") || name.contains(".tmp-") || name.hasPrefix("staging-") || name.hasPrefix("replaced-")
                || name.hasPrefix("next-store-") {
                try? fm.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
            }
        }
    }
}

/// One run per output folder: an exclusive `flock` on `.healthetl/lock`, which the kernel
/// releases when the holder dies, so a stale lock of a killed run is taken over for free.
package final class RunLock {
    private let fd: Int32

    package init(folder: OutputFolder) throws {
        try folder.refusePlantedLinks()
        let path = (folder.stateFolder as NSString).appendingPathComponent("lock")
        // Never through a link: a lock replaced by one is refused, naming it.
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP { throw HealthETLError.cannotCreateOutput("\(path) is a symbolic link; refusing to follow it") }
            throw HealthETLError.cannotCreateOutput("\(path): cannot create lock file (\(String(cString: strerror(errno))))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &buffer, 31, 0)
            let holder = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "?"
            close(fd)
            throw HealthETLError.locked("another run (pid \(holder)) is writing \(folder.path); retry later")
        }
        ftruncate(fd, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { FileCall.pwrite(fd, $0, strlen($0), at: 0, file: path) }   // for people: best effort
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
