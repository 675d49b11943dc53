import Foundation
import Archive
import XCTest
import TestSupport

/// Tests for the streaming ZIP reader. Archives are written by Python's `zipfile` so that the
/// reader is checked against an independent writer (stored, deflated, data descriptors, ZIP64).
final class ZipArchiveTests: XCTestCase {
    // MARK: - Fixtures

    /// Shared read-only fixtures live next to the package: `../shared`.
    private static let sharedDir = TestPaths.shared

    private var tmp: URL!

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory
            .appendingPathComponent("ZipArchiveTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let tmp { try? FileManager.default.removeItem(at: tmp) }
    }

    /// Runs `script` with the tests' Python (TestTools.python), the temp directory as `sys.argv[1]`.
    private func python(_ script: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try runProcess(try TestTools.python(), ["-c", script, tmp.path])
        guard result.status == 0 else {
            XCTFail("python failed (\(result.status)):\n\(result.stderr)", file: file, line: line)
            throw CancellationError()
        }
    }

    private func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    private func bytes(ofFile path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func readAll(_ archive: ZipArchive, _ entry: ZipArchive.Entry, chunkSize: Int = 1 << 20) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Int(entry.uncompressedSize))
        try archive.read(entry, chunkSize: chunkSize) { out.append(contentsOf: $0) }
        return out
    }

    private func entry(_ archive: ZipArchive, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> ZipArchive.Entry {
        try XCTUnwrap(archive.entry(named: name), "no entry \(name) in \(archive.entries.map(\.name))", file: file, line: line)
    }

    /// Asserts that `body` throws an unusable-archive `ArchiveError` whose message contains all of `fragments`.
    private func assertUnusable(_ fragments: [String], file: StaticString = #filePath, line: UInt = #line,
                                _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let archiveError = error as? ArchiveError, archiveError.kind == .unusable else {
                return XCTFail("expected .unusable, got \(error)", file: file, line: line)
            }
            let message = archiveError.description
            for fragment in fragments {
                XCTAssertTrue(message.contains(fragment), "message \"\(message)\" lacks \"\(fragment)\"", file: file, line: line)
            }
        }
    }

    /// Python snippet defining `big`: ~5 MB of Health-export-like text, deterministic.
    private static let bigTextPython = #"""
    import random
    r = random.Random(20240601)
    types = ['HKQuantityTypeIdentifierHeartRate', 'HKQuantityTypeIdentifierStepCount',
             'HKQuantityTypeIdentifierActiveEnergyBurned', 'HKCategoryTypeIdentifierSleepAnalysis']
    parts = []
    size = 0
    while size < 5_000_000:
        s = ('<Record type="%s" sourceName="Watch %d" unit="count/min" value="%.3f" '
             'startDate="2024-%02d-%02d %02d:%02d:%02d +0200" id="%016x"/>\n') % (
            r.choice(types), r.randint(1, 9), r.random() * 200, r.randint(1, 12), r.randint(1, 28),
            r.randint(0, 23), r.randint(0, 59), r.randint(0, 59), r.getrandbits(64))
        parts.append(s)
        size += len(s)
    big = ''.join(parts).encode()
    """#

    // MARK: - Basic archives

    func testStoredDeflatedUTF8NamesDirectoriesAndJunk() throws {
        try python(#"""
        import sys, zipfile, os
        d = sys.argv[1]
        with zipfile.ZipFile(os.path.join(d, 'a.zip'), 'w') as zf:
            zf.writestr(zipfile.ZipInfo('apple_health_export/'), b'')
            zf.writestr('apple_health_export/stored.txt', b'hello stored\n', compress_type=zipfile.ZIP_STORED)
            zf.writestr('apple_health_export/deflated.txt', b'hello deflated ' * 1000, compress_type=zipfile.ZIP_DEFLATED)
            zf.writestr('apple_health_export/导出.xml', '<?xml version="1.0"?>\n<HealthData locale="zh_CN">导出</HealthData>\n'.encode(), compress_type=zipfile.ZIP_DEFLATED)
            zf.writestr('apple_health_export/empty.txt', b'', compress_type=zipfile.ZIP_DEFLATED)
            zf.writestr('__MACOSX/apple_health_export/._导出.xml', b'\x00\x05\x16\x07appledouble', compress_type=zipfile.ZIP_DEFLATED)
            zf.writestr('apple_health_export/._stray', b'x', compress_type=zipfile.ZIP_STORED)
        """#)
        let archive = try ZipArchive(path: path("a.zip"))
        XCTAssertEqual(archive.entries.map(\.name), [
            "apple_health_export/",
            "apple_health_export/stored.txt",
            "apple_health_export/deflated.txt",
            "apple_health_export/导出.xml",
            "apple_health_export/empty.txt",
            "__MACOSX/apple_health_export/._导出.xml",
            "apple_health_export/._stray",
        ])
        XCTAssertEqual(archive.entries.map(\.isDirectory), [true, false, false, false, false, false, false])
        XCTAssertEqual(archive.entries.map(\.isJunk), [false, false, false, false, false, true, true])

        let stored = try entry(archive, "apple_health_export/stored.txt")
        XCTAssertEqual(stored.method, 0)
        XCTAssertEqual(stored.uncompressedSize, 13)
        XCTAssertEqual(stored.compressedSize, 13)
        XCTAssertEqual(try readAll(archive, stored), Array("hello stored\n".utf8))

        let deflated = try entry(archive, "apple_health_export/deflated.txt")
        XCTAssertEqual(deflated.method, 8)
        XCTAssertEqual(deflated.uncompressedSize, 15_000)
        XCTAssertLessThan(deflated.compressedSize, 1_000)
        XCTAssertEqual(try readAll(archive, deflated), Array(String(repeating: "hello deflated ", count: 1000).utf8))
        XCTAssertEqual(try readAll(archive, deflated, chunkSize: 7), Array(String(repeating: "hello deflated ", count: 1000).utf8))

        let chinese = try entry(archive, "apple_health_export/导出.xml")
        XCTAssertNotEqual(chinese.flags & 0x0800, 0, "python sets the UTF-8 flag for non-ASCII names")
        XCTAssertEqual(chinese.baseName, "导出.xml")
        XCTAssertEqual(String(decoding: try readAll(archive, chinese), as: UTF8.self),
                       "<?xml version=\"1.0\"?>\n<HealthData locale=\"zh_CN\">导出</HealthData>\n")

        XCTAssertEqual(try readAll(archive, try entry(archive, "apple_health_export/empty.txt")), [])
        XCTAssertEqual(try readAll(archive, try entry(archive, "apple_health_export/")), [])
        XCTAssertEqual(archive.entries[0].baseName, "apple_health_export")
    }

    func testCP437NameWithoutUTF8Flag() throws {
        // Python always flags non-ASCII names as UTF-8, so patch an ASCII name into CP437 bytes:
        // 0x82 is "é" in code page 437 (and invalid as UTF-8).
        try python(#"""
        import sys, zipfile, os
        d = sys.argv[1]
        p = os.path.join(d, 'cp437.zip')
        with zipfile.ZipFile(p, 'w') as zf:
            zf.writestr('cafX.txt', b'latte', compress_type=zipfile.ZIP_DEFLATED)
        data = open(p, 'rb').read()
        assert data.count(b'cafX') == 2
        open(p, 'wb').write(data.replace(b'cafX', b'caf\x82'))
        """#)
        let archive = try ZipArchive(path: path("cp437.zip"))
        XCTAssertEqual(archive.entries.map(\.name), ["café.txt"])
        XCTAssertEqual(try readAll(archive, archive.entries[0]), Array("latte".utf8))
    }

    func testArchiveCommentAndPrependedBytes() throws {
        try python(#"""
        import sys, zipfile, os
        d = sys.argv[1]
        p = os.path.join(d, 'c.zip')
        with zipfile.ZipFile(p, 'w', compression=zipfile.ZIP_DEFLATED) as zf:
            zf.comment = b'exported by a test ' * 100
            zf.writestr('one.txt', b'first entry ' * 50)
            zf.writestr('two.txt', b'second entry ' * 50)
        # Self-extractor style: bytes before the archive; offsets in the zip stay unadjusted.
        open(os.path.join(d, 'prepended.zip'), 'wb').write(b'#!/bin/sh\nexit 0\n' + b'\0' * 1000 + open(p, 'rb').read())
        """#)
        for name in ["c.zip", "prepended.zip"] {
            let archive = try ZipArchive(path: path(name))
            XCTAssertEqual(archive.entries.map(\.name), ["one.txt", "two.txt"], name)
            XCTAssertEqual(try readAll(archive, try entry(archive, "one.txt")), Array(String(repeating: "first entry ", count: 50).utf8))
            XCTAssertEqual(try readAll(archive, try entry(archive, "two.txt")), Array(String(repeating: "second entry ", count: 50).utf8))
        }
    }

    // MARK: - Large content, chunking, progress, prefix

    func testLargeEntriesStreamInChunksByteForByte() throws {
        try python(Self.bigTextPython + #"""

        import sys, zipfile, os
        d = sys.argv[1]
        open(os.path.join(d, 'big.txt'), 'wb').write(big)
        with zipfile.ZipFile(os.path.join(d, 'big.zip'), 'w') as zf:
            zf.writestr('apple_health_export/export.xml', big, compress_type=zipfile.ZIP_DEFLATED)
            zf.writestr('apple_health_export/stored.xml', big, compress_type=zipfile.ZIP_STORED)
        """#)
        let expected = try bytes(ofFile: path("big.txt"))
        XCTAssertGreaterThan(expected.count, 5_000_000)
        let archive = try ZipArchive(path: path("big.zip"))
        for name in ["apple_health_export/export.xml", "apple_health_export/stored.xml"] {
            let e = try entry(archive, name)
            XCTAssertEqual(e.uncompressedSize, UInt64(expected.count))
            for chunkSize in [1 << 20, 65_536, 100_003] {
                var out: [UInt8] = []
                out.reserveCapacity(expected.count)
                var calls = 0
                var progress: [Int64] = []
                try archive.read(e, chunkSize: chunkSize, compressedProgress: { progress.append($0) }) { chunk in
                    XCTAssertLessThanOrEqual(chunk.count, chunkSize)
                    XCTAssertGreaterThan(chunk.count, 0)
                    calls += 1
                    out.append(contentsOf: chunk)
                }
                XCTAssertTrue(out == expected, "\(name) chunk \(chunkSize): content differs")
                XCTAssertGreaterThanOrEqual(calls, expected.count / chunkSize, "\(name) chunk \(chunkSize)")
                XCTAssertEqual(progress.last, Int64(e.compressedSize), "\(name): progress ends at the compressed size")
                XCTAssertEqual(progress, progress.sorted(), "\(name): progress is cumulative")
                XCTAssertGreaterThanOrEqual(UInt64(progress.count), e.compressedSize / UInt64(chunkSize), "\(name): one report per read")
            }
        }
    }

    func testReadPrefix() throws {
        try python(Self.bigTextPython + #"""

        import sys, zipfile, os
        d = sys.argv[1]
        open(os.path.join(d, 'big.txt'), 'wb').write(big)
        with zipfile.ZipFile(os.path.join(d, 'p.zip'), 'w') as zf:
            zf.writestr('big.xml', big, compress_type=zipfile.ZIP_DEFLATED)
            zf.writestr('big-stored.xml', big, compress_type=zipfile.ZIP_STORED)
            zf.writestr('small.xml', b'<HealthData/>', compress_type=zipfile.ZIP_DEFLATED)
        """#)
        let expected = try bytes(ofFile: path("big.txt"))
        let archive = try ZipArchive(path: path("p.zip"))
        for name in ["big.xml", "big-stored.xml"] {
            let e = try entry(archive, name)
            XCTAssertEqual(try archive.readPrefix(e, maxBytes: 100), Array(expected[0..<100]))
            XCTAssertEqual(try archive.readPrefix(e, maxBytes: 3_000_000), Array(expected[0..<3_000_000]))
            XCTAssertEqual(try archive.readPrefix(e, maxBytes: 0), [])
        }
        let small = try entry(archive, "small.xml")
        XCTAssertEqual(try archive.readPrefix(small, maxBytes: 4096), Array("<HealthData/>".utf8))
    }

    // MARK: - Data descriptors and ZIP64

    func testDataDescriptorEntriesFromNonSeekableStream() throws {
        try python(Self.bigTextPython + #"""

        import sys, zipfile, os
        d = sys.argv[1]
        class Unseekable:
            def __init__(self, f): self.f = f
            def write(self, b): return self.f.write(b)
            def flush(self): self.f.flush()
        open(os.path.join(d, 'big.txt'), 'wb').write(big)
        with open(os.path.join(d, 'dd.zip'), 'wb') as raw:
            with zipfile.ZipFile(Unseekable(raw), 'w') as zf:
                with zf.open(zipfile.ZipInfo('apple_health_export/export.xml'), 'w') as w:
                    for i in range(0, len(big), 300_000):
                        w.write(big[i:i + 300_000])
                zi = zipfile.ZipInfo('apple_health_export/stored.txt')
                zi.compress_type = zipfile.ZIP_STORED
                with zf.open(zi, 'w') as w:
                    w.write(b'stored with a data descriptor\n')
                zi = zipfile.ZipInfo('apple_health_export/deflated.txt')
                zi.compress_type = zipfile.ZIP_DEFLATED
                with zf.open(zi, 'w') as w:
                    w.write(b'deflated with a data descriptor\n' * 10)
        """#)
        let archive = try ZipArchive(path: path("dd.zip"))
        XCTAssertEqual(archive.entries.count, 3)
        for e in archive.entries {
            XCTAssertNotEqual(e.flags & 0x0008, 0, "\(e.name) should use a data descriptor")
        }
        XCTAssertTrue(try readAll(archive, try entry(archive, "apple_health_export/export.xml")) == (try bytes(ofFile: path("big.txt"))))
        XCTAssertEqual(try readAll(archive, try entry(archive, "apple_health_export/stored.txt")),
                       Array("stored with a data descriptor\n".utf8))
        XCTAssertEqual(try readAll(archive, try entry(archive, "apple_health_export/deflated.txt")),
                       Array(String(repeating: "deflated with a data descriptor\n", count: 10).utf8))
    }

    func testForcedZip64LocalHeaders() throws {
        try python(Self.bigTextPython + #"""

        import sys, zipfile, os
        d = sys.argv[1]
        open(os.path.join(d, 'big.txt'), 'wb').write(big)
        with zipfile.ZipFile(os.path.join(d, 'z64local.zip'), 'w', allowZip64=True) as zf:
            zi = zipfile.ZipInfo('apple_health_export/export.xml')
            zi.compress_type = zipfile.ZIP_DEFLATED
            with zf.open(zi, 'w', force_zip64=True) as w:
                w.write(big)
            zi = zipfile.ZipInfo('apple_health_export/stored.txt')
            zi.compress_type = zipfile.ZIP_STORED
            with zf.open(zi, 'w', force_zip64=True) as w:
                w.write(b'zip64 local header')
        """#)
        let archive = try ZipArchive(path: path("z64local.zip"))
        XCTAssertTrue(try readAll(archive, try entry(archive, "apple_health_export/export.xml")) == (try bytes(ofFile: path("big.txt"))))
        XCTAssertEqual(try readAll(archive, try entry(archive, "apple_health_export/stored.txt")), Array("zip64 local header".utf8))
    }

    func testZip64CentralDirectoryAndEndRecord() throws {
        // Real ZIP64 structures need > 4 GiB; lowering zipfile's limits makes Python write them
        // (central ZIP64 extra fields with 0xFFFFFFFF placeholders, ZIP64 end record and
        // locator) for small files, exactly as it would for large ones.
        try python(Self.bigTextPython + #"""

        import sys, zipfile, os, struct
        d = sys.argv[1]
        zipfile.ZIP64_LIMIT = 4096
        zipfile.ZIP_FILECOUNT_LIMIT = 2
        open(os.path.join(d, 'big.txt'), 'wb').write(big)
        p = os.path.join(d, 'z64.zip')
        with zipfile.ZipFile(p, 'w', allowZip64=True) as zf:
            zf.writestr('a.txt', b'a' * 10000, compress_type=zipfile.ZIP_STORED)
            zf.writestr('apple_health_export/export.xml', big, compress_type=zipfile.ZIP_DEFLATED)
            zf.writestr('small.txt', b'small', compress_type=zipfile.ZIP_STORED)
            zf.writestr('last.txt', b'last ' * 2000, compress_type=zipfile.ZIP_DEFLATED)
        data = bytearray(open(p, 'rb').read())
        assert b'PK\x06\x06' in data and b'PK\x06\x07' in data, 'no zip64 end record'
        # Python keeps the real (small) values in the classic end record; a writer of a real
        # > 4 GiB archive stores placeholders there, so do the same to force the ZIP64 path.
        eocd = data.rindex(b'PK\x05\x06')
        data[eocd + 8:eocd + 20] = struct.pack('<HHII', 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF)
        z64 = data.rindex(b'PK\x06\x06')
        i = struct.unpack('<Q', data[z64 + 48:z64 + 56])[0]
        placeholders = 0
        while data[i:i + 4] == b'PK\x01\x02':
            csize, usize = struct.unpack('<II', data[i + 20:i + 28])
            n, m, k = struct.unpack('<HHH', data[i + 28:i + 34])
            off = struct.unpack('<I', data[i + 42:i + 46])[0]
            placeholders += (csize == 0xFFFFFFFF) + (usize == 0xFFFFFFFF) + (off == 0xFFFFFFFF)
            i += 46 + n + m + k
        assert placeholders == 9, 'expected ZIP64 placeholders in the central directory, got %d' % placeholders
        open(p, 'wb').write(bytes(data))
        """#)
        let archive = try ZipArchive(path: path("z64.zip"))
        XCTAssertEqual(archive.entries.map(\.name), ["a.txt", "apple_health_export/export.xml", "small.txt", "last.txt"])
        let expected = try bytes(ofFile: path("big.txt"))
        let export = try entry(archive, "apple_health_export/export.xml")
        XCTAssertEqual(export.uncompressedSize, UInt64(expected.count))
        XCTAssertEqual(export.localHeaderOffset, 30 + 5 + 20 + 10_000, "offset after a.txt (with its ZIP64 local extra)")
        XCTAssertTrue(try readAll(archive, export) == expected)
        XCTAssertEqual(try readAll(archive, try entry(archive, "a.txt")), [UInt8](repeating: UInt8(ascii: "a"), count: 10_000))
        XCTAssertEqual(try readAll(archive, try entry(archive, "small.txt")), Array("small".utf8))
        XCTAssertEqual(try readAll(archive, try entry(archive, "last.txt")), Array(String(repeating: "last ", count: 2000).utf8))
    }

    // MARK: - Damaged and foreign input

    func testCorruptedDeflateDataThrowsInsteadOfCrashing() throws {
        try python(Self.bigTextPython + #"""

        import sys, zipfile, os
        d = sys.argv[1]
        with zipfile.ZipFile(os.path.join(d, 'good.zip'), 'w') as zf:
            zf.writestr('apple_health_export/export.xml', big, compress_type=zipfile.ZIP_DEFLATED)
            zf.writestr('tiny.txt', b'tiny', compress_type=zipfile.ZIP_STORED)
        """#)
        let good = try bytes(ofFile: path("good.zip"))
        let export = try entry(try ZipArchive(path: path("good.zip")), "apple_health_export/export.xml")
        let dataStart = Int(export.localHeaderOffset) + 30 + "apple_health_export/export.xml".utf8.count
        let size = Int(export.compressedSize)
        // Damage single bytes at several places inside the compressed data.
        for (i, fraction) in [0.01, 0.25, 0.5, 0.75, 0.97].enumerated() {
            var damaged = good
            let at = dataStart + Int(Double(size) * fraction)
            damaged[at] ^= 0x5A
            let file = path("damaged-\(i).zip")
            try Data(damaged).write(to: URL(fileURLWithPath: file))
            let archive = try ZipArchive(path: file)
            assertUnusable([file, "apple_health_export/export.xml"]) {
                try archive.read(try self.entry(archive, "apple_health_export/export.xml")) { _ in }
            }
            // The other entry is unaffected.
            XCTAssertEqual(try readAll(archive, try entry(archive, "tiny.txt")), Array("tiny".utf8))
        }
    }

    func testCorruptedStoredDataIsACRCMismatch() throws {
        try python(#"""
        import sys, zipfile, os
        d = sys.argv[1]
        p = os.path.join(d, 's.zip')
        with zipfile.ZipFile(p, 'w') as zf:
            zf.writestr('data.txt', b'0123456789' * 100, compress_type=zipfile.ZIP_STORED)
        b = bytearray(open(p, 'rb').read())
        i = b.index(b'0123456789') + 500
        b[i] = ord('X')
        open(p, 'wb').write(bytes(b))
        """#)
        let file = path("s.zip")
        let archive = try ZipArchive(path: file)
        assertUnusable([file, "data.txt", "CRC-32 mismatch"]) {
            try archive.read(archive.entries[0]) { _ in }
        }
    }

    func testBadLocalHeaderAndUnsupportedMethod() throws {
        try python(#"""
        import sys, zipfile, os
        d = sys.argv[1]
        p = os.path.join(d, 'lh.zip')
        with zipfile.ZipFile(p, 'w') as zf:
            zf.writestr('first.txt', b'first', compress_type=zipfile.ZIP_STORED)
            zf.writestr('second.txt', b'second', compress_type=zipfile.ZIP_STORED)
        b = bytearray(open(p, 'rb').read())
        second = b.index(b'PK\x03\x04', 4)
        b[second:second + 4] = b'XXXX'
        open(p, 'wb').write(bytes(b))
        with zipfile.ZipFile(os.path.join(d, 'bz.zip'), 'w') as zf:
            zf.writestr('compressed.bz2.txt', b'bzip2 ' * 100, compress_type=zipfile.ZIP_BZIP2)
        """#)
        let file = path("lh.zip")
        let archive = try ZipArchive(path: file)
        XCTAssertEqual(try readAll(archive, try entry(archive, "first.txt")), Array("first".utf8))
        assertUnusable([file, "second.txt", "local header"]) {
            try archive.read(try self.entry(archive, "second.txt")) { _ in }
        }

        let bzFile = path("bz.zip")
        let bz = try ZipArchive(path: bzFile)
        XCTAssertEqual(bz.entries.map(\.method), [12])
        assertUnusable([bzFile, "compressed.bz2.txt", "unsupported compression method 12"]) {
            try bz.read(bz.entries[0]) { _ in }
        }
    }

    func testTruncatedArchives() throws {
        try python(Self.bigTextPython + #"""

        import sys, zipfile, os
        d = sys.argv[1]
        p = os.path.join(d, 'full.zip')
        with zipfile.ZipFile(p, 'w') as zf:
            zf.writestr('apple_health_export/export.xml', big, compress_type=zipfile.ZIP_DEFLATED)
        data = open(p, 'rb').read()
        open(os.path.join(d, 'half.zip'), 'wb').write(data[:len(data) // 2])
        open(os.path.join(d, 'short.zip'), 'wb').write(data[:-10])
        open(os.path.join(d, 'headeronly.zip'), 'wb').write(data[:20])
        """#)
        for name in ["half.zip", "short.zip", "headeronly.zip"] {
            assertUnusable([path(name), "truncated"]) { _ = try ZipArchive(path: self.path(name)) }
        }
    }

    /// A ZIP64 locator whose record offset is near 2^64 is a damaged archive, not an overflow
    /// trap (the input the fuzz target `zip` replays: `.build/debug/fuzz-zip FILE`).
    func testZip64LocatorWithAnOffsetNearTheEndOfUInt64() throws {
        var bytes = [UInt8](repeating: 0x78, count: 100)
        func le(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        bytes += le(0x0706_4b50, 4) + le(0, 4) + le(0xFFFF_FFFF_FFFF_FFF0, 8) + le(1, 4)   // ZIP64 locator
        bytes += le(0x0605_4b50, 4) + [UInt8](repeating: 0, count: 18)                       // empty end record
        let file = path("zip64-offset.zip")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        assertUnusable([file, "ZIP64 end-of-central-directory record not found"]) { _ = try ZipArchive(path: file) }
    }

    func testNotAZipEmptyMissingAndDirectory() throws {
        let text = path("export.xml")
        try Data("<?xml version=\"1.0\"?><HealthData/>\n".utf8).write(to: URL(fileURLWithPath: text))
        assertUnusable([text, "not a ZIP archive"]) { _ = try ZipArchive(path: text) }

        let empty = path("empty.zip")
        try Data().write(to: URL(fileURLWithPath: empty))
        assertUnusable([empty, "not a ZIP archive"]) { _ = try ZipArchive(path: empty) }

        let missing = path("does-not-exist.zip")
        XCTAssertThrowsError(try ZipArchive(path: missing)) { error in
            guard let archiveError = error as? ArchiveError, archiveError.kind == .cannotOpen else {
                return XCTFail("expected .cannotOpen, got \(error)")
            }
            XCTAssertEqual(archiveError.exitCode, 66)
            XCTAssertTrue(archiveError.description.contains(missing), archiveError.description)
        }
        XCTAssertThrowsError(try ZipArchive(path: tmp.path)) { error in
            guard (error as? ArchiveError)?.kind == .cannotOpen else { return XCTFail("expected .cannotOpen, got \(error)") }
        }
    }

    // MARK: - Behaviour

    func testBodyErrorsPropagateAndConcurrentReads() throws {
        try python(Self.bigTextPython + #"""

        import sys, zipfile, os
        d = sys.argv[1]
        with zipfile.ZipFile(os.path.join(d, 'cc.zip'), 'w') as zf:
            zf.writestr('export.xml', big, compress_type=zipfile.ZIP_DEFLATED)
        """#)
        struct Stop: Error {}
        let archive = try ZipArchive(path: path("cc.zip"))
        let export = archive.entries[0]
        var calls = 0
        XCTAssertThrowsError(try archive.read(export, chunkSize: 4096) { _ in
            calls += 1
            if calls == 3 { throw Stop() }
        }) { error in XCTAssertTrue(error is Stop, "\(error)") }
        XCTAssertEqual(calls, 3)

        // One archive, several threads (pread carries its own offset).
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var totals: [UInt64] = []
            var errors: [String] = []
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            do {
                var total: UInt64 = 0
                try archive.read(export, chunkSize: 32_768 << i) { total += UInt64($0.count) }
                results.lock.withLock { results.totals.append(total) }
            } catch {
                results.lock.withLock { results.errors.append("\(error)") }
            }
        }
        XCTAssertEqual(results.errors, [])
        XCTAssertEqual(results.totals, [UInt64](repeating: export.uncompressedSize, count: 4))
    }

    // MARK: - Real exports in ../shared

    private func sharedFile(_ relative: String) throws -> String {
        let url = Self.sharedDir.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("shared fixture missing: \(url.path)")
        }
        return url.path
    }

    func testRealExportWithMacOSXJunk() throws {
        let zip = try sharedFile("realexports/alxdrcirilo__apple-health-parser/export.zip")
        let archive = try ZipArchive(path: zip)
        XCTAssertEqual(archive.entries.map(\.name), [
            "apple_health_export/",
            "apple_health_export/.DS_Store",
            "__MACOSX/apple_health_export/._.DS_Store",
            "apple_health_export/export.xml",
            "__MACOSX/apple_health_export/._export.xml",
        ])
        XCTAssertEqual(archive.entries.map(\.isJunk), [false, true, true, false, true])
        XCTAssertEqual(archive.entries.map(\.isDirectory), [true, false, false, false, false])
        XCTAssertEqual(archive.entries.filter { !$0.isJunk && !$0.isDirectory }.map(\.name), ["apple_health_export/export.xml"])
        let export = try entry(archive, "apple_health_export/export.xml")
        XCTAssertEqual(export.uncompressedSize, 3790)
        XCTAssertNotEqual(export.flags & 0x0008, 0, "macOS Archive Utility writes data descriptors")
        let content = try readAll(archive, export)
        let unzipped = try sharedFile("realexports/alxdrcirilo__apple-health-parser/export.xml")
        XCTAssertEqual(content, try bytes(ofFile: unzipped))
        let prefix = String(decoding: try archive.readPrefix(export, maxBytes: 512), as: UTF8.self)
        XCTAssertTrue(prefix.hasPrefix("<?xml"), prefix)
        // Every entry, junk included, reads with a matching CRC.
        for e in archive.entries { XCTAssertNoThrow(try archive.read(e) { _ in }, e.name) }
    }

    func testRealExampleZip() throws {
        let zip = try sharedFile("realexports/robmarkcole__applehealthdata/example.zip")
        let archive = try ZipArchive(path: zip)
        XCTAssertEqual(archive.entries.map(\.name), ["apple_health_export/export.xml", "apple_health_export/export_cda.xml"])
        XCTAssertEqual(archive.entries.map(\.uncompressedSize), [9_720_225, 6_593])
        XCTAssertFalse(archive.entries.contains { $0.isJunk || $0.isDirectory })
        for e in archive.entries {
            let content = try readAll(archive, e, chunkSize: 1 << 16)
            XCTAssertEqual(UInt64(content.count), e.uncompressedSize)
            if let unzipped = try? sharedFile("realexports/robmarkcole__applehealthdata/\(e.name)") {
                XCTAssertTrue(content == (try bytes(ofFile: unzipped)), "\(e.name) differs from the unzipped copy")
            }
        }
    }
}
