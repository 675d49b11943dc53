import Foundation
import XCTest

/// Every published output of an output folder, byte for byte (the private state folders
/// `.healthetl`, the folder's own and each person's, left out): what a failed run must leave
/// exactly as it was.
package func publishedOutputs(_ out: String) throws -> [String: Data] {
    var all: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: out) else { return all }
    for case let relative as String in walker where !relative.split(separator: "/").contains(".healthetl") {
        var isFolder: ObjCBool = false
        let path = out + "/" + relative
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
            all[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }
    return all
}

/// Fails naming every file that appeared, vanished or changed between two snapshots.
package func assertSamePublished(_ before: [String: Data], _ after: [String: Data], _ message: String,
                         file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(Set(before.keys), Set(after.keys), message, file: file, line: line)
    for name in before.keys.sorted() where after[name] != nil && before[name] != after[name] {
        XCTFail("\(name) changed: \(message)", file: file, line: line)
    }
}
