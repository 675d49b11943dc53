import Foundation
import Archive
import XCTest
import TestSupport

/// Issue 56: the zip-bomb bounds hold on every read. The check once began at 64 MiB of one
/// entry, so entries under it (every clinical file, ECG and route) inflated without limit.
final class ZipBombTests: XCTestCase {
    /// A zip written by Python's `zipfile` from `body` (with `z` open on it), in a fresh folder.
    private func zip(_ body: String) throws -> ZipArchive {
        let path = try temporaryFolder(self).appendingPathComponent("bomb.zip").path
        let script = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n    " + body + "\n"
        let made = try runProcess("/usr/bin/env", ["python3", "-c", script, path])
        XCTAssertEqual(made.status, 0, made.stderr)
        return try ZipArchive(path: path)
    }

    /// Reads `entries` of `archive` in turn until one throws; the bytes delivered and the error.
    private func readAll(_ archive: ZipArchive, _ entries: [ZipArchive.Entry]) -> (bytes: Int, error: ArchiveError?) {
        var bytes = 0
        do {
            for entry in entries { try archive.read(entry, chunkSize: 64 << 10) { bytes += $0.count } }
        } catch {
            return (bytes, error as? ArchiveError)
        }
        return (bytes, nil)
    }

    func testAnEntryUnderTheOldFloorIsJudgedPast64KiB() throws {
        // 1 MiB of zeros: about 1,000 bytes of deflate.
        let archive = try zip("z.writestr('clinical-records/zeros.json', bytes(1 << 20))")
        let (bytes, error) = readAll(archive, archive.entries)
        XCTAssertEqual(error?.exitCode, 65, "\(String(describing: error))")
        XCTAssertTrue(error?.description.contains("entry 'clinical-records/zeros.json' inflates more than 500 times") == true,
                      "\(String(describing: error))")
        XCTAssertTrue(error?.description.contains("refused as a zip bomb") == true)
        XCTAssertLessThanOrEqual(bytes, 2 * 64 << 10, "stopped after the chunk past 64 KiB")
    }

    /// 2,000 entries of 60,000 zero bytes, each under the entry's floor, 120 MB in about 0.4 MB:
    /// the archive's bound stops the reads at 64 MiB. A real export (its CDA copy inflates 65
    /// times) reads whole, twice over: an import reads its XML up to twice.
    func testTheArchivesBoundStopsManySmallEntriesNotARealExport() throws {
        let archive = try zip("for i in range(2000): z.writestr(f'clinical-records/{i:04d}.json', bytes(60000))")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int)
        let limit = max(64 << 20, 200 * size)
        let (bytes, error) = readAll(archive, archive.entries)
        XCTAssertEqual(error?.exitCode, 65, "\(String(describing: error))")
        XCTAssertTrue(error?.description.contains("more than 200 times the archive's \(size) bytes") == true,
                      "\(String(describing: error))")
        XCTAssertTrue(error?.description.contains("refused as a zip bomb") == true)
        XCTAssertGreaterThan(bytes, limit - 60_000, "the bound is the archive's, not less")
        XCTAssertLessThanOrEqual(bytes, limit)

        let path = TestPaths.shared.appendingPathComponent("realexports/bwassim__Health-Data-Analysis/export.zip").path
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("missing fixture \(path)") }
        let real = try ZipArchive(path: path)
        let twice = readAll(real, real.entries + real.entries)
        XCTAssertNil(twice.error)
        XCTAssertEqual(twice.bytes, 2 * Int(real.entries.reduce(0) { $0 + $1.uncompressedSize }))
    }

    /// Reading one small entry again and again counts each time: the bound is on the work.
    func testRereadingAnEntryCountsEveryRead() throws {
        let archive = try zip("z.writestr('route.gpx', bytes(60000))")
        let entry = try XCTUnwrap(archive.entries.first)
        let (bytes, error) = readAll(archive, Array(repeating: entry, count: 2_000))
        XCTAssertEqual(error?.exitCode, 65, "\(String(describing: error))")
        XCTAssertLessThanOrEqual(bytes, 64 << 20)
    }
}
