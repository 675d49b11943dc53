import CSQLite

extension Database {
    /// Where SQLite writes the temporary files of large sorts and indexes from now on, for
    /// every connection of the process (SQLite's `temp_store_directory`; by default `/var/tmp`
    /// or `$TMPDIR`, read once when SQLite starts). A program that keeps private data in a
    /// private folder sets it to that folder before it opens its databases: SQLite deletes
    /// those files at once, but while they exist they hold the data. Call it before other
    /// threads use SQLite: the setting is one global of the library.
    public static func setTemporaryFolder(_ path: String) throws {
        let database = try Database(path: ":memory:", mode: .create)
        try database.execute("PRAGMA temp_store_directory = '\(path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''"))'")
    }

    /// The folder SQLite's temporary files go to, or nil for its default.
    public static func temporaryFolder() throws -> String? {
        let database = try Database(path: ":memory:", mode: .create)
        guard case .text(let folder)? = try database.rows("PRAGMA temp_store_directory").first?.first, !folder.isEmpty else { return nil }
        return folder
    }
}
