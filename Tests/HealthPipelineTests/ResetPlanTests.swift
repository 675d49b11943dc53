import Foundation
@testable import HealthPipeline
import TestSupport
import XCTest

/// What `healthetl reset` would remove from a folder laid out by hand: the store and its
/// journals, the run state but the lock; never `people/` nor anything else of the user's.
final class ResetPlanTests: XCTestCase {
    func touch(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
    }

    func testTheStoreAndRunStateButTheLockAndNothingElse() throws {
        let root = try temporaryFolder(self).path
        for name in ["health.sqlite", "health.sqlite-wal", ".healthetl/lock", ".healthetl/runs.log",
                     ".healthetl/checkpoints/a", ".healthetl/checkpoints/b", "people/sam/person.json", "notes.txt"] {
            try touch(root + "/" + name)
        }
        let plan = ResetPlan(folder: OutputFolder(path: root))
        XCTAssertTrue(plan.hasStore)
        XCTAssertEqual(plan.lines, ["health.sqlite", "health.sqlite-wal", ".healthetl/checkpoints/ (2 files)", ".healthetl/runs.log"])
        try plan.remove()
        for kept in [".healthetl/lock", "people/sam/person.json", "notes.txt"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/" + kept), kept)
        }
        for gone in ["health.sqlite", "health.sqlite-wal", ".healthetl/runs.log", ".healthetl/checkpoints"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/" + gone), gone)
        }
        XCTAssertEqual(ResetPlan(folder: OutputFolder(path: root)).paths, [], "a second reset finds nothing")
    }

    /// Without a store the plan only clears run state, and says so.
    func testAFolderWithoutAStoreOnlyClearsRunState() throws {
        let root = try temporaryFolder(self).path
        try touch(root + "/.healthetl/history")
        let plan = ResetPlan(folder: OutputFolder(path: root))
        XCTAssertFalse(plan.hasStore)
        XCTAssertEqual(plan.lines, [".healthetl/history"])
    }
}
