import Foundation
import HealthStore
import SQLite

/// What the run summary says about the outputs and the store after a run: which files it
/// rewrote (and why, when only a setting changed), and what the store holds in all.
enum RunOutcome {
    /// The published names of the files `files` writes, as the summary lists them.
    static func names(of files: OutputFiles) -> [String] {
        ["health.sqlite"] + files.outputs.map(\.summaryName)
    }

    /// Notes a change of the output settings since the store's outputs were written; true when
    /// the files are to be rewritten for it (also when the store has none recorded).
    static func noteOutputSettings(_ settings: OutputSettings, in database: Database, changed: Bool, files: OutputFiles,
                                   summary: inout RunSummary) throws -> Bool {
        guard let changes = try settings.changes(since: database) else { return true }
        guard !changes.isEmpty else { return false }
        let shown = names(of: files).dropFirst().map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        summary.notes.append(changes.joined(separator: ", ")
            + (shown.isEmpty ? "" : ": rewrote " + shown.joined(separator: ", ")))
        return true
    }

    /// The store's days and sleep nights in all (an incremental run recomputes a few).
    static func countStore(_ database: Database, into summary: inout RunSummary) throws {
        let store = HealthStore(database: database)
        summary.storeDays = try store.dayCount()
        summary.storeSleepNights = try store.sleepNightCount()
    }
}
