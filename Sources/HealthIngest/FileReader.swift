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
            // Any failure (O_DIRECT refused, or not a regular file) falls back to the plain open,
            // which says what is wrong.
            fd = (try? Self.openRegular(path, flags: flag)) ?? -1
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
        try openRegular(path, flags: 0)
    }

    /// Opens `path` read-only, refusing anything but a regular file (issue 46): a FIFO, a device
    /// or a socket would block the import for ever (a FIFO's open waits for a writer) or read
    /// without end. The open does not block (`O_NONBLOCK`), the type is checked on the opened
    /// descriptor (no race with a rename), and reads block again after.
    static func openRegular(_ path: String, flags: Int32) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags)
        guard fd >= 0 else { throw HealthETLError.inputMissing("\(path): cannot be opened (\(errnoText()))") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let text = errnoText()
            close(fd)
            throw HealthETLError.io("\(path): cannot be read (\(text))")
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            let kind = st.st_mode & S_IFMT == S_IFIFO ? "a FIFO (named pipe)" : st.st_mode & S_IFMT == S_IFDIR ? "a folder"
                : st.st_mode & S_IFMT == S_IFSOCK ? "a socket" : "a device"
            throw HealthETLError.dataUnusable("\(path) is \(kind), not a file: an export is export.zip, export.xml or its folder")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// The first `count` bytes of a regular file (fewer if it is shorter): for the checks that
    /// look at a file's start (zip magic, XML, a Health export's prefix), through `openRegular`.
    static func head(of path: String, count: Int) throws -> [UInt8] {
        let fd = try openRegular(path, flags: 0)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + filled, count - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            filled += n
        }
        return Array(bytes.prefix(filled))
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
