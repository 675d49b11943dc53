import CSQLite

/// A failed SQLite call: its result code, the message a person reads (naming the database file
/// where the failure is the file's), and the sysexits code a command line exits with.
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The disk is full or failed (EX_IOERR, 74).
        case io
        /// The file cannot be opened or written: missing folder, read-only, no permission (EX_CANTCREAT, 73).
        case cannotOpen
        /// Another connection holds the database (EX_TEMPFAIL, 75).
        case busy
        /// Anything else: a constraint, a malformed file, a bad statement (EX_SOFTWARE, 70).
        case other
    }

    /// SQLite's extended result code.
    public let code: Int32
    public let kind: Kind
    public let description: String

    public init(code: Int32, kind: Kind, description: String) {
        self.code = code
        self.kind = kind
        self.description = description
    }

    /// The error for result code `rc` with SQLite's `message`, on the database at `path`,
    /// while running `sql` (named in the message of the errors that are the code's, not the file's).
    init(code rc: Int32, message: String, path: String, sql: String?) {
        let primary = rc & 0xFF
        if primary == SQLITE_FULL || primary == SQLITE_IOERR {
            self.init(code: rc, kind: .io, description: "\(path): \(message)")
        } else if primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY || primary == SQLITE_PERM {
            self.init(code: rc, kind: .cannotOpen, description: "\(path): \(message)")
        } else if primary == SQLITE_BUSY || primary == SQLITE_LOCKED {
            self.init(code: rc, kind: .busy, description: "\(path): database is busy (\(message))")
        } else {
            let context = sql.map { " in: \($0.prefix(120))" } ?? ""
            self.init(code: rc, kind: .other, description: "SQLite error \(rc): \(message)\(context)")
        }
    }

    public var exitCode: Int32 {
        switch kind {
        case .io: 74
        case .cannotOpen: 73
        case .busy: 75
        case .other: 70
        }
    }
}
