import BuildStamp
import HealthIngest
import SQLite

/// Which healthetl this is: the release, the commit and date it was built from, and the C
/// libraries it runs with. `healthetl --version` prints it; every run-log line carries
/// `description`, so a bug report and `runs.log` say what ran.
package enum Release {
    /// The release (raised with each CHANGELOG entry).
    package static let version = "0.31.0"
    /// The git commit built (`abc123def456`, with `-dirty` for uncommitted changes), or `unknown`.
    package static var commit: String { String(cString: healthetl_build_commit()) }
    /// The UTC day of the build (`2026-11-27`), or `unknown`.
    package static var buildDate: String { String(cString: healthetl_build_date()) }
    /// `0.31.0 (commit abc123def456, built 2026-11-27)`.
    package static var description: String { "\(version) (commit \(commit), built \(buildDate))" }

    /// The C libraries, by name, in a fixed order.
    package static var libraries: [(name: String, version: String)] {
        [("libxml2", InputLibraries.libxml2), ("sqlite", Database.libraryVersion), ("zlib", InputLibraries.zlib)]
    }
}
