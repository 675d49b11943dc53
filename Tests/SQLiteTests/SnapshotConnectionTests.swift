import XCTest
import SQLite
import TestSupport

/// `Database.Mode.snapshot`: a second reader of a committed file whose writer holds its lock
/// (a full build stages its outputs from two connections this way).
final class SnapshotConnectionTests: XCTestCase {
    func testASnapshotReadsTheCommittedFileWhileAnExclusiveWriterHoldsIt() throws {
        // A name with the characters a URI reserves: each must reach the file system as it is
        // (a read-only open of a wrong name fails: nothing is created).
        let folder = try temporaryFolder(self).appendingPathComponent("a dir?#%20é")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("store 1%.sqlite").path
        let writer = try Database(path: path)
        try writer.execute("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = DELETE")
        try writer.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        XCTAssertFalse(writer.isInTransaction)
        // A plain reader is locked out by the writer's exclusive lock.
        let plain = try Database(path: path, mode: .readOnly)
        XCTAssertThrowsError(try plain.rows("SELECT count(*) FROM t"))
        let snapshot = try Database(path: path, mode: .snapshot)
        XCTAssertEqual(try snapshot.scalar("SELECT sum(x) FROM t").int, 6)
        XCTAssertThrowsError(try snapshot.execute("INSERT INTO t VALUES (4)"), "a snapshot is read-only")
    }

    func testATransactionIsSeenAsOpenUntilItCommits() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(x)")
        XCTAssertFalse(db.isInTransaction)
        try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)")
            XCTAssertTrue(db.isInTransaction)
        }
        XCTAssertFalse(db.isInTransaction)
    }
}
