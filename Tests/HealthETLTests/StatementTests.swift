import XCTest
@testable import HealthEmit

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
}
