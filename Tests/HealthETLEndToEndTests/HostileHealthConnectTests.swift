import Foundation
import XCTest
import TestSupport

/// Issue 58: a Health Connect database is an input from outside. Each hostile one is refused
/// with exit 65 and a sentence saying what it is, in seconds, with nothing published.
final class HostileHealthConnectTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws { dir = try temporaryFolder(self) }

    /// A sound export of the real schema, the start of every hostile one.
    private func sound(_ name: String = "health_connect_export.db") throws -> String {
        var s = HealthConnectScenario()
        s.apps = [("com.example.app", "App")]
        for day in 1...20 {
            s.add("steps_record_table", app: "com.example.app", ["start": String(format: "2025-03-%02dT10:00:00+01:00", day),
                                                              "end": String(format: "2025-03-%02dT11:00:00+01:00", day), "count": 1000])
        }
        let path = dir.appendingPathComponent(name).path
        try s.write(to: path)
        return path
    }

    /// Runs Python's sqlite3 on `path` (tooling: it changes the file the test hands the import).
    private func python(_ code: String, _ arguments: [String]) throws {
        let result = try runProcess(try TestTools.python(), ["-c", code] + arguments, timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    private func refused(_ input: String, saying phrases: [String]) throws {
        _ = try assertImportRefused(input, into: dir.appendingPathComponent("out").path, saying: phrases, within: 30)
    }

    func testNotSQLite() throws {
        let path = dir.appendingPathComponent("health_connect_export.db").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: path))
        try refused(path, saying: ["health_connect_export.db"])
    }

    func testTruncatedFile() throws {
        let path = try sound()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        try refused(path, saying: ["health_connect_export.db"])
    }

    func testCorruptPage() throws {
        let path = try sound()
        // The page of the steps table's rows: garbage over its cells, its header left alone.
        try python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1]); page = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'steps_record_table'").fetchone()[0]
            size = db.execute("PRAGMA page_size").fetchone()[0]; db.close()
            with open(sys.argv[1], "r+b") as f:
                f.seek((page - 1) * size + 64); f.write(bytes((i * 37) % 256 for i in range(size - 128)))
            """, [path])
        try refused(path, saying: ["damaged"])
    }

    func testTriggerAndView() throws {
        let path = try sound()
        try python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TABLE loot (x)")
            db.execute("CREATE TRIGGER steal AFTER INSERT ON steps_record_table BEGIN INSERT INTO loot VALUES (new.count); END")
            db.execute("CREATE VIEW steps_view AS SELECT * FROM steps_record_table"); db.commit()
            """, [path])
        try refused(path, saying: ["a trigger 'steal'", "a view 'steps_view'", "never has"])
    }

    /// A gigabyte of text (SQLite's own ceiling is 10⁹ bytes) where the reader reads names: refused
    /// by the connection's value limit (16 MiB) before it is ever held in memory.
    func testAGigabyteValueInOneRow() throws {
        let path = try sound()
        try python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE application_info_table SET app_name = CAST(zeroblob(999999000) AS TEXT)"); db.commit()
            """, [path])
        try refused(path, saying: ["string or blob too big"])
    }

    func testSchemaVersionFromNowhere() throws {
        let path = try sound()
        try python("import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('PRAGMA user_version = 999'); db.commit()", [path])
        try refused(path, saying: ["schema version 999 is not one this reads"])
    }

    func testSomeOtherSQLiteDatabase() throws {
        let path = dir.appendingPathComponent("contacts.db").path
        try python("import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('CREATE TABLE people (name)'); db.commit()", [path])
        try refused(path, saying: ["a SQLite database, but not a Health Connect export"])
    }

    func testAZipOfTwoDatabases() throws {
        let one = try sound("a.db"), two = try sound("b.db")
        let zip = dir.appendingPathComponent("health_connect_export.zip").path
        try python("import zipfile, sys; z = zipfile.ZipFile(sys.argv[1], 'w'); z.write(sys.argv[2], 'a.db'); z.write(sys.argv[3], 'b.db'); z.close()",
                   [zip, one, two])
        try refused(zip, saying: ["holds 2 SQLite databases", "'a.db'", "'b.db'"])
    }

    func testAZipBomb() throws {
        let zip = dir.appendingPathComponent("health_connect_export.zip").path
        // A database header and then a gigabyte of zeros: about a megabyte compressed.
        try python("""
            import zipfile, sys
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                with z.open('health_connect_export.db', 'w', force_zip64=True) as f:
                    f.write(b'SQLite format 3\\x00'); block = bytes(1 << 20)
                    for _ in range(1024): f.write(block)
            """, [zip])
        try refused(zip, saying: ["health_connect_export.db"])
        XCTAssertFalse((try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out/.healthetl").path))
            .contains { $0.hasPrefix("health-connect-") }, "the unpacked copy is gone")
    }
}
