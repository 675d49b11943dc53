import Foundation
import HealthCore
import HealthStore
import PrivateFiles
import SQLite

/// Writes one output of an existing store again, outside an import (`healthetl export-fhir`):
/// under the folder's lock, staged privately, published as an import publishes (moved into
/// place, the old one aside until the new one is there; undone on failure).
package enum OutputRewrite {
    /// Returns the output's staged rows per part.
    @discardableResult
    package static func run(_ output: any Output, in folder: OutputFolder) throws -> [String: Int] {
        guard FileManager.default.fileExists(atPath: folder.databasePath) else {
            throw HealthETLError.inputMissing("\(folder.databasePath): no store yet (run healthetl import first)")
        }
        try folder.refusePlantedLinks()
        let lock = try RunLock(folder: folder)
        defer { withExtendedLifetime(lock) {} }
        folder.removeStaleStaging()   // a killed export-fhir's staging-PID, as an import does
        let database = try Database(path: folder.databasePath, mode: .readOnly)
        let files = OutputFiles(folder: folder, outputs: [output])
        defer { files.discard() }
        let staged = try files.stage(from: database, changed: true, written: []) { _ in }
        let publication = Publication(folder: folder)
        do {
            try files.publish(staged.files.moves, into: publication)
            try publication.syncFolders()
        } catch {
            publication.rollBack()
            throw error
        }
        publication.commit()
        return staged.files.rows
    }
}
