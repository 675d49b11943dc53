import XCTest
import HealthCore
@testable import HealthIngest

/// The read-ahead between the input and the parser: the same bytes in the same order with
/// the progress the producer had reached, and an error on either side stops both threads.
final class ReadAheadTests: XCTestCase {
    private struct Broken: Error, Equatable { let side: String }

    /// A producer that passes out `input` in pieces of the given sizes (cycled), reporting
    /// the bytes given out so far before each piece, as `ExportSource.readXML` does.
    private static func producer(_ input: [UInt8], pieces: [Int], failAfter: Int? = nil)
        -> @Sendable ((Int64) -> Void, (UnsafeRawBufferPointer) throws -> Void) throws -> Void {
        { progress, body in
            var at = 0, piece = 0
            while at < input.count {
                if let failAfter, at >= failAfter { throw Broken(side: "producer") }
                let n = min(pieces[piece % pieces.count], input.count - at)
                progress(Int64(at + n))
                try input[at..<at + n].withUnsafeBytes(body)
                at += n
                piece += 1
            }
        }
    }

    private func input(_ count: Int) -> [UInt8] {
        var state: UInt32 = 12345
        return (0..<count).map { _ in state = state &* 1_103_515_245 &+ 12345; return UInt8(truncatingIfNeeded: state >> 16) }
    }

    func testBytesArriveInOrderWithTheProducersProgress() throws {
        let bytes = input(100_003)
        // Pieces smaller and larger than a chunk (a large piece is split over several chunks).
        for (chunkSize, pieces) in [(1000, [1000]), (1000, [7, 2500, 999, 1]), (4096, [65_536]), (1, [3])] {
            var received: [UInt8] = []
            var reports: [(progress: Int64, receivedBefore: Int)] = []
            var lastProgress: Int64 = 0
            try ReadAhead.stream(chunkSize: chunkSize, depth: 2, produce: Self.producer(bytes, pieces: pieces),
                                 progress: { lastProgress = $0 }) { chunk in
                XCTAssertLessThanOrEqual(chunk.count, chunkSize)
                reports.append((lastProgress, received.count))
                received.append(contentsOf: chunk)
            }
            XCTAssertEqual(received, bytes, "chunk \(chunkSize), pieces \(pieces)")
            XCTAssertEqual(lastProgress, Int64(bytes.count))
            // Progress is where the producer stood when it passed out the chunk's bytes:
            // never behind them, and never decreasing.
            for (i, r) in reports.enumerated() {
                XCTAssertGreaterThan(r.progress, Int64(r.receivedBefore))
                if i > 0 { XCTAssertGreaterThanOrEqual(r.progress, reports[i - 1].progress) }
            }
        }
    }

    /// An input that reads straight into the chunks (a file) gives the same bytes in order,
    /// with the position it reached for each chunk; its error comes after the bytes before it.
    func testAFillingInputArrivesInOrderAndItsErrorLast() throws {
        let bytes = input(100_003)
        final class Source: @unchecked Sendable {
            let bytes: [UInt8], piece: Int, failAfter: Int?
            var at = 0
            init(_ bytes: [UInt8], piece: Int, failAfter: Int? = nil) { (self.bytes, self.piece, self.failAfter) = (bytes, piece, failAfter) }
            func fill(_ buffer: UnsafeMutableRawBufferPointer) throws -> (count: Int, progress: Int64) {
                if let failAfter, at >= failAfter { throw Broken(side: "producer") }
                let n = min(piece, buffer.count, bytes.count - at)
                buffer.copyBytes(from: bytes[at..<at + n])
                at += n
                return (n, Int64(at))
            }
        }
        for (chunkSize, piece) in [(4096, 4096), (4096, 1000), (1000, 7)] {
            let source = Source(bytes, piece: piece)
            var received: [UInt8] = [], lastProgress: Int64 = 0
            try ReadAhead.stream(chunkSize: chunkSize, depth: 2, fill: source.fill, progress: { lastProgress = $0 }) { chunk in
                received.append(contentsOf: chunk)
                XCTAssertEqual(lastProgress, Int64(received.count))
            }
            XCTAssertEqual(received, bytes, "chunk \(chunkSize), piece \(piece)")
        }
        let failing = Source(bytes, piece: 1000, failAfter: 20_000)
        var received = 0
        XCTAssertThrowsError(try ReadAhead.stream(chunkSize: 1000, fill: failing.fill, progress: { _ in }) { received += $0.count }) {
            XCTAssertEqual($0 as? Broken, Broken(side: "producer"))
        }
        XCTAssertEqual(received, 20_000)
    }

    func testAConsumerErrorStopsTheProducerAndIsRethrown() {
        let bytes = input(1_000_000)
        var chunks = 0
        XCTAssertThrowsError(try ReadAhead.stream(chunkSize: 1000, depth: 3, produce: Self.producer(bytes, pieces: [1000]),
                                                  progress: { _ in }) { _ in
            chunks += 1
            if chunks == 5 { throw Broken(side: "consumer") }
        }) { XCTAssertEqual($0 as? Broken, Broken(side: "consumer")) }
        XCTAssertEqual(chunks, 5)
    }

    func testAProducerErrorComesAfterTheBytesBeforeIt() {
        let bytes = input(50_000)
        var received = 0
        XCTAssertThrowsError(try ReadAhead.stream(chunkSize: 1000, produce: Self.producer(bytes, pieces: [1000], failAfter: 20_000),
                                                  progress: { _ in }) { received += $0.count }) {
            XCTAssertEqual($0 as? Broken, Broken(side: "producer"))
        }
        XCTAssertEqual(received, 20_000)
    }
}
