import Foundation
import XCTest
import HealthCore

/// `PathText.parent(of:)` gives what `NSString.deletingLastPathComponent` gives, without its
/// trap on a one-character relative path.
final class PathTextTests: XCTestCase {
    func testTheParentIsFoundationsWhereFoundationDoesNotTrap() {
        for path in ["", "/", "ab", "ab/", "/ab", "/ab/", "./o", "../o", "a/b", "a//b", "a/b/", "/a/b/c.xml",
                     "out/people/ann", "apple_health_export/export.xml", "é/ü", "a b/c d"] {
            XCTAssertEqual(PathText.parent(of: path), (path as NSString).deletingLastPathComponent, path)
        }
    }

    func testAOneCharacterNameHasNoParent() {
        // Foundation traps on these (swift-corelibs-foundation on Linux): written out by hand.
        XCTAssertEqual(PathText.parent(of: "o"), "")
        XCTAssertEqual(PathText.parent(of: "o/"), "")
        XCTAssertEqual(PathText.parent(of: "o//"), "")
        XCTAssertEqual(PathText.parent(of: "/o"), "/")
        XCTAssertEqual(PathText.parent(of: "a/o"), "a")
    }
}
