import Foundation
import XCTest
import TestSupport

/// Issue 45, item 6: messages that say what happened, once.
final class MessagesTests: XCTestCase {
    private let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path

    /// A truncated export.xml says it looks cut short (as a truncated zip does), and `status`
    /// after that failed first import shows the failure the run log holds.
    func testACutShortExportSaysSoAndStatusShowsTheFailedRun() throws {
        let dir = try temporaryFolder(self)
        let whole = try Data(contentsOf: URL(fileURLWithPath: sample))
        let cut = dir.appendingPathComponent("export.xml")
        try whole.prefix(whole.count / 3).write(to: cut)
        let out = dir.appendingPathComponent("out").path
        let run = try healthetl(["import", cut.path, "--out", out, "--timezone", "Europe/Berlin"])
        XCTAssertEqual(run.status, 65)
        XCTAssertTrue(run.stderr.contains("export.xml: the file looks cut short: it ends inside the document, at line "), run.stderr)
        XCTAssertTrue(run.stderr.contains("Export again from the Health app"), run.stderr)
        let status = try healthetl(["status", "--out", out])
        XCTAssertEqual(status.status, 66)
        XCTAssertTrue(status.stderr.contains("no store yet") && status.stderr.contains("holds failed imports:"), status.stderr)
        XCTAssertTrue(status.stderr.contains("failed \(cut.path): \(cut.path): the file looks cut short"), status.stderr)
        // Junk after a whole document is not "cut short".
        let junk = try write(#"<HealthData locale="en_US"><ExportDate value="2024-03-30 09:00:00 +0100"/></HealthData><junk/>"#,
                             to: "junk.xml", in: dir)
        let extra = try healthetl(["import", junk, "--out", dir.appendingPathComponent("junk-out").path])
        XCTAssertEqual(extra.status, 65)
        XCTAssertTrue(extra.stderr.contains("Extra content at the end of the document") && !extra.stderr.contains("cut short"),
                      extra.stderr)
    }

    /// `report --open` without a browser says so in one line and prints the page's path; an
    /// opener that fails is said in one line, not with its own errors.
    func testReportOpenWithoutABrowserSaysSoOnce() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try healthetl(["import", sample, "--out", out, "--timezone", "Europe/Berlin", "--quiet"]).status, 0)
        let page = out + "/report/index.html"
        let headless = try runProcess(TestPaths.binary, ["report", "--out", out, "--open"], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        XCTAssertEqual(headless.status, 0, headless.stderr)
        XCTAssertEqual(headless.stdout, page + "\n")
        XCTAssertEqual(headless.stderr, "healthetl: no browser to open here (no display); open \(page) in a browser\n")

        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let fake = try write("#!/bin/sh\necho 'xdg-open: no method available for opening' >&2\necho noise\nexit 3\n", to: "xdg-open", in: bin)
        chmod(fake, 0o755)
        let failing = try runProcess(TestPaths.binary, ["report", "--out", out, "--open"],
                                     environment: ["DISPLAY": ":99", "PATH": bin.path + ":/usr/bin:/bin"])
        XCTAssertEqual(failing.status, 0, failing.stderr)
        XCTAssertEqual(failing.stdout, page + "\n")
        XCTAssertEqual(failing.stderr, "healthetl: no browser could open it (xdg-open exited 3); open \(page) in a browser\n")
    }
}
