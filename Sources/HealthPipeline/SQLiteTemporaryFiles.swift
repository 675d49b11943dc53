import Foundation
import HealthCore
import HealthStore
import SQLite

/// SQLite spills large sorts and index builds (a long route's points, a rebuild's indexes) to
/// temporary files, by default in `/var/tmp`: deleted at once, but health data outside the
/// output folder while they exist (issue 46). An import points them at the private state folder
/// of its output tree (`OUT/.healthetl`, the family folder's for a person's import), once per
/// process: the setting is one global of SQLite, and the imports of `import-all --jobs 2`
/// share a process; the first sets it, before it opens a database, under a lock the others wait on.
enum SQLiteTemporaryFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folder: String?

    static func keep(in output: OutputFolder) throws {
        lock.lock()
        defer { lock.unlock() }
        guard folder == nil else { return }
        let state = (output.treeRoot as NSString).appendingPathComponent(".healthetl")
        try OutputFolders.makePrivate(state)
        // A folder on a read-only mount passes `makePrivate` (nothing to change) and SQLite's
        // refusal would read as an internal error: say what is wrong with the folder (exit 73).
        guard access(state, W_OK) == 0 else {
            throw HealthETLError.cannotCreateOutput("\(state): cannot write there (\(String(cString: strerror(errno))))")
        }
        try Database.setTemporaryFolder(state)
        folder = state
    }
}
