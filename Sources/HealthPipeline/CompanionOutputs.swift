import SQLite

/// Outputs that lie outside a run's own folder but are made from its store (a person's
/// partitions of the cohort dataset): staged from the finished store beside the folder's own
/// files and moved into place in the same publication. A run that fails at any step leaves
/// them as they were, with the store they came from; a run that succeeds leaves them matching
/// the new store; and a run cut short while publishing writes them again, as it does every
/// other output.
public protocol CompanionOutputs: Sendable {
    /// True when they are not all in place: a run that changes nothing writes them then.
    var missing: Bool { get }
    /// Writes them from `database` (the run's finished store) into the empty private folder
    /// `staging`; returns each staged file or folder with the path it is published as (whose
    /// parent folder must exist).
    func stage(from database: Database, in staging: String) throws -> [StagedOutput]
}

/// A staged file or folder and the path it is published as.
public struct StagedOutput: Sendable, Equatable {
    public let staged: String
    public let final: String
    public init(staged: String, final: String) { self.staged = staged; self.final = final }
}
