#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written beside its final path as a hidden temporary (`dir/.name.tmp-<pid>`, mode 0600)
/// through one fixed buffer, then fsynced and renamed over `path`: a reader of `path` sees the
/// old file or the whole new one, never half a file (docs/RUNS.md, "Publishing"). The CSV and Parquet
/// writers both write through it.
///
/// The name is hidden so that a folder listing that skips dot files (publishing a staging
/// folder) never picks up a half-written file, and carries the pid so that two processes
/// writing the same path don't clobber each other's temporary.
///
/// A file that a publisher moves into place later (`Durability.syncedWhenPublished`: a staged
/// output) skips both syncs at `commit`: the publisher syncs it before its final name exists,
/// and the folder it is staged in is never a name a reader relies on.
///
/// Writers can append straight into the buffer (`reserve` + `advance`), so the hot path of a
/// text format is a bounds check and a store per byte. Not thread-safe. A file that is
/// released before `commit()` removes its temporary.
public final class AtomicOutputFile {
    public let path: String
    public let temporaryPath: String
    private var fd: Int32
    @usableFromInline let buffer: UnsafeMutablePointer<UInt8>
    public let capacity: Int
    public let durability: Durability
    @usableFromInline var used = 0
    /// Bytes written so far (buffered included): the offset of the next byte in the file.
    public var offset: Int64 { written }
    @usableFromInline var written: Int64 = 0

    /// Creates the temporary file; throws `cannotCreateOutput` (naming the path) when it can't.
    public init(path: String, bufferSize: Int = 256 << 10, durability: Durability = .synced) throws {
        self.path = path
        self.durability = durability
        self.temporaryPath = Self.temporaryPath(for: path)
        fd = createPrivateFile(temporaryPath, access: O_WRONLY)
        guard fd >= 0 else {
            throw FileError(.cannotCreate, "cannot create \(path) (temporary \(temporaryPath)): \(errnoText())")
        }
        capacity = max(bufferSize, 4096)
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        discard()
        buffer.deallocate()
    }

    /// `dir/.name.tmp-<pid>` for `dir/name`.
    public static func temporaryPath(for path: String) -> String {
        let (dir, name) = splitPath(path)
        let hidden = ".\(name).tmp-\(getpid())"
        return dir.map { $0 == "/" ? "/" + hidden : $0 + "/" + hidden } ?? hidden
    }

    /// Room for `n` bytes (n ≤ capacity) at the returned pointer; flushes the buffer first if
    /// needed. Follow with `advance(by:)` giving the bytes actually written.
    @inlinable
    public func reserve(_ n: Int) throws -> UnsafeMutablePointer<UInt8> {
        if used + n > capacity { try flushBuffer() }
        return buffer + used
    }

    @inlinable
    public func advance(by n: Int) {
        used += n
        written += Int64(n)
    }

    @inlinable
    public func writeByte(_ b: UInt8) throws {
        if used == capacity { try flushBuffer() }
        buffer[used] = b
        used += 1
        written += 1
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        let n = bytes.count
        guard n > 0 else { return }
        if used + n <= capacity {
            (buffer + used).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)
            used += n
        } else {
            try flushBuffer()
            if n >= capacity {
                try writeAll(bytes.baseAddress!, n)   // too big to buffer: skip the copy
            } else {
                buffer.update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)
                used = n
            }
        }
        written += Int64(n)
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// The first `count` bytes of `bytes` (a reused scratch array that may be longer).
    public func write(_ bytes: [UInt8], count: Int) throws {
        try bytes.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Flushes, fsyncs, closes and renames the file over `path`, then fsyncs the folder (both
    /// syncs only when `durability` is `.synced`). On failure the temporary file is removed and
    /// the error (naming the path) thrown.
    public func commit() throws {
        guard fd >= 0 else { throw FileError(.unexpected, "\(path) was already closed") }
        let synced = durability == .synced
        do {
            try flushBuffer()
            guard !synced || FileCall.fsync(fd, file: temporaryPath) == 0 else {
                throw FileError(.io, "cannot fsync \(temporaryPath): \(errnoText())")
            }
            let rc = close(fd)
            fd = -1
            guard rc == 0 else { throw FileError(.io, "cannot close \(temporaryPath): \(errnoText())") }
            guard FileCall.rename(temporaryPath, path) == 0 else {
                throw FileError(.io, "cannot rename \(temporaryPath) to \(path): \(errnoText())")
            }
        } catch {
            // `discard()` can't help once fd is closed, so the temporary is removed here.
            if fd >= 0 { close(fd); fd = -1 }
            unlink(temporaryPath)
            throw error
        }
        guard synced else { return }
        // The rename is durable only once the folder's entry is; a failure here is not worth
        // failing the write over (the data itself is already synced).
        let dir = Self.splitPath(path).dir ?? "."
        let dfd = open(dir, O_RDONLY | O_CLOEXEC)
        if dfd >= 0 {
            _ = FileCall.fsync(dfd, file: dir)
            close(dfd)
        }
    }

    /// Closes and removes the temporary file, if it is still open; `path` is untouched.
    public func discard() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        unlink(temporaryPath)
        used = 0
    }

    @usableFromInline func flushBuffer() throws {
        guard used > 0 else { return }
        guard fd >= 0 else { throw FileError(.unexpected, "\(path) was already closed") }
        try writeAll(UnsafeRawPointer(buffer), used)
        used = 0
    }

    private func writeAll(_ start: UnsafeRawPointer, _ count: Int) throws {
        if let error = writeFully(fd, start, count, file: temporaryPath) {
            throw FileError(.io, "cannot write \(temporaryPath) (for \(path)): \(error)")
        }
    }

    /// ("dir", "name") for "dir/name", ("/", "name") for "/name", (nil, "name") for "name".
    private static func splitPath(_ path: String) -> (dir: String?, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (nil, path) }
        let name = String(path[path.index(after: slash)...])
        return (slash == path.startIndex ? "/" : String(path[..<slash]), name)
    }
}

/// When a written file reaches the disk.
public enum Durability: Sendable, Equatable {
    /// At `commit`: the file, then its folder's entry, are synced (a file written in place).
    case synced
    /// By whoever publishes it, before its final name exists: a staged output, which a run's
    /// publication syncs and renames into place with every other (syncing it at `commit` too
    /// would wait for the disk twice per file, and for a folder no reader looks in).
    case syncedWhenPublished
}

/// Creates `path` for this process alone (`access`: `O_WRONLY` or `O_RDWR`), mode 0600: a
/// leftover of an earlier process with the same pid is removed first, and `O_EXCL` +
/// `O_NOFOLLOW` never write through a link someone planted at the name. The descriptor, or
/// -1 with `errno` set.
public func createPrivateFile(_ path: String, access: Int32) -> Int32 {
    unlink(path)
    return open(path, access | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
}

/// `write(2)` until all `count` bytes are written to `file`, again after an interruption; nil
/// when they are, else why not.
public func writeFully(_ fd: Int32, _ start: UnsafeRawPointer, _ count: Int, file: @autoclosure () -> String) -> String? {
    var p = start
    var left = count
    while left > 0 {
        let n = FileCall.write(fd, p, left, file: file())
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return n < 0 ? errnoText() : "nothing written" }
        p += n
        left -= n
    }
    return nil
}

public func errnoText() -> String {
    String(cString: strerror(errno))
}

/// Small files replaced whole (a checkpoint's readable copy): the same write-beside, fsync,
/// rename as the outputs.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws {
        let file = try AtomicOutputFile(path: path, bufferSize: 4096)
        try file.write(Array(text.utf8))
        try file.commit()
    }
}

/// Copies the file at `source` to a new private file at `target` (0600, replacing a leftover),
/// in the kernel where it can (`sendfile`: no copy through user space), and syncs it to disk.
public func copyPrivateFile(from source: String, to target: String) throws {
    let input = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard input >= 0 else { throw FileError(.io, "cannot read \(source): \(errnoText())") }
    defer { close(input) }
    let output = createPrivateFile(target, access: O_WRONLY)
    guard output >= 0 else { throw FileError(.cannotCreate, "cannot create \(target): \(errnoText())") }
    defer { close(output) }
    var info = stat()
    guard fstat(input, &info) == 0 else { throw FileError(.io, "cannot read \(source): \(errnoText())") }
    var left = Int(info.st_size)
    #if os(Linux)
    while left > 0 {
        let n = FileCall.sendfile(output, input, min(left, 1 << 30), file: target)
        if n < 0 && errno == EINTR { continue }
        // Not supported here, the file shrank, or a write error: the loop below finishes (and
        // reports the error if the write fails there too).
        if n <= 0 { break }
        left -= n
    }
    #endif
    if left > 0 {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(input, buffer, 1 << 20)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw FileError(.io, "cannot read \(source): \(errnoText())") }
            if n == 0 { break }
            if let error = writeFully(output, buffer, n, file: target) { throw FileError(.io, "cannot write \(target): \(error)") }
        }
    }
    guard FileCall.fsync(output, file: target) == 0 else { throw FileError(.io, "cannot sync \(target): \(errnoText())") }
}
