import Foundation
import HealthPeople
import HealthPipeline

/// What `healthetl reset` says it would do (without `--yes`) and what it keeps.
enum ResetText {
    static func dryRun(folder: OutputFolder, plan: ResetPlan, partitions: [String], keepProfile: Bool,
                       person: PersonID?, root: String) -> String {
        let again = "\nrun again with --yes to do so"
        if keepProfile {
            guard plan.hasStore else { return "reset --keep-profile: no store in \(folder.path)" }
            return "reset --keep-profile would clear the analytics and anchors of \(folder.databasePath) "
                + "(samples and profile kept; the next import checks every record and recomputes every day)" + again
        }
        let lines = plan.lines + partitions
        guard !lines.isEmpty else { return "reset: nothing to remove in \(folder.path)" }
        return "reset would remove from \(folder.path):\n" + lines.map { "  " + $0 }.joined(separator: "\n")
            + kept(folder: folder, person: person, root: root, keepProfile: false) + again
    }

    /// What stays, and how to remove that too: a person's settings, the other people.
    static func kept(folder: OutputFolder, person: PersonID?, root: String, keepProfile: Bool) -> String {
        guard !keepProfile else { return "" }
        if let person {
            return "\nkept: \(folder.path)/person.json (their settings; healthetl people remove \(person) erases the person)"
        }
        let ids = People(root: root).ids()
        guard !ids.isEmpty else { return "" }
        return "\nkept: \(People(root: root).folder) (\(ids.count) \(ids.count == 1 ? "person" : "people"): "
            + "healthetl reset --person ID resets one)"
    }
}
