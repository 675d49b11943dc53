#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore

/// A file written beside its final path (`path.tmp-<pid>`, mode 0600) through a buffer,
/// then fsynced and renamed over `path`, so a reader never sees half a file.
final class ParquetOutputFile {
    let path: String
    let temporaryPath: String
    private var fd: Int32
    private let buffer: UnsafeMutableRawPointer
    private let capacity: Int
    private var used = 0
    /// Bytes written so far (buffered included): the offset of the next byte.
    private(set) var offset: Int64 = 0

    init(path: String, bufferSize: Int = 1 << 20) throws {
        self.path = path
        self.temporaryPath = path + ".tmp-\(getpid())"
        unlink(temporaryPath)   // a stale leftover of an earlier process with the same pid
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
        fd = open(temporaryPath, flags, mode_t(0o600))
        guard fd >= 0 else {
            throw HealthETLError.cannotCreateOutput("cannot create \(temporaryPath): \(parquetErrnoText())")
        }
        capacity = bufferSize
        buffer = .allocate(byteCount: bufferSize, alignment: 16)
    }

    deinit {
        discard()
        buffer.deallocate()
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        offset += Int64(bytes.count)
        if used + bytes.count <= capacity {
            (buffer + used).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            used += bytes.count
            return
        }
        try flushBuffer()
        if bytes.count >= capacity {
            try writeAll(bytes)
        } else {
            buffer.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            used = bytes.count
        }
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    func write(_ bytes: [UInt8], count: Int) throws {
        try bytes.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Flushes, fsyncs, closes and renames the file over `path`, then fsyncs the folder.
    func commit() throws {
        guard fd >= 0 else { throw HealthETLError.internal("parquet: \(path) was already closed") }
        try flushBuffer()
        guard fsync(fd) == 0 else { throw HealthETLError.io("cannot fsync \(temporaryPath): \(parquetErrnoText())") }
        let rc = close(fd)
        fd = -1
        guard rc == 0 else { throw HealthETLError.io("cannot close \(temporaryPath): \(parquetErrnoText())") }
        guard rename(temporaryPath, path) == 0 else {
            throw HealthETLError.io("cannot rename \(temporaryPath) to \(path): \(parquetErrnoText())")
        }
        syncDirectory()
    }

    /// Closes and removes the temporary file, if it is still open.
    func discard() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        unlink(temporaryPath)
    }

    private func flushBuffer() throws {
        guard used > 0 else { return }
        try writeAll(UnsafeRawBufferPointer(start: buffer, count: used))
        used = 0
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var p = bytes.baseAddress!
        var left = bytes.count
        while left > 0 {
            let n = posixWrite(fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                throw HealthETLError.io("cannot write \(temporaryPath): \(parquetErrnoText())")
            }
            p += n
            left -= n
        }
    }

    private func syncDirectory() {
        var dir = path
        if let slash = dir.lastIndex(of: "/") {
            dir = slash == dir.startIndex ? "/" : String(dir[..<slash])
        } else {
            dir = "."
        }
        let dfd = open(dir, O_RDONLY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
    }
}

@inline(__always)
private func posixWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    write(fd, p, n)
}

private func parquetErrnoText() -> String {
    String(cString: strerror(errno))
}
