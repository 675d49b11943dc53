import Foundation

/// Removes several files and folders all or nothing: each is first renamed into `aside`, a
/// hidden folder on the same file system (a rename is atomic and cannot half happen). When a
/// rename fails, the ones already moved are moved back and the error is thrown: the paths are
/// as they were. Once every path is aside, the folder is deleted; whatever cannot be deleted
/// stays there, hidden and no longer in its place, for the caller's next removal to clear.
public enum AsideRemoval {
    public static func remove(_ paths: [String], aside: String) throws {
        let existing = paths.filter { FileManager.default.fileExists(atPath: $0) }
        guard !existing.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: aside, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw FileError(.cannotCreate, "cannot create \(aside): \(error.localizedDescription)")
        }
        var moved: [(from: String, to: String)] = []
        for (i, path) in existing.enumerated() {
            let to = (aside as NSString).appendingPathComponent("\(i)-" + (path as NSString).lastPathComponent)
            guard FileCall.rename(path, to) == 0 else {
                let failure = FileError(.io, "cannot remove \(path): \(String(cString: strerror(errno)))")
                for m in moved.reversed() { _ = FileCall.rename(m.to, m.from) }
                try? FileManager.default.removeItem(atPath: aside)
                throw failure
            }
            moved.append((path, to))
        }
        try? FileManager.default.removeItem(atPath: aside)
    }
}
