import CSQLite

extension Database {
    /// The SQLite library this process runs with (`3.40.1`), as it reports itself at run time.
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}
