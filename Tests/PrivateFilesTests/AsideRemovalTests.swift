import Foundation
import PrivateFiles
import TestSupport
import XCTest

/// Removing several paths all or nothing: every one gone, or every one in its place.
final class AsideRemovalTests: XCTestCase {
    /// Three paths (files and a folder) of which the last cannot be moved aside (a non-empty
    /// folder planted at its name in the aside folder: the rename fails whoever runs the test,
    /// root included). The two moved already are put back, contents and all; nothing is left
    /// aside.
    func testOneFailingPathPutsEveryOtherBack() throws {
        let folder = try temporaryFolder(self).path
        let a = folder + "/a.csv", b = folder + "/b", c = folder + "/c"
        try Data("a".utf8).write(to: URL(fileURLWithPath: a))
        try FileManager.default.createDirectory(atPath: b, withIntermediateDirectories: true)
        try Data("in b".utf8).write(to: URL(fileURLWithPath: b + "/inner"))
        try FileManager.default.createDirectory(atPath: c, withIntermediateDirectories: true)
        try Data("in c".utf8).write(to: URL(fileURLWithPath: c + "/inner"))
        let aside = folder + "/.aside"
        try FileManager.default.createDirectory(atPath: aside + "/2-c/blocker", withIntermediateDirectories: true)

        XCTAssertThrowsError(try AsideRemoval.remove([a, b, c], aside: aside)) { error in
            XCTAssertTrue("\(error)".contains(c), "the error names the path that failed: \(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: a, encoding: .utf8), "a")
        XCTAssertEqual(try String(contentsOfFile: b + "/inner", encoding: .utf8), "in b")
        XCTAssertEqual(try String(contentsOfFile: c + "/inner", encoding: .utf8), "in c")
        XCTAssertEqual(relativePaths(under: folder).filter { $0.hasPrefix(".aside") }, [])
    }

    /// Without a failure every path is gone, missing ones are no error, and the aside folder
    /// is removed too; a path beside them stays.
    func testEveryPathGoesAndTheAsideFolderWithThem() throws {
        let folder = try temporaryFolder(self).path
        let a = folder + "/a.csv", b = folder + "/b", keep = folder + "/keep"
        for path in [a, keep] { try Data("x".utf8).write(to: URL(fileURLWithPath: path)) }
        try FileManager.default.createDirectory(atPath: b + "/deep", withIntermediateDirectories: true)
        try AsideRemoval.remove([a, b, folder + "/never-there"], aside: folder + "/.aside")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["keep"])
        XCTAssertNoThrow(try AsideRemoval.remove([a], aside: folder + "/.aside"), "nothing to remove is no error")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["keep"])
    }
}
