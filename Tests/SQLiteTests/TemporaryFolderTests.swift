import Foundation
import SQLite
import XCTest
import TestSupport

/// Issue 46, item 8: SQLite's temporary files (a sort or a temporary table larger than its
/// cache) go to the folder given, not to `/var/tmp`. SQLite unlinks each at once, so the test
/// finds them among the process's open descriptors (`/proc/self/fd`, "… (deleted)").
final class TemporaryFolderTests: XCTestCase {
    private func openTemporaryFiles() -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
            .filter { $0.contains("etilqs_") }
    }

    func testTemporaryFilesGoToTheFolderGiven() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/fd") else { throw XCTSkip("no /proc (Linux only)") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-temp-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer {
            try? Database.setTemporaryFolder("")   // back to SQLite's default for the other tests
            try? FileManager.default.removeItem(atPath: folder)
        }
        try Database.setTemporaryFolder(folder)
        XCTAssertEqual(try Database.temporaryFolder(), folder)
        let database = try Database(path: folder + "/db.sqlite", mode: .create)
        try database.execute("PRAGMA temp_store = FILE")
        try database.execute("PRAGMA cache_size = -64")   // 64 KiB: the table below spills
        try database.execute("CREATE TEMP TABLE spill(x BLOB)")
        try database.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO spill SELECT randomblob(200) FROM n")
        let open = openTemporaryFiles()
        XCTAssertFalse(open.isEmpty, "SQLite spilled the temporary table to a file")
        XCTAssertTrue(open.allSatisfy { $0.hasPrefix(folder + "/") }, "every temporary file in \(folder): \(open)")
        try Database.setTemporaryFolder("")
        XCTAssertNil(try Database.temporaryFolder())
    }
}
