import HealthStore
import SQLite

/// A person's partitions of the cohort dataset, as an output of their import: outside their
/// own folder, but staged from their store and published with it, all or nothing.
package struct DatasetOutput: Output {
    package let dataset: CohortDataset
    package let person: PersonKey
    package init(dataset: CohortDataset, person: PersonKey) { self.dataset = dataset; self.person = person }

    package var name: String { "dataset" }
    package var summaryName: String { "dataset partitions" }
    /// The partitions are the family folder's `dataset/`, not the person's folder's.
    package var published: [String] { [] }
    /// It links the person's own Parquet files instead of writing the same tables twice.
    package var usesOtherOutputs: Bool { true }

    package func isMissing(in folder: String) -> Bool { !dataset.hasPartitions(of: person) }

    package func stage(from database: Database, in staging: String, folder: String, run: StagingRun,
                      progress: (String) throws -> Void) throws -> StagedFiles {
        StagedFiles(moves: try dataset.stage(person, from: database, in: staging, linking: run.parquetTables)
            .map { StagedOutput(staged: $0.staged, final: $0.final) })
    }
}
