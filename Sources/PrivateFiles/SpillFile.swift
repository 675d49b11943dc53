#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A private temporary file: created 0600, unlinked at once, closed with its last user.
public final class SpillFile {
    public let descriptor: Int32
    public let path: String

    public init(path: String) throws {
        self.path = path
        descriptor = createPrivateFile(path, access: O_RDWR)
        guard descriptor >= 0 else {
            throw FileError(.cannotCreate, "\(path): cannot create a temporary file (\(errnoText()))")
        }
        unlink(path)
    }

    deinit { close(descriptor) }

    public func append(_ bytes: [UInt8]) throws {
        if let error = bytes.withUnsafeBytes({ writeFully(descriptor, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, $0.count, file: path) }) {
            throw FileError(.io, "\(path): cannot write a temporary file (\(error))")
        }
    }

    /// Reads up to `count` bytes at `offset` into `buffer`; returns how many (0 at the end).
    public func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) throws -> Int {
        while true {
            let n = pread(descriptor, buffer, count, off_t(offset))
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                throw FileError(.unexpected, "\(path): cannot read a temporary file (\(errnoText()))")
            }
            return n
        }
    }

    /// Reads `count` bytes at `offset` into `buffer`, or as many as the file holds there;
    /// returns how many.
    public func readFully(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) throws -> Int {
        var done = 0
        while done < count {
            let n = try read(into: buffer + done, count: count - done, at: offset + done)
            if n == 0 { break }
            done += n
        }
        return done
    }
}
