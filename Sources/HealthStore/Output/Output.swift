import Foundation
import HealthCore
import SQLite

/// One output of a run, named by the pipeline's `outputs` (`csv`, `parquet`, `report`,
/// `xlsx`) or added by the caller (a person's dataset partitions): written from the run's
/// finished store into a private staging folder of its own, then moved into place by the
/// run's publication together with the store and every other output, all or nothing. A run
/// that fails at any step leaves the published files as they were; a run cut short while
/// publishing writes them again.
///
/// Adding a format is one type conforming to this protocol and one line in the registry
/// (`OutputRegistry`, above the pipeline, which knows no format).
package protocol Output: Sendable {
    /// Its name in the pipeline's `outputs` (and its staging folder's).
    var name: String { get }
    /// What it publishes, as the run summary lists it (`csv/`, `report/index.html`).
    var summaryName: String { get }
    /// The files and folders it publishes, relative to the output folder (`csv`, `report`,
    /// `health.xlsx`): what `reset` removes, the planted-link check and the stale-staging sweep
    /// look at (`OutputLayout`). Empty for one that publishes outside the folder.
    var published: [String] { get }
    /// True when a file it publishes is not in `folder` (the run's output folder): a run
    /// that changes nothing writes it then (say, after it was added to the pipeline).
    func isMissing(in folder: String) -> Bool
    /// Writes it from `database` (the run's finished store) into the empty private folder
    /// `staging`; `folder` is the run's output folder; `run` says what is staged already.
    /// `progress` gets the name of each part as it starts.
    func stage(from database: Database, in staging: String, folder: String, run: StagingRun,
               progress: (String) throws -> Void) throws -> StagedFiles
    /// True when it uses what other outputs staged in the same run (`StagingRun.parquetTables`):
    /// it is staged after them. The others may be staged side by side, each from a
    /// connection of its own.
    var usesOtherOutputs: Bool { get }
}

package extension Output {
    var usesOtherOutputs: Bool { false }
}

/// What a run has staged before an output's turn.
package struct StagingRun: Sendable, Equatable {
    /// Tables this output has staged already (its `SeriesOutput` file).
    package var written: Set<String>
    /// Parquet files of tables the outputs before it staged in this run (table → file): an
    /// output holding the same table links the file instead of writing it again.
    package var parquetTables: [String: String]
    package init(written: Set<String> = [], parquetTables: [String: String] = [:]) {
        self.written = written; self.parquetTables = parquetTables
    }
}

/// An output that writes a table from the series the analytics read, on a thread beside them
/// (the samples: the store is read once, and their encoding runs on the other core).
package protocol SeriesOutput: Output {
    /// The table written that way and the file it is staged as in `staging` (nil: none).
    func seriesFile(in staging: String) -> (table: OutputTable, path: String)?
}

/// What an output staged: files or folders with the paths they are published as (the
/// publication creates their parent folders, private), and rows per table.
package struct StagedFiles: Sendable, Equatable {
    package var moves: [StagedOutput]
    package var rows: [String: Int]
    /// The output's Parquet file of each table it staged whole (for `StagingRun.parquetTables`).
    package var parquetTables: [String: String]
    package init(moves: [StagedOutput] = [], rows: [String: Int] = [:], parquetTables: [String: String] = [:]) {
        self.moves = moves; self.rows = rows; self.parquetTables = parquetTables
    }
}

/// A staged file or folder and the path it is published as.
package struct StagedOutput: Sendable, Equatable {
    package let staged: String
    package let final: String
    package init(staged: String, final: String) { self.staged = staged; self.final = final }
}

/// Private folders for staged outputs.
package enum OutputFolders {
    /// Creates `folder` (and its parents) readable by the owner only.
    package static func makePrivate(_ folder: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            chmod(folder, 0o700)
        } catch {
            throw HealthETLError.cannotCreateOutput("\(folder): cannot create output folder (\(error.localizedDescription))")
        }
    }

    /// Every file staged in `staging` (hidden ones left out), sorted, published under `target`.
    package static func moves(from staging: String, to target: String) -> [StagedOutput] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staging))?.filter { !$0.hasPrefix(".") } ?? []
        return names.sorted().map {
            StagedOutput(staged: (staging as NSString).appendingPathComponent($0), final: (target as NSString).appendingPathComponent($0))
        }
    }

    package static func exists(_ folder: String, _ sub: String, _ name: String) -> Bool {
        FileManager.default.fileExists(atPath: ((folder as NSString).appendingPathComponent(sub) as NSString).appendingPathComponent(name))
    }
}
