import HealthStore

/// What an output folder holds besides its state folder: the store with the journals SQLite may
/// leave beside it, and what each output that can publish there publishes (`Output.published`,
/// from the registry above the pipeline). `reset`, the planted-link check and the stale-staging
/// sweep read it, so an output added to the registry is removed, checked and swept with no line
/// of the pipeline changed (issue 57: `fhir/` was added to the registry only, and `reset` left
/// the Patient and every Observation behind).
package struct OutputLayout: Sendable, Equatable {
    package static let store = "health.sqlite"
    package static let storeFiles = [store, store + "-journal", store + "-wal", store + "-shm"]

    /// Every output's published paths, in the registry's order.
    package let published: [String]

    package init(_ outputs: [any Output]) { published = outputs.flatMap(\.published) }

    /// A folder seen without the registry (the library's `OutputFolder(path:)`): the store only.
    package static let storeOnly = OutputLayout([])
}
