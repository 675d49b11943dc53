import HealthCore
import HealthEmit
import HealthFHIR
import HealthPipeline
import HealthReport
import HealthStore
import HealthWorkbook

/// The outputs a pipeline can name, by name: the one place that knows every format. It lives
/// above the pipeline, which only stages, publishes and knows none of them; the command line
/// and the people's imports hand the pipeline what this makes of a pipeline's `outputs`.
///
/// A new format: a type conforming to `Output` (in the module that writes it), and one line here.
package struct OutputRegistry: Sendable {
    package typealias Make = @Sendable (PipelineConfig) throws -> any Output

    /// Names in the order their outputs are staged.
    package let entries: [(name: String, make: Make)]

    package init(_ entries: [(name: String, make: Make)]) { self.entries = entries }

    package static let standard = OutputRegistry([
        ("csv", { TableFilesOutput(.csv, units: try $0.unitSystem(), dialect: try $0.dialect()) }),
        ("parquet", { _ in TableFilesOutput(.parquet) }),
        ("report", { ReportOutput(goals: $0.goals ?? ReportGoals(), units: try $0.unitSystem()) }),
        ("xlsx", { WorkbookOutput(units: try $0.unitSystem()) }),
        // Opt-in (not in `PipelineConfig.allOutputs`): FHIR R4 for clinics and research platforms.
        ("fhir", { _ in FHIROutput() }),
    ])

    /// What every output it knows publishes in an output folder, chosen by a pipeline or not:
    /// `reset` removes all of it, the planted-link check and the stale-staging sweep look at all
    /// of it. (Each made under the default settings: where an output publishes does not depend
    /// on the settings.)
    package var layout: OutputLayout {
        // The default settings are valid: no output's `make` throws on them.
        OutputLayout(entries.map { try! $0.make(PipelineConfig()) })
    }

    /// The store itself: always written, named so a pipeline may list it.
    static let store = "sqlite"

    /// The outputs `config` names (every one when it names none); a name nobody knows is a usage error.
    package func outputs(for config: PipelineConfig) throws -> [any Output] {
        // The units and dialect are checked whether or not an output shows them.
        _ = try config.unitSystem()
        _ = try config.dialect()
        let names = config.outputs ?? PipelineConfig.allOutputs
        let known = [Self.store] + entries.map(\.name)
        if let unknown = names.first(where: { !known.contains($0) }) {
            throw HealthETLError.usage("unknown output '\(unknown)' (expected \(known.dropLast().joined(separator: ", ")) or \(known.last!))")
        }
        return try entries.filter { names.contains($0.name) }.map { try $0.make(config) }
    }
}
