import HealthCore
import HealthStore
import SQLite

/// The run's digest: the store's days before the run (the published store) against the staged
/// store's, into the summary (`changes`, printed and in `--json`) and the store (for the report).
struct RunDigest {
    let before: [DigestDay]
    let stepGoal: Double

    init(before: [DigestDay], config: PipelineConfig) {
        self.before = before
        stepGoal = (config.goals ?? ReportGoals()).resolved.steps ?? 10_000
    }

    func note(in database: Database, into summary: inout RunSummary) throws {
        let store = HealthStore(database: database)
        let changes = ChangeDigest.changes(before: before, after: try store.digestDays(), stepGoal: stepGoal)
        try store.saveChanges(changes)
        summary.changes = changes.map(\.text)
    }
}
