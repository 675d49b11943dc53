import Foundation
import HealthCore

/// Statements entered in the REPL, kept in a private file (0600: queries name health data)
/// so the next session can recall them.
package final class History {
    package private(set) var entries: [String] = []
    let path: String?
    private let limit = 1000

    package init(path: String?) {
        self.path = path
        if let path, let text = try? String(contentsOfFile: path, encoding: .utf8) {
            entries = text.split(separator: "\n").map(String.init).suffix(limit).map { $0 }
        }
    }

    /// Adds a statement (as one line) unless it repeats the last one, and saves the file.
    package func add(_ statement: String) {
        let line = statement.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty, entries.last != line else { return }
        entries.append(line)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        save()
    }

    private func save() {
        guard let path else { return }
        let folder = PathText.parent(of: path)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let text = entries.joined(separator: "\n") + "\n"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        chmod(path, 0o600)
    }
}
