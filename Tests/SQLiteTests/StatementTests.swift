import XCTest
@testable import SQLite
import TestSupport

/// Texts bound by pointer from the statement's own buffer (`bind(_:staged:)`) are stored as
/// given, however many and however long, and never outlive the `run()` they were bound for.
final class StatementTests: XCTestCase {
    func testStagedTextsAreStoredAndUnboundAfterTheRun() throws {
        let db = try Database(path: try temporaryFolder(self).appendingPathComponent("t.sqlite").path)
        try db.execute("CREATE TABLE t (a TEXT, b TEXT, n INTEGER)")
        let insert = try db.prepare("INSERT INTO t (a, b, n) VALUES (?, ?, ?)")
        let long = String(repeating: "long text ", count: 10_000)   // more than the buffer holds
        let texts = ["", "x", "ünïcödé", "a slightly longer text than fits inline", long]
        for (n, text) in texts.enumerated() {
            insert.bind(1, staged: text)
            Array("bytes \(n)".utf8).withUnsafeBytes { insert.bind(2, stagedUTF8: $0) }
            insert.bind(3, Int64(n))
            try insert.run()
        }
        // Only the number bound: the texts of the run before must not come back.
        insert.bind(3, Int64(99))
        try insert.run()
        insert.bind(1, staged: nil as String?)
        insert.bind(3, Int64(100))
        try insert.run()
        let rows = try db.rows("SELECT a, b, n FROM t ORDER BY rowid")
        XCTAssertEqual(rows.count, texts.count + 2)
        for (n, text) in texts.enumerated() {
            XCTAssertEqual(rows[n][0].string, text)
            XCTAssertEqual(rows[n][1].string, "bytes \(n)")
            XCTAssertEqual(rows[n][2].int, Int64(n))
        }
        for row in rows.suffix(2) {
            XCTAssertNil(row[0].string)
            XCTAssertNil(row[1].string)
        }
    }

    /// A statement that binds every parameter on every run (`rebindsEveryRun`, the bulk insert's)
    /// keeps its staged texts bound between runs; each run stores its own texts, the stage is
    /// used again from its start (thousands of runs hold far more than its 32 KiB), and a text
    /// too long for it, a nil and an empty one come out as given.
    func testStatementThatRebindsEveryRunStoresEachRunsTexts() throws {
        let db = try Database(path: try temporaryFolder(self).appendingPathComponent("t.sqlite").path)
        try db.execute("CREATE TABLE t (a TEXT, b TEXT, n INTEGER)")
        let insert = try db.prepare("INSERT INTO t (a, b, n) VALUES (?, ?, ?), (?, ?, ?)")
        insert.rebindsEveryRun = true
        func text(_ n: Int) -> String? {
            switch n % 7 {
            case 0: nil
            case 1: ""
            case 2: String(repeating: "long text \(n) ", count: 3_000)   // more than the stage holds
            case 3: "ünïcödé \(n)"
            default: "row \(n) " + String(repeating: "x", count: n % 40)
            }
        }
        let runs = 2_000
        for run in 0..<runs {
            for row in 0..<2 {
                let n = 2 * run + row, at = Int32(3 * row)
                insert.bind(at + 1, staged: text(n))
                Array("bytes \(n)".utf8).withUnsafeBytes { insert.bind(at + 2, stagedUTF8: $0) }
                insert.bind(at + 3, Int64(n))
            }
            try insert.run()
        }
        let rows = try db.rows("SELECT a, b, n FROM t ORDER BY n")
        XCTAssertEqual(rows.count, 2 * runs)
        for (n, row) in rows.enumerated() {
            XCTAssertEqual(row[0].string, text(n), "row \(n)")
            XCTAssertEqual(row[1].string, "bytes \(n)")
            XCTAssertEqual(row[2].int, Int64(n))
        }
    }

    /// Parameterized `rows` reuse one prepared statement per SQL text, bounded in number;
    /// reused statements see schema changes and leave nothing open behind them.
    func testHasTableSeesTablesOnly() throws {
        let db = try Database(path: try temporaryFolder(self).appendingPathComponent("t.sqlite").path)
        try db.execute("CREATE TABLE runs (id INTEGER); CREATE VIEW recent AS SELECT id FROM runs; CREATE INDEX settings ON runs (id)")
        XCTAssertTrue(try db.hasTable("runs"))
        XCTAssertFalse(try db.hasTable("recent"), "a view")
        XCTAssertFalse(try db.hasTable("settings"), "an index")
        XCTAssertFalse(try db.hasTable("runs' OR '1'='1"), "the name is bound, not spliced")
    }

    func testCachedStatementsAreReusedBoundedAndClosed() throws {
        let path = try temporaryFolder(self).appendingPathComponent("t.sqlite").path
        do {
            let db = try Database(path: path)
            try db.execute("CREATE TABLE t (k INTEGER, v TEXT)")
            for k in 0..<500 { try db.rows("INSERT INTO t (k, v) VALUES (?, ?)", [.integer(Int64(k)), .text("v\(k)")]) }
            XCTAssertEqual(db.cachedStatementCount, 1)
            XCTAssertEqual(try db.rows("SELECT v FROM t WHERE k = ?", [.integer(42)]).first?[0].string, "v42")
            XCTAssertEqual(try db.rows("SELECT v FROM t WHERE k = ?", [.integer(7)]).first?[0].string, "v7")
            try db.execute("ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'w'")
            try db.rows("INSERT INTO t (k, v) VALUES (?, ?)", [.integer(500), .text("v500")])
            XCTAssertEqual(try db.scalar("SELECT count(*) FROM t WHERE k >= ?", [.integer(0)]).int, 501)
            XCTAssertEqual(try db.scalar("SELECT w FROM t WHERE k = ?", [.integer(500)]).string, "w")
            for k in 0..<(2 * Database.cacheLimit) { _ = try db.rows("SELECT \(k) + ?", [.integer(1)]) }
            XCTAssertLessThanOrEqual(db.cachedStatementCount, Database.cacheLimit)
        }
        // Closed with its cached statements: another connection may take the file exclusively.
        let again = try Database(path: path, mode: .readWrite)
        try again.execute("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT")
        XCTAssertEqual(try again.scalar("SELECT count(*) FROM t").int, 501)
    }
}
