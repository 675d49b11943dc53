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
    /// `seconds` from `start` (a `CLOCK_MONOTONIC` reading in nanoseconds, now by default).
    init(seconds: Double, from start: UInt64 = Deadline.now()) {
        uptimeLimit = start &+ UInt64(max(0, seconds) * 1_000_000_000)
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
    /// `since`: when the request began (`Database.monotonicNow()`), so that the limit covers
    /// what was done before the statements too (reading and planning a query).
    public func withTimeLimit<T>(seconds: Double, since start: UInt64? = nil, _ body: () throws -> T) throws -> T {
        let deadline = Deadline(seconds: seconds, from: start ?? Deadline.now())
        guard !deadline.expired else { throw SQLiteError(code: SQLITE_INTERRUPT, kind: .other, description: Self.stopped(seconds)) }
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
            throw SQLiteError(code: error.code, kind: .other, description: Self.stopped(seconds))
        }
    }

    static func stopped(_ seconds: Double) -> String { "the query ran longer than \(secondsText(seconds)) s and was stopped" }

    /// The monotonic clock `withTimeLimit(seconds:since:)` counts from, in nanoseconds.
    public static func monotonicNow() -> UInt64 { Deadline.now() }

    static func secondsText(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }
}

extension SQLiteError {
    /// Whether the statement was stopped by `withTimeLimit` (or another interrupt).
    public var isInterrupted: Bool { code & 0xFF == SQLITE_INTERRUPT }
}
