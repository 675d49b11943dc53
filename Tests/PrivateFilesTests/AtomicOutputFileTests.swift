import Foundation
import PrivateFiles
import TestSupport
import XCTest

/// The write-beside-and-rename file itself (CSVWriterTests checks the CSV writer's use of it):
/// a private temporary under a hidden name, the final name only at `commit`, nothing left
/// behind by a file given up.
final class AtomicOutputFileTests: XCTestCase {
    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// More than one buffer of bytes, through each write call: the temporary is 0600, the
    /// final name does not exist until `commit`, then holds every byte in order, 0600 too.
    func testInvisibleUntilCommittedThenWholeAndPrivate() throws {
        let folder = try temporaryFolder(self).path
        let path = folder + "/out.bin"
        let file = try AtomicOutputFile(path: path, bufferSize: 4096)
        XCTAssertEqual(file.temporaryPath, folder + "/.out.bin.tmp-\(getpid())")
        XCTAssertEqual(try mode(file.temporaryPath), 0o600)
        var expected: [UInt8] = []
        let big = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }   // over capacity: written unbuffered
        try file.write(big); expected += big
        try file.writeByte(42); expected.append(42)
        let scratch: [UInt8] = [1, 2, 3, 4, 5, 6]
        try file.write(scratch, count: 3); expected += [1, 2, 3]
        let room = try file.reserve(2)
        room[0] = 9; room[1] = 8
        file.advance(by: 2); expected += [9, 8]
        XCTAssertEqual(file.offset, Int64(expected.count))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        try file.commit()
        XCTAssertEqual(try bytes(path), expected)
        XCTAssertEqual(try mode(path), 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["out.bin"])
        XCTAssertThrowsError(try file.commit(), "a second commit has no file to commit")
    }

    /// A leftover temporary of an earlier process with this pid (killed mid-write) is replaced,
    /// not appended to; a link planted at the temporary's name is not written through.
    func testALeftoverOfTheSamePidIsReplacedAndALinkNotFollowed() throws {
        let folder = try temporaryFolder(self).path
        let path = folder + "/out.bin"
        let temporary = AtomicOutputFile.temporaryPath(for: path)
        try Data(repeating: 0xEE, count: 100).write(to: URL(fileURLWithPath: temporary))
        try AtomicFile.write("new", to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new")

        let victim = folder + "/victim"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: victim)
        try AtomicFile.write("newer", to: path)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "newer")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: temporary), "the link is gone")
    }

    /// Given up, by `discard` or by its release without a commit, the file leaves nothing,
    /// and a file already at the final name is untouched.
    func testAbandonedFilesLeaveNothing() throws {
        let folder = try temporaryFolder(self).path
        let path = folder + "/out.bin"
        let discarded = try AtomicOutputFile(path: path, bufferSize: 4096)
        try discarded.write([UInt8](repeating: 1, count: 9000))
        discarded.discard()
        discarded.discard()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
        try AtomicFile.write("old", to: path)
        do {
            let released = try AtomicOutputFile(path: path, bufferSize: 4096, durability: .syncedWhenPublished)
            try released.write([UInt8](repeating: 2, count: 9000))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["out.bin"])
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old")
    }

    /// A folder that cannot hold the temporary is an error naming the final path.
    func testAnUncreatableTemporaryNamesThePath() throws {
        let path = try temporaryFolder(self).path + "/missing/out.bin"
        XCTAssertThrowsError(try AtomicOutputFile(path: path)) { error in
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
    }
}
