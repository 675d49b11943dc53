import Foundation
import HealthCore
import PrivateFiles

/// What `healthetl reset` removes from an output folder: every output a run made there — the
/// store (with any journal SQLite left beside it) and what each output publishes (the folder's
/// `OutputLayout`: `csv/`, `parquet/`, `report/`, `health.xlsx`, `fhir/`) — and the run state in `.healthetl/` (run log, checkpoints, REPL history)
/// but its lock, which the reset holds. Never `people/` (each person is reset on their own)
/// nor a person's `person.json` (their settings). Listed first, so that a reset without
/// `--yes` can show exactly what it would remove.
package struct ResetPlan: Sendable {
    package let folder: OutputFolder
    /// Each path that exists, absolute, in the order they are removed.
    package let paths: [String]

    package init(folder: OutputFolder) {
        self.folder = folder
        let fm = FileManager.default
        let base = folder.path as NSString
        let outputs = (OutputLayout.storeFiles + folder.layout.published).map { base.appendingPathComponent($0) }
        let state = ((try? fm.contentsOfDirectory(atPath: folder.stateFolder)) ?? []).sorted()
            .filter { $0 != "lock" }.map { (folder.stateFolder as NSString).appendingPathComponent($0) }
        paths = (outputs + state).filter { fm.fileExists(atPath: $0) }
    }

    /// Whether the folder holds a store (else the reset only clears run state).
    package var hasStore: Bool { FileManager.default.fileExists(atPath: folder.databasePath) }

    /// One line per path, relative to the folder, a folder with its number of files.
    package var lines: [String] {
        paths.map { path in
            let relative = String(path.dropFirst(folder.path.count)).drop { $0 == "/" }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                return String(relative)
            }
            let count = FileManager.default.enumerator(atPath: path)?.allObjects.count ?? 0
            return "\(relative)/ (\(count) file\(count == 1 ? "" : "s"))"
        }
    }

    /// Removes every listed path and `alongside`, all or nothing (`AsideRemoval`: each renamed
    /// into `.healthetl/.removing-PID` first, every one put back if one cannot be); the caller
    /// holds the folder's lock. A leftover `.removing-*` of a crashed reset is run state: the
    /// next reset lists and removes it.
    func remove(alongside: [String] = []) throws {
        let aside = (folder.stateFolder as NSString).appendingPathComponent(".removing-\(getpid())")
        do {
            try AsideRemoval.remove(paths + alongside, aside: aside)
        } catch let error as FileError {
            throw HealthETLError.io(error.description)
        }
    }
}
