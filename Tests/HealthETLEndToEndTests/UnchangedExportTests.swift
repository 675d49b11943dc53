import XCTest
import SQLite
import TestSupport

/// A run over the export the last run published (a nightly cron job before the person exports
/// again) reads nothing and rewrites nothing; anything that could change what a run writes
/// makes it a normal run.
final class UnchangedExportTests: XCTestCase {
    private func modified(_ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }

    private func runLogLines(_ out: String) throws -> Int {
        try String(contentsOfFile: out + "/.healthetl/runs.log", encoding: .utf8).split(separator: "\n").count
    }

    private func export(_ dir: URL, layout: String = "xml") throws -> String {
        let path = dir.appendingPathComponent(layout == "zip" ? "export.zip" : layout == "folder" ? "export" : "export.xml").path
        try generateExport(["--out", path, "--days", "6", "--start", "2024-03-01", "--seed", "5", "--layout", layout])
        return path
    }

    func testTheSameExportAgainReadsNothingAndRewritesNothing() throws {
        let dir = try temporaryFolder(self)
        let xml = try export(dir), out = dir.appendingPathComponent("out").path
        let first = try importJSON(xml, out)
        XCTAssertEqual(first["mode"] as? String, "full")
        let store = out + "/health.sqlite", report = out + "/report/index.html"
        let (storeBefore, reportBefore) = (try modified(store), try modified(report))
        let days = try query(store, "SELECT count(*) FROM daily_analytics")

        let again = try importJSON(xml, out)
        XCTAssertEqual(again["mode"] as? String, "unchanged")
        XCTAssertEqual(again["records_read"] as? Int, 0)
        XCTAssertEqual(again["outputs_written"] as? [String], [])
        XCTAssertEqual(again["store_days"] as? Int, Int(days[0]))
        XCTAssertEqual(try modified(store), storeBefore)
        XCTAssertEqual(try modified(report), reportBefore)
        XCTAssertEqual(try query(store, "SELECT count(*) FROM runs"), ["1"], "the store's history keeps the runs that read")
        XCTAssertEqual(try runLogLines(out), 2, "the run log keeps every run")

        let status = try healthetl(["status", "--out", out])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("then 1 run that found nothing new"), status.stdout)

        let text = try healthetl(["import", xml, "--out", out, "--timezone", "Europe/Berlin"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stderr.hasPrefix("Nothing new in \(xml)"), text.stderr)
        XCTAssertTrue(text.stderr.contains("unchanged: \(out)/csv, \(out)/parquet, \(out)/report/index.html, \(out)/health.xlsx"),
                      text.stderr)

        XCTAssertEqual(try importJSON(xml, out, ["--full"])["mode"] as? String, "full", "--full reads it anyway")
    }

    func testAnythingThatCouldChangeTheOutputsMakesANormalRun() throws {
        let dir = try temporaryFolder(self)
        let xml = try export(dir), out = dir.appendingPathComponent("out").path
        _ = try importJSON(xml, out)
        XCTAssertEqual(try importJSON(xml, out)["mode"] as? String, "unchanged")

        // An output the person deleted is written again.
        try FileManager.default.removeItem(atPath: out + "/report/index.html")
        let restored = try importJSON(xml, out)
        XCTAssertEqual(restored["mode"] as? String, "incremental")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/report/index.html"))
        XCTAssertEqual(try importJSON(xml, out)["mode"] as? String, "unchanged")

        // Another zone is another job.
        let moved = try importJSON(xml, out, zone: "Asia/Tokyo")
        XCTAssertNotEqual(moved["mode"] as? String, "unchanged")
        XCTAssertEqual(try importJSON(xml, out, zone: "Asia/Tokyo")["mode"] as? String, "unchanged")

        // The store written since it was published (by anyone) is checked and read against.
        do {
            let db = try Database(path: out + "/health.sqlite", mode: .readWrite)
            try db.execute("CREATE TABLE scratch (a); DROP TABLE scratch")
        }
        XCTAssertEqual(try importJSON(xml, out, zone: "Asia/Tokyo")["mode"] as? String, "incremental")

        // The same bytes in a file of another time are read (the anchors skip them), and
        // found to hold nothing new (`NothingNewTests`).
        let touched = Date().addingTimeInterval(-3600)
        try FileManager.default.setAttributes([.modificationDate: touched], ofItemAtPath: xml)
        let reread = try importJSON(xml, out, zone: "Asia/Tokyo")
        XCTAssertEqual(reread["mode"] as? String, "nothing-new")
        XCTAssertGreaterThan(reread["skipped_by_anchor"] as? Int ?? 0, 0)
        XCTAssertEqual(reread["new_samples"] as? Int, 0)
    }

    func testAZipAndAFolderAreRecognizedAndAFolderWatchesItsRouteFiles() throws {
        let dir = try temporaryFolder(self)
        let zip = try export(dir, layout: "zip"), zipOut = dir.appendingPathComponent("zip-out").path
        _ = try importJSON(zip, zipOut)
        XCTAssertEqual(try importJSON(zip, zipOut)["mode"] as? String, "unchanged")

        let folder = try export(dir, layout: "folder"), folderOut = dir.appendingPathComponent("folder-out").path
        _ = try importJSON(folder, folderOut)
        XCTAssertEqual(try importJSON(folder, folderOut)["mode"] as? String, "unchanged")
        let routes = try XCTUnwrap(FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }
            .first { $0.hasSuffix(".gpx") }, "the generated folder holds route files")
        let route = (folder as NSString).appendingPathComponent(routes)
        try FileManager.default.copyItem(atPath: route, toPath: (route as NSString).deletingLastPathComponent + "/added.gpx")
        // A new route file beside the XML: the export is read again (no workout names it: nothing new).
        let reread = try importJSON(folder, folderOut)
        XCTAssertEqual(reread["mode"] as? String, "nothing-new", "\(reread)")
        XCTAssertGreaterThan(reread["elements"] as? Int ?? 0, 0, "\(reread)")
    }
}
