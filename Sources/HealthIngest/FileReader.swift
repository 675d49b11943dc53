#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore

/// Reads a file front to back into the buffers it is given, past the page cache (direct I/O)
/// where it can.
///
/// A buffered `read` copies every byte out of the page cache. Inside a 4-year import that copy
/// took 0.8 s of CPU time on the read-ahead thread, whose core normalize and SQLite need, for
/// a 1 GB file read once; with direct I/O the disk writes into the buffer itself (0.1 s). The
/// bytes are the same (the kernel writes back any dirty cached pages of the range first), and
/// a multi-gigabyte export no longer crowds the page cache. Direct I/O needs buffers, lengths
/// and file offsets aligned to the block (4 KiB): reads start at the block before `offset` and
/// drop the head. Where the file system refuses it (tmpfs, some network file systems) or a
/// buffer is not aligned, the reader falls back to plain reads at the same place.
final class FileReader {
    static let alignment = 4096
    private let path: String
    private var fd: Int32
    /// Whether reads bypass the page cache.
    private(set) var isDirect = false
    /// File offset the next read starts at.
    private var position: Int64
    /// Bytes from `position` on that come before the requested offset (direct reads start at
    /// the block boundary), dropped from what is handed out.
    private var skip = 0

    /// Opens `path` to read from `offset` on; `direct: false` reads through the page cache.
    init(path: String, from offset: Int64, direct: Bool = true) throws {
        self.path = path
        position = offset
        fd = -1
        #if os(Linux)
        if direct, let flag = directFlag {
            let aligned = offset - offset % Int64(Self.alignment)
            fd = open(path, O_RDONLY | flag)
            if fd >= 0 {
                isDirect = true
                (position, skip) = (aligned, Int(offset - aligned))
            }
        }
        #endif
        if fd < 0 { fd = try Self.openPlain(path) }
        try seek(to: position)
    }

    deinit { close(fd) }

    /// Bytes handed out so far end at this file offset.
    var offset: Int64 { position + Int64(skip) }

    /// Fills the start of `buffer` with the next bytes; returns how many (0: the end).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        if isDirect && (Int(bitPattern: base) % Self.alignment != 0 || buffer.count % Self.alignment != 0) {
            try fallBack()
        }
        while true {
            let n = systemRead(fd, base, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EINVAL && isDirect { try fallBack(); continue }
                throw HealthETLError.io("\(path): read failed (\(errnoText()))")
            }
            position += Int64(n)
            guard skip > 0, n > 0 else { return n }
            if n <= skip { skip -= n; continue }   // still inside the head: read on
            let kept = n - skip
            memmove(base, base + skip, kept)
            skip = 0
            return kept
        }
    }

    /// Reopens the file for plain reads at the same place.
    private func fallBack() throws {
        let at = offset
        close(fd)
        fd = -1   // if the reopen fails, deinit must not close a number since reused
        fd = try Self.openPlain(path)
        (isDirect, position, skip) = (false, at, 0)
        try seek(to: at)
    }

    private static func openPlain(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw HealthETLError.inputMissing("\(path): cannot be opened (\(errnoText()))") }
        return fd
    }

    private func seek(to offset: Int64) throws {
        guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw HealthETLError.io("\(path): cannot seek to byte \(offset) (\(errnoText()))")
        }
    }
}

/// The last system call's error, for messages (the zip reader's too).
func errnoText() -> String {
    String(cString: strerror(errno))
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Darwin)
private let systemRead = Darwin.read
#endif

#if os(Linux)
/// `O_DIRECT`, which Glibc's Swift module leaves out (it sits behind `_GNU_SOURCE`); its value
/// differs between architectures.
#if arch(x86_64) || arch(i386)
private let directFlag: Int32? = 0o40000
#elseif arch(arm64) || arch(arm)
private let directFlag: Int32? = 0o200000
#else
private let directFlag: Int32? = nil
#endif
#endif
