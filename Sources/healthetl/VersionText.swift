import Foundation
import HealthPipeline

/// `healthetl --version [--json]`: what a bug report needs (the release, the commit and date it
/// was built from, the C libraries it runs with, the platform).
enum VersionText {
    static var platform: String {
        #if os(Linux)
        let system = "linux"
        #elseif os(macOS)
        let system = "macos"
        #else
        let system = "unknown"
        #endif
        #if arch(x86_64)
        return system + "-x86_64"
        #elseif arch(arm64)
        return system + "-aarch64"
        #else
        return system
        #endif
    }

    /// `healthetl 0.31.0 (commit abc123def456, built 2026-11-27)` and a line of libraries.
    static var text: String {
        "healthetl \(Release.description)\n"
            + Release.libraries.map { "\($0.name) \($0.version)" }.joined(separator: ", ") + "; " + platform
    }

    static var json: String {
        var fields = ["version": Release.version, "commit": Release.commit, "build_date": Release.buildDate, "platform": platform]
        for library in Release.libraries { fields[library.name] = library.version }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(fields)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
