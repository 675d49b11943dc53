#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore

/// A file an export references, opened only if it really lies inside the export's folder
/// (after resolving links) and is a regular file of bounded size. Opened without following a
/// last link and without blocking (a FIFO would wait for a writer forever), then checked on the
/// open descriptor itself, so what is checked is what is read.
final class ReferencedFile {
    private let fd: Int32
    let size: Int64

    /// nil when `relative` (already free of `..`) does not name a regular file inside `folder`
    /// of at most `maximumBytes`.
    init?(_ relative: String, in folder: String, maximumBytes: Int) {
        guard let realFolder = Self.realPath(folder),
              let realFile = Self.realPath(folder + "/" + relative),
              realFile.hasPrefix(realFolder == "/" ? "/" : realFolder + "/") else { return nil }
        let fd = open(realFile, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int64(info.st_size) <= Int64(maximumBytes) else {
            close(fd)
            return nil
        }
        self.fd = fd
        size = Int64(info.st_size)
    }

    deinit { close(fd) }

    /// Streams the file in chunks of `chunkSize` bytes.
    func read(chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while total < size {
            let n = readFromDescriptor(fd, buffer.baseAddress, chunkSize)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw HealthETLError.io("cannot read a referenced file: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            total += Int64(n)
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// `read(2)` (inside the type, `read` names its method).
private func readFromDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
