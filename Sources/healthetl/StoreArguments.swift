import Foundation
import HealthCore
import HealthPeople

extension ParsedArguments {
    /// A command that reads a store (`report`, `status`, `query`, `repl`) in a family folder
    /// (one with `people/` but no store of its own) without `--person`: names the people,
    /// rather than "no store yet", which reads as if nothing were imported.
    func refuseFamilyFolderWithoutPerson(_ command: String) throws {
        guard try person == nil, !FileManager.default.fileExists(atPath: try storePath) else { return }
        let ids = People(root: root).ids()
        guard !ids.isEmpty else { return }
        throw HealthETLError.inputMissing("\(root) holds the stores of \(ids.count) \(ids.count == 1 ? "person" : "people"), "
            + "none of its own: healthetl \(command) --out \(root) --person ID, where ID is one of: "
            + ids.map(\.rawValue).joined(separator: ", "))
    }
}
