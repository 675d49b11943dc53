import XCTest
import HealthCore
@testable import HealthIngest
import TestSupport

/// The file reader hands out the file's bytes from any offset, whether it reads past the page
/// cache (aligned buffers) or falls back to plain reads (a buffer that is not aligned), also
/// when it switches in the middle of the file.
final class FileReaderTests: XCTestCase {
    private var bytes: [UInt8] = []
    private var path = ""

    override func setUpWithError() throws {
        var state: UInt32 = 99
        bytes = (0..<(3 * FileReader.alignment + 123)).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        path = try temporaryFolder(self).appendingPathComponent("export.xml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Reads to the end with buffers of the given sizes (cycled; each aligned to a block).
    private func readAll(from offset: Int64, sizes: [Int], direct: Bool = true) throws -> (bytes: [UInt8], starts: [Int64]) {
        let file = try FileReader(path: path, from: offset, direct: direct)
        var out: [UInt8] = [], starts: [Int64] = [], k = 0
        while true {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: sizes[k % sizes.count], alignment: FileReader.alignment)
            defer { buffer.deallocate() }
            let n = try file.read(into: buffer)
            if n == 0 { return (out, starts) }
            out += buffer[0..<n]
            starts.append(file.offset - Int64(out.count))   // the offset reached less the bytes handed out: the start, always
            k += 1
        }
    }

    func testEveryOffsetAndBufferGivesTheFilesBytes() throws {
        let block = FileReader.alignment
        for offset in [0, 1, block - 1, block, block + 904, bytes.count - 1, bytes.count] {
            for sizes in [[2 * block], [block], [1000], [7], [block, 1000, 2 * block], [2 * block, 5]] {
                for direct in [true, false] {
                    let (read, starts) = try readAll(from: Int64(offset), sizes: sizes, direct: direct)
                    XCTAssertEqual(read, Array(bytes[offset...]), "offset \(offset), buffers \(sizes), direct \(direct)")
                    // After each read, the reported offset is the start plus the bytes handed out so far.
                    XCTAssertEqual(Set(starts), starts.isEmpty ? [] : [Int64(offset)], "offset \(offset), buffers \(sizes)")
                }
            }
        }
    }

    func testAMissingFileIsAClearError() {
        XCTAssertThrowsError(try FileReader(path: path + ".missing", from: 0)) { error in
            guard case HealthETLError.inputMissing(let message)? = error as? HealthETLError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(message.contains("export.xml.missing"), message)
        }
    }
}
