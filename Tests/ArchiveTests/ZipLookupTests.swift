import Foundation
import Archive
import XCTest
import TestSupport

/// Issue 56: an archive's entries are found by index (a scan per lookup cost the square of the
/// files), and the index finds what the scans found, whatever the names.
final class ZipLookupTests: XCTestCase {
    /// Names that make lookups ambiguous: duplicates, a directory and a file of one name, Finder
    /// litter before the real file, a path at several depths, empty segments, a name in NFC and
    /// its lookup in NFD, a combining mark after a `/`, and a prepended grapheme that joins a `/`
    /// (so `hasSuffix` fails where the segments agree).
    private static let names = [
        "apple_health_export/", "apple_health_export/workout-routes/", "apple_health_export/workout-routes/a.gpx",
        "__MACOSX/z/workout-routes/b.gpx", "q/workout-routes/._b.gpx", "q/workout-routes/b.gpx", "p/workout-routes/b.gpx",
        "workout-routes/c.gpx", "/workout-routes/d.gpx", "a//workout-routes/e.gpx", "dup.gpx", "x/dup.gpx", "dup.gpx",
        "r/caf\u{E9}.gpx", "x\u{0600}/workout-routes/f.gpx", "y/workout-routes/f.gpx", "q/\u{301}g.gpx",
        "dir.gpx/", "dir.gpx", "deep/a/b/c/d/e.gpx",
    ]

    private static let paths = [
        "workout-routes/a.gpx", "workout-routes/b.gpx", "b.gpx", "._b.gpx", "c.gpx", "workout-routes/c.gpx",
        "workout-routes/d.gpx", "workout-routes/e.gpx", "/workout-routes/e.gpx", "cafe\u{301}.gpx", "caf\u{E9}.gpx",
        "workout-routes/f.gpx", "\u{301}g.gpx", "g.gpx", "dup.gpx", "dir.gpx", "", "missing.gpx", "a/b/c/d/e.gpx",
        "e.gpx", "deep/a/b/c/d/e.gpx",
    ]

    func testLookupsFindWhatAScanFinds() throws {
        let path = try temporaryFolder(self).appendingPathComponent("names.zip").path
        let script = """
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                for name in json.loads(sys.argv[2]): z.writestr(zipfile.ZipInfo(name), b'')
            """
        let names = String(decoding: try JSONSerialization.data(withJSONObject: Self.names), as: UTF8.self)
        let made = try runProcess("/usr/bin/env", ["python3", "-c", script, path, names])
        XCTAssertEqual(made.status, 0, made.stderr)
        let archive = try ZipArchive(path: path)
        let entries = archive.entries
        XCTAssertEqual(entries.map(\.name), Self.names)
        func index(_ entry: ZipArchive.Entry?) -> Int? {
            entry.map { found in entries.firstIndex { $0.localHeaderOffset == found.localHeaderOffset }! }
        }
        for name in Self.names + Self.paths + ["apple_health_export/workout-routes/caf\u{E9}.gpx", "r/cafe\u{301}.gpx"] {
            XCTAssertEqual(index(archive.entry(named: name)), entries.firstIndex { $0.name == name }, name)
            XCTAssertEqual(index(archive.fileEntry(named: name)), entries.firstIndex { $0.name == name && !$0.isDirectory }, name)
        }
        for path in Self.paths + Self.paths {   // twice: the second answer is the remembered one
            XCTAssertEqual(index(archive.entry(endingWith: path)),
                           entries.firstIndex { !$0.isJunk && $0.name.hasSuffix("/" + path) }, path)
        }
        // The cases the names are there for, spelled out.
        XCTAssertEqual(archive.entry(endingWith: "workout-routes/b.gpx")?.name, "q/workout-routes/b.gpx")
        XCTAssertEqual(archive.entry(endingWith: "workout-routes/f.gpx")?.name, "y/workout-routes/f.gpx")
        XCTAssertEqual(archive.entry(endingWith: "cafe\u{301}.gpx")?.name, "r/caf\u{E9}.gpx")
        XCTAssertEqual(archive.fileEntry(named: "dir.gpx")?.name, "dir.gpx")
        XCTAssertEqual(index(archive.entry(named: "dup.gpx")), 10)
    }
}
