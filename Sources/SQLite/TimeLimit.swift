#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// A deadline a long statement checks now and then (SQLite's progress handler): a query of a
/// server that answers other requests must not run for ever.
final class Deadline {
    let uptimeLimit: UInt64
    init(seconds: Double) {
        uptimeLimit = Self.now() &+ UInt64(max(0, seconds) * 1_000_000_000)
    }
    var expired: Bool { Self.now() >= uptimeLimit }
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

extension Database {
    /// Runs `body` with statements interrupted once `seconds` have passed; an interrupted
    /// statement throws `SQLiteError.timedOut`. The handler is removed afterwards.
    public func withTimeLimit<T>(seconds: Double, _ body: () throws -> T) throws -> T {
        let deadline = Deadline(seconds: seconds)
        let context = Unmanaged.passRetained(deadline)
        // Every 1,000 virtual machine instructions: often enough to stop within milliseconds.
        sqlite3_progress_handler(handle, 1000, { pointer in
            guard let pointer else { return 0 }
            return Unmanaged<Deadline>.fromOpaque(pointer).takeUnretainedValue().expired ? 1 : 0
        }, context.toOpaque())
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            context.release()
        }
        do {
            return try body()
        } catch let error as SQLiteError where error.code & 0xFF == SQLITE_INTERRUPT {
            throw SQLiteError(code: error.code, kind: .other,
                              description: "the query ran longer than \(Self.secondsText(seconds)) s and was stopped")
        }
    }

    static func secondsText(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }
}

extension SQLiteError {
    /// Whether the statement was stopped by `withTimeLimit` (or another interrupt).
    public var isInterrupted: Bool { code & 0xFF == SQLITE_INTERRUPT }
}
