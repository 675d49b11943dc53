import CZlib

/// One-shot gzip compression of buffers with zlib (Parquet's pages, say).
///
/// The gzip wrapper (zlib `windowBits` 15 + 16 = 31), not a raw deflate stream, as Parquet's
/// GZIP codec expects. The stream is set up once and reset for every buffer.
public final class GzipCompressor {
    private let stream: UnsafeMutablePointer<z_stream>
    public let level: Int32

    public init(level: Int32 = 1) throws {
        self.level = level
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let rc = deflateInit2_(stream, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY,
                               zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw ArchiveError(.unexpected, "zlib deflateInit2 failed (\(rc))")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `input` into `output` (resized as needed; capacity is kept between calls)
    /// and returns the number of compressed bytes at the start of `output`.
    public func compress(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) throws -> Int {
        guard deflateReset(stream) == Z_OK else { throw ArchiveError(.unexpected, "zlib deflateReset failed") }
        let bound = Int(deflateBound(stream, uLong(input.count)))
        if output.count < bound {
            output = [UInt8](repeating: 0, count: Swift.max(bound, output.count * 2))
        }
        let outCount = output.count
        let rc: Int32 = output.withUnsafeMutableBytes { out in
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(input.count)
            stream.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(outCount)
            return deflate(stream, Z_FINISH)
        }
        let produced = Int(stream.pointee.total_out)
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        guard rc == Z_STREAM_END else { throw ArchiveError(.unexpected, "zlib deflate failed (\(rc))") }
        return produced
    }
}
