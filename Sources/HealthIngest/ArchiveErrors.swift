import Archive
import HealthCore

// The archive library's errors carry their own exit codes; the command line reads them as
// every library's (`SysexitsError`).
extension ArchiveError: SysexitsError {}

extension HealthETLError {
    /// The health pipeline's error for an export archive that cannot be read: callers that
    /// keep going past a damaged file (a route, an ECG) catch `HealthETLError`s.
    init(_ error: ArchiveError) {
        switch error.kind {
        case .cannotOpen: self = .inputMissing(error.description)
        case .unusable, .bomb: self = .dataUnusable(error.description)
        case .io: self = .io(error.description)
        case .unexpected: self = .internal(error.description)
        }
    }
}

/// Runs `body`, an export archive's read, with its archive errors as the pipeline's. A zip bomb
/// stays an `ArchiveError`: readers that skip a damaged route or clinical file (they catch
/// `HealthETLError`) must not skip it, the whole export is refused.
func readingArchive<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ArchiveError where error.kind != .bomb {
        throw HealthETLError(error)
    }
}
