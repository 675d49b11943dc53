#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// A thin, safe layer over one SQLite connection, in the spirit of GRDB: prepared
/// statements with typed bindings, transactions as closures, errors as Swift errors.
/// Not thread-safe: one connection belongs to one stage thread.
public final class Database {
    let handle: OpaquePointer
    public let path: String
    /// `cachedStatement`'s statements, reset between uses (`Statement.step` resets at the end).
    private var statementCache: [String: Statement] = [:]
    static let cacheLimit = 64
    var cachedStatementCount: Int { statementCache.count }

    public enum Mode {
        case readOnly, readWrite, create
        /// Read-only, of a file that nobody writes while this connection is open: SQLite takes
        /// no lock and reads no journal (its `immutable` flag). For a second reader beside a
        /// connection that holds the file's lock but has committed everything and waits.
        case snapshot
        /// A database file from outside, opened as SQLite advises for one nobody here wrote
        /// (sqlite.org/security.html): read-only and immutable, defensive mode on, the schema
        /// not trusted (its functions run only if innocuous), triggers and views off, no
        /// extensions, no memory map, cells checked as they are read, and no value longer than
        /// `untrustedValueLimit` (a longer one fails its statement with `SQLITE_TOOBIG`).
        case untrusted
    }

    /// The longest string or blob an `.untrusted` database may hand back.
    public static let untrustedValueLimit: Int32 = 16 << 20

    /// Process-wide settings, made once before the first connection opens.
    private static let configured: Bool = {
        let done = healthetl_sqlite3_disable_memory_statistics() == SQLITE_OK
        #if DEBUG
        FaultInjectingVFS.registerIfPlanned()   // after the configuration: registering initializes SQLite
        #endif
        return done
    }()

    /// `followLinks: false` refuses a path whose last component is a symbolic link.
    public init(path: String, mode: Mode = .create, followLinks: Bool = true) throws {
        self.path = path
        _ = Self.configured
        var db: OpaquePointer?
        let flags: Int32 = switch mode {
        case .readOnly: SQLITE_OPEN_READONLY
        case .readWrite: SQLITE_OPEN_READWRITE
        case .create: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .snapshot, .untrusted: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        }
        let name = mode == .snapshot || mode == .untrusted ? Self.immutableURI(path) : path
        let rc = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX | (followLinks ? 0 : SQLITE_OPEN_NOFOLLOW), nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw SQLiteError(code: rc, kind: .cannotOpen, description: "\(path): cannot open database (\(message))")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
        if mode == .untrusted { try distrust() }
    }

    /// The settings of an `.untrusted` connection, made before any statement reads the schema.
    private func distrust() throws {
        for (op, value) in [(SQLITE_DBCONFIG_DEFENSIVE, 1), (SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0),
                            (SQLITE_DBCONFIG_ENABLE_TRIGGER, 0), (SQLITE_DBCONFIG_ENABLE_VIEW, 0),
                            (SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0)] {
            let rc = healthetl_sqlite3_db_config_int(handle, op, Int32(value))
            guard rc == SQLITE_OK else {
                throw SQLiteError(code: rc, kind: .cannotOpen, description: "\(path): cannot make the connection safe for a foreign file")
            }
        }
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Self.untrustedValueLimit)
        sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 0)
        try execute("PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0")
    }

    deinit { sqlite3_close_v2(handle) }

    /// `file:PATH?immutable=1`, the path's bytes that a URI reserves escaped (RFC 3986; SQLite
    /// decodes %HH in the path).
    static func immutableURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "%"), 0...0x20, 0x7F...0xFF:
                uri += (byte < 0x10 ? "%0" : "%") + String(byte, radix: 16, uppercase: true)
            default:
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return uri + "?immutable=1"
    }

    /// Whether a transaction is open (what is written is not yet in the file).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    public func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "error \(rc)"
            sqlite3_free(errorMessage)
            throw error(rc, message, sql: sql)
        }
    }

    public func prepare(_ sql: String) throws -> Statement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc, lastMessage, sql: sql) }
        return Statement(handle: stmt, database: self)
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    /// Inside another transaction it is a savepoint of that one.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if sqlite3_get_autocommit(handle) == 0 {
            try execute("SAVEPOINT nested")
            do {
                let result = try body()
                try execute("RELEASE nested")
                return result
            } catch {
                try? execute("ROLLBACK TO nested; RELEASE nested")
                throw error
            }
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rows of a query as arrays of values.
    @discardableResult
    public func rows(_ sql: String, _ bindings: [SQLValue] = []) throws -> [[SQLValue]] {
        let stmt = bindings.isEmpty ? try prepare(sql) : try cachedStatement(sql)
        try stmt.bind(bindings)
        var result: [[SQLValue]] = []
        while try stmt.step() { result.append(stmt.row()) }
        return result
    }

    /// The statement for `sql`, prepared once per connection: statements with parameters are
    /// the ones run again and again (the sink inserts workouts, their events and statistics
    /// by the thousand with a dozen of them), and preparing one costs as much as running it
    /// a few dozen times. Bounded: past `cacheLimit` statements the cache starts over.
    func cachedStatement(_ sql: String) throws -> Statement {
        if let cached = statementCache[sql] { return cached }
        let stmt = try prepare(sql)
        if statementCache.count >= Self.cacheLimit { statementCache.removeAll() }
        statementCache[sql] = stmt
        return stmt
    }

    /// Copies this database into a new file at `path`, page by page (SQLite's online backup:
    /// a consistent snapshot, with what a write-ahead log holds).
    public func backup(to path: String) throws {
        let target = try Database(path: path, mode: .create)
        guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
            throw target.error(sqlite3_errcode(target.handle), target.lastMessage)
        }
        let rc = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE else { throw target.error(rc, target.lastMessage) }
    }

    public func scalar(_ sql: String, _ bindings: [SQLValue] = []) throws -> SQLValue {
        try rows(sql, bindings).first?.first ?? .null
    }

    /// Whether the database holds a table called `name` (a store made by an older version may not).
    public func hasTable(_ name: String) throws -> Bool {
        try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]).int == 1
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    public var changes: Int { Int(sqlite3_changes(handle)) }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ rc: Int32, _ message: String, sql: String? = nil) -> SQLiteError {
        // An I/O error says what the system said ("File too large", "No space left on device").
        let systemError = sqlite3_system_errno(handle)
        let detail = (rc & 0xFF == SQLITE_IOERR || rc & 0xFF == SQLITE_FULL) && systemError != 0
            ? " (\(String(cString: strerror(systemError))))" : ""
        return SQLiteError(code: rc, message: message + detail, path: path, sql: sql)
    }
}

/// A value read from or bound to SQLite.
public enum SQLValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let v): String(v)
        case .real(let v): String(v)
        case .text(let v): v
        }
    }

    public var int: Int64? {
        switch self {
        case .integer(let v): v
        // A real out of Int64's range (or NaN) has no integer value; `Int64(_:)` would trap.
        case .real(let v): v.isFinite && v >= -9.2e18 && v <= 9.2e18 ? Int64(v) : nil
        case .text(let v): Int64(v)
        case .null: nil
        }
    }

    public var double: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .real(let v): v
        case .text(let v): Double(v)
        case .null: nil
        }
    }

    public var string: String? {
        switch self {
        case .null: nil
        case .text(let v): v
        default: description
        }
    }
}
