#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// The database Ctrl-C interrupts: set by `interruptOnSIGINT`, read by the signal handler. One
/// per process (an interactive session has one store); written before the handler is installed.
nonisolated(unsafe) private var interruptedBySIGINT: OpaquePointer?

extension Database {
    /// Makes SIGINT (Ctrl-C in a terminal) stop the statement running on this database, as the
    /// sqlite3 shell does, instead of ending the process: `sqlite3_interrupt` is the one SQLite
    /// call made to be called from elsewhere while a statement runs, and is a no-op when none
    /// does. The statement fails with SQLITE_INTERRUPT (`SQLiteError.isInterrupted`).
    public func interruptOnSIGINT() {
        interruptedBySIGINT = handle
        signal(SIGINT) { _ in
            if let handle = interruptedBySIGINT { sqlite3_interrupt(handle) }
        }
    }
}
