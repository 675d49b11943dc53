import Foundation
import PrivateFiles
import TestSupport
import XCTest

/// A spill file: private, gone from the folder while open, reads back what was appended.
final class SpillFileTests: XCTestCase {
    func testUnlinkedWhileOpenAndPrivate() throws {
        let folder = try temporaryFolder(self).path
        let spill = try SpillFile(path: folder + "/spill")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
        var info = stat()
        XCTAssertEqual(fstat(spill.descriptor, &info), 0)
        XCTAssertEqual(info.st_nlink, 0, "no name links to it")
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
    }

    /// Appends of several sizes read back at any offset; a read past the end returns what
    /// there is, and at the end nothing.
    func testReadsBackWhatWasWritten() throws {
        let spill = try SpillFile(path: try temporaryFolder(self).path + "/spill")
        let first = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let second: [UInt8] = Array("tail".utf8)
        try spill.append(first)
        try spill.append([])
        try spill.append(second)
        let all = first + second
        var buffer = [UInt8](repeating: 0, count: all.count + 10)
        let whole = try buffer.withUnsafeMutableBytes { try spill.readFully(into: $0.baseAddress!, count: $0.count, at: 0) }
        XCTAssertEqual(whole, all.count)
        XCTAssertEqual(Array(buffer[..<whole]), all)
        var middle = [UInt8](repeating: 0, count: 100)
        let n = try middle.withUnsafeMutableBytes { try spill.readFully(into: $0.baseAddress!, count: 100, at: 69_950) }
        XCTAssertEqual(n, 54)
        XCTAssertEqual(Array(middle[..<n]), Array(all[69_950...]))
        let atEnd = try middle.withUnsafeMutableBytes { try spill.read(into: $0.baseAddress!, count: 100, at: all.count) }
        XCTAssertEqual(atEnd, 0)
    }

    func testAnUncreatableSpillNamesItsPath() throws {
        let path = try temporaryFolder(self).path + "/missing/spill"
        XCTAssertThrowsError(try SpillFile(path: path)) { XCTAssertTrue("\($0)".contains(path), "\($0)") }
    }
}
