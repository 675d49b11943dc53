import Foundation
import HealthCore
import HealthPipeline
import Synchronization

/// A household's nightly run (`healthetl import-all DIR`): every export in a folder imported
/// as the person it is named after, `NAME.zip`, `NAME.xml` or `NAME/` as person NAME.
public struct HouseholdRun: Sendable {
    /// One person's result: a summary, or the error that stopped their import.
    public struct Outcome: Sendable {
        public var person: String
        public var export: String
        public var summary: RunSummary?
        public var error: String?
        public var exitCode: Int32
        public var seconds: Double

        /// One JSON object per person for `import-all --json`: the person, the export, the exit
        /// code and either the error or the run summary.
        public var json: String {
            struct Line: Encodable {
                var person: String, export: String, status: String, exitCode: Int32, error: String?, summary: RunSummary?
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let line = Line(person: person, export: export, status: summary == nil ? "failed" : "ok", exitCode: exitCode,
                            error: error, summary: summary)
            return (try? String(decoding: encoder.encode(line), as: UTF8.self)) ?? "{}"
        }

        /// The line `import-all` prints for this person.
        public var line: String {
            if let summary {
                return "\(person): ok, \(summary.mode), \(summary.newSamples ?? summary.samples) new samples, "
                    + "\(summary.days) days (\(String(format: "%.1f", seconds)) s)"
            }
            return "\(person): failed (exit \(exitCode)): \(error ?? "unknown error")"
        }
    }

    public let people: People
    public let exports: String
    public let pipeline: PipelineConfig
    /// Imports at a time: 1 or 2 (each import already keeps two cores busy).
    public let parallel: Int
    public let full: Bool

    public init(people: People, exports: String, pipeline: PipelineConfig = PipelineConfig(), parallel: Int = 1,
                full: Bool = false) {
        self.people = people; self.exports = exports; self.pipeline = pipeline
        self.parallel = min(max(parallel, 1), 2); self.full = full
    }

    /// The exports in the folder, by name: (person name, path). A name that is no valid id
    /// comes back too, and fails on its own when imported.
    public func entries() throws -> [(name: String, path: String)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: exports) else {
            throw HealthETLError.inputMissing("\(exports): no such folder of exports")
        }
        return names.sorted().compactMap { name in
            guard !name.hasPrefix(".") else { return nil }
            let path = (exports as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
            if isFolder.boolValue { return (name, path) }
            let ext = (name as NSString).pathExtension.lowercased()
            guard ext == "zip" || ext == "xml" else { return nil }
            return ((name as NSString).deletingPathExtension, path)
        }
    }

    /// Imports every export; one that fails does not stop the others. `report` gets each
    /// outcome as it ends (from the importing threads, one at a time).
    public func run(report: @escaping @Sendable (Outcome) -> Void = { _ in }) throws -> [Outcome] {
        let work = try entries()
        let outcomes = Mutex<[Int: Outcome]>([:])
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: parallel) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < work.count else { return }
                let outcome = importOne(name: work[i].name, path: work[i].path)
                outcomes.withLock { $0[i] = outcome; report(outcome) }
            }
        }
        return outcomes.withLock { all in work.indices.compactMap { all[$0] } }
    }

    private func importOne(name: String, path: String) -> Outcome {
        let started = Date()
        var outcome = Outcome(person: name, export: path, exitCode: 0, seconds: 0)
        do {
            let id = try PersonID(name)
            outcome.summary = try people.runImport(path, for: id, pipeline: pipeline, full: full)
        } catch let error as any SysexitsError {
            outcome.error = error.description
            outcome.exitCode = error.exitCode
        } catch {
            outcome.error = "\(error)"
            outcome.exitCode = 70
        }
        outcome.seconds = Date().timeIntervalSince(started)
        return outcome
    }

    /// The exit code of the whole run: the worst (highest) of the people's, 0 if all went well.
    public static func exitCode(of outcomes: [Outcome]) -> Int32 {
        outcomes.map(\.exitCode).max() ?? 0
    }
}
