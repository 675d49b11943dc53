import Foundation
import HealthDataset

extension People {
    /// The person's partitions of the cohort dataset (`OUT/dataset/TABLE/person=ID`) that
    /// exist: outputs of their imports, which `healthetl reset --person ID` removes too.
    public func datasetPartitions(of id: PersonID) -> [String] {
        CohortDataset.tableNames.map { dataset.partition($0, PersonKey(id.rawValue)) }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }
}
