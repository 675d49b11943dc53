// A streaming, read-only ZIP reader for Apple Health `export.zip` files.
//
// Exports can be several gigabytes and a single entry (export.xml, export_cda.xml) can exceed
// 4 GiB, so the reader honours ZIP64 throughout, never maps or loads an entry whole, and reads
// with POSIX `pread` (thread-safe: one archive may be read from several threads at once).

import CZlib
import PrivateFiles
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

public final class ZipArchive: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init or is a Mutex or an Atomic; the
    // descriptor is only used with `pread`, which carries its own offset, so concurrent reads
    // are safe.

    /// One member of the archive, as described by the central directory.
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// Path inside the archive, decoded as UTF-8 when general-purpose flag bit 11 is set
        /// (or the Info-ZIP Unicode Path extra field is present), else as UTF-8 if the bytes
        /// are valid UTF-8, else as code page 437.
        public let name: String
        /// 0 = stored, 8 = deflate; anything else is listed but cannot be read.
        public let method: UInt16
        /// General-purpose bit flags (bit 0 encrypted, bit 3 data descriptor, bit 11 UTF-8).
        public let flags: UInt16
        public let crc32: UInt32
        public let compressedSize: UInt64
        public let uncompressedSize: UInt64
        /// Absolute file offset of the entry's local header (already corrected for any bytes
        /// prepended to the archive).
        public let localHeaderOffset: UInt64
        public let isDirectory: Bool
        /// A Unix symbolic link (the zip stores the link's target as the entry's data). Never
        /// followed and never read as the export or a file it references.
        public let isSymbolicLink: Bool

        public init(name: String, method: UInt16, flags: UInt16, crc32: UInt32,
                    compressedSize: UInt64, uncompressedSize: UInt64,
                    localHeaderOffset: UInt64, isDirectory: Bool, isSymbolicLink: Bool = false) {
            self.name = name
            self.method = method
            self.flags = flags
            self.crc32 = crc32
            self.compressedSize = compressedSize
            self.uncompressedSize = uncompressedSize
            self.localHeaderOffset = localHeaderOffset
            self.isDirectory = isDirectory
            self.isSymbolicLink = isSymbolicLink
        }

        /// The last path component (without a trailing slash for directories).
        public var baseName: String {
            var trimmed = Substring(name)
            while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            if let slash = trimmed.lastIndex(of: "/") {
                return String(trimmed[trimmed.index(after: slash)...])
            }
            return String(trimmed)
        }

        /// macOS Finder litter: anything under `__MACOSX/`, AppleDouble `._*` files, `.DS_Store`.
        public var isJunk: Bool {
            if name.hasPrefix("__MACOSX/") || name.contains("/__MACOSX/") { return true }
            let base = baseName
            return base.hasPrefix("._") || base == ".DS_Store"
        }

        public var isEncrypted: Bool { flags & 0x0001 != 0 }

        public var description: String {
            "\(name) (method \(method), \(compressedSize) -> \(uncompressedSize) bytes)"
        }
    }

    /// The path the archive was opened with (used in error messages).
    public let path: String
    /// Size of the archive file in bytes.
    public let fileSize: UInt64
    /// Central-directory entries in archive order.
    public let entries: [Entry]

    private let fd: Int32
    private let names: ZipNameIndex
    /// Built on the first lookup by the end of a name (most readers never make one).
    private let suffixes = Mutex<ZipSuffixIndex?>(nil)
    /// Bytes every read of this archive has produced so far: the archive's own bomb check.
    private let bytesProduced = Atomic<UInt64>(0)

    /// Opens `path` and parses its central directory.
    /// - Throws: `ArchiveError` `.cannotOpen` if the file cannot be opened;
    ///   `ArchiveError` `.unusable` if it is not a (complete, supported) ZIP archive.
    public init(path: String) throws {
        self.path = path
        // Not blocking on the open: a FIFO's open waits for a writer (it is refused just below).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            throw ArchiveError(.cannotOpen, "cannot open \(path): \(errnoText())")
        }
        var st = stat()
        if fstat(fd, &st) != 0 {
            let text = errnoText()
            close(fd)
            throw ArchiveError(.cannotOpen, "cannot stat \(path): \(text)")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw ArchiveError(.cannotOpen, "\(path) is a directory, not a ZIP archive")
        }
        if (st.st_mode & S_IFMT) != S_IFREG {
            close(fd)
            throw ArchiveError(.unusable, "\(path) is not a regular file (a FIFO, a device or a socket), not a ZIP archive")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        #if os(Linux)
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
        self.fd = fd
        self.fileSize = UInt64(st.st_size)
        let entries: [Entry]
        do {
            entries = try ZipArchive.readCentralDirectory(fd: fd, fileSize: UInt64(st.st_size), path: path)
        } catch {
            close(fd)
            throw error
        }
        self.entries = entries
        names = ZipNameIndex(entries)
    }

    deinit {
        close(fd)
    }

    /// The first entry whose name equals `name` exactly.
    public func entry(named name: String) -> Entry? {
        names.first(named: name).map { entries[$0] }
    }

    /// The first entry named `name` that is not a directory.
    public func fileEntry(named name: String) -> Entry? {
        names.firstFile(named: name, in: entries).map { entries[$0] }
    }

    /// The first entry in archive order that is not Finder litter (`isJunk`) whose name ends in
    /// `/` + `path`: `any/folder/workout-routes/r.gpx` for `workout-routes/r.gpx`.
    public func entry(endingWith path: String) -> Entry? {
        let found = suffixes.withLock { index in
            if index == nil { index = ZipSuffixIndex(entries) }
            return index!.first(endingWith: path, in: entries)
        }
        return found.map { entries[$0] }
    }

    /// Streams the uncompressed bytes of `entry` to `body`, at most `chunkSize` bytes per call.
    ///
    /// One input and one output buffer are allocated per call and reused for every chunk; the
    /// buffer passed to `body` is only valid during the call. At the end the CRC-32 and the
    /// size are checked against the central directory, so corruption is reported only after
    /// `body` has seen (some of) the bad bytes: treat the output as valid only if `read` returns.
    ///
    /// - Parameters:
    ///   - compressedProgress: called after every read from the file with the cumulative
    ///     number of compressed bytes of this entry consumed so far; it ends at
    ///     `entry.compressedSize`, the natural total for a progress bar.
    /// - Throws: `ArchiveError` `.unusable` naming the archive and the entry on a bad local
    ///   header, an unsupported method or encryption, corrupt or truncated data, a size or
    ///   CRC-32 mismatch; `ArchiveError` `.io` on a read error; anything `body` throws.
    public func read(_ entry: Entry, chunkSize: Int = 1 << 20,
                     compressedProgress: (Int64) -> Void = { _ in },
                     _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let chunk = ZipArchive.clampChunk(chunkSize)
        try stream(entry, inputChunk: chunk, outputChunk: chunk, progress: compressedProgress) {
            try body($0)
            return true
        }
    }

    /// Up to `maxBytes` of the start of `entry`'s uncompressed content (all of it if shorter,
    /// in which case the CRC-32 is verified too). Used to sniff the export XML's root element.
    public func readPrefix(_ entry: Entry, maxBytes: Int) throws -> [UInt8] {
        guard maxBytes > 0 else { return [] }
        var out: [UInt8] = []
        out.reserveCapacity(Int(min(UInt64(maxBytes), entry.uncompressedSize, 1 << 24)))
        let outChunk = ZipArchive.clampChunk(min(maxBytes, 1 << 20))
        let inChunk = entry.method == 0 ? outChunk : 1 << 16
        try stream(entry, inputChunk: inChunk, outputChunk: outChunk, progress: { _ in }) { buffer in
            let take = min(buffer.count, maxBytes - out.count)
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<take]))
            return out.count < maxBytes
        }
        return out
    }

    // MARK: - Entry data

    private static func clampChunk(_ size: Int) -> Int {
        min(max(size, 1), 1 << 30)
    }

    private func fail(_ entry: Entry, _ message: String) -> ArchiveError {
        ArchiveError(.unusable, "\(path): entry '\(entry.name)': \(message)")
    }

    /// Offset of the first byte of the entry's data, from its local header.
    private func dataOffset(of entry: Entry) throws -> UInt64 {
        var header = [UInt8](repeating: 0, count: 30)
        let got = try header.withUnsafeMutableBytes {
            try ZipArchive.preadFully(fd, $0.baseAddress!, 30, at: entry.localHeaderOffset, path: path)
        }
        guard got == 30 else {
            throw fail(entry, "local header at offset \(entry.localHeaderOffset) lies beyond the end of the file (truncated archive)")
        }
        guard ZipArchive.u32(header, 0) == 0x0403_4b50 else {
            throw fail(entry, "bad local header signature at offset \(entry.localHeaderOffset)")
        }
        let nameLength = UInt64(ZipArchive.u16(header, 26))
        let extraLength = UInt64(ZipArchive.u16(header, 28))
        let start = entry.localHeaderOffset + 30 + nameLength + extraLength
        let (end, overflow) = start.addingReportingOverflow(entry.compressedSize)
        if overflow || end > fileSize {
            throw fail(entry, "data runs past the end of the file (needs \(entry.compressedSize) bytes at offset \(start), file has \(fileSize)); the archive is truncated")
        }
        return start
    }

    /// The engine behind `read` and `readPrefix`. `body` returns false to stop early (then no
    /// CRC/size check is made).
    private func stream(_ entry: Entry, inputChunk: Int, outputChunk: Int,
                        progress: (Int64) -> Void,
                        _ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
        if entry.isEncrypted {
            throw fail(entry, "is encrypted, which is not supported")
        }
        if entry.isSymbolicLink {
            throw fail(entry, "is a symbolic link, which is never followed")
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw fail(entry, "unsupported compression method \(entry.method) (only 0 = stored and 8 = deflate)")
        }
        if entry.isDirectory && entry.compressedSize == 0 && entry.uncompressedSize == 0 { return }
        let start = try dataOffset(of: entry)
        if entry.method == 0 {
            try readStored(entry, from: start, chunk: outputChunk, progress: progress, body)
        } else {
            try readDeflated(entry, from: start, inputChunk: inputChunk, outputChunk: outputChunk,
                             progress: progress, body)
        }
    }

    private func readStored(_ entry: Entry, from start: UInt64, chunk: Int,
                            progress: (Int64) -> Void,
                            _ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
        if entry.compressedSize != entry.uncompressedSize {
            throw fail(entry, "stored entry has compressed size \(entry.compressedSize) but uncompressed size \(entry.uncompressedSize)")
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var crc = CZlib.crc32(0, nil, 0)
        var data = EntryData(archive: self, entry: entry, offset: start)
        while data.remaining > 0 {
            let got = try data.read(into: buffer, upTo: chunk, progress: progress)
            try countRead(entry, got)
            crc = CZlib.crc32(crc, buffer.assumingMemoryBound(to: Bytef.self), uInt(got))
            if try !body(UnsafeRawBufferPointer(start: buffer, count: got)) { return }
        }
        try check(entry, crc: UInt32(truncatingIfNeeded: crc), size: entry.compressedSize)
    }

    private func readDeflated(_ entry: Entry, from start: UInt64, inputChunk: Int, outputChunk: Int,
                              progress: (Int64) -> Void,
                              _ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
        let input = UnsafeMutablePointer<Bytef>.allocate(capacity: inputChunk)
        defer { input.deallocate() }
        let output = UnsafeMutablePointer<Bytef>.allocate(capacity: outputChunk)
        defer { output.deallocate() }

        var zs = z_stream()
        let initStatus = inflateInit2_(&zs, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else {
            throw ArchiveError(.unexpected, "\(path): entry '\(entry.name)': inflateInit2 failed (\(initStatus))")
        }
        defer { inflateEnd(&zs) }

        var crc = CZlib.crc32(0, nil, 0)
        var data = EntryData(archive: self, entry: entry, offset: start)
        var produced: UInt64 = 0

        while true {
            if zs.avail_in == 0 && data.remaining > 0 {
                let got = try data.read(into: input, upTo: inputChunk, progress: progress)
                zs.next_in = input
                zs.avail_in = uInt(got)
            }
            zs.next_out = output
            zs.avail_out = uInt(outputChunk)
            let status = inflate(&zs, Z_NO_FLUSH)
            let count = outputChunk - Int(zs.avail_out)
            if count > 0 {
                produced += UInt64(count)
                if produced > entry.uncompressedSize {
                    throw fail(entry, "inflates to more than the declared \(entry.uncompressedSize) bytes (corrupt data)")
                }
                try checkEntryRatio(entry, produced: produced, consumed: entry.compressedSize - data.remaining - UInt64(zs.avail_in))
                try countRead(entry, count)
                crc = CZlib.crc32(crc, output, uInt(count))
                if try !body(UnsafeRawBufferPointer(start: output, count: count)) { return }
            }
            switch status {
            case Z_STREAM_END:
                try check(entry, crc: UInt32(truncatingIfNeeded: crc), size: produced)
                return
            case Z_OK:
                continue
            case Z_BUF_ERROR:
                // No progress possible: all input consumed, stream not finished.
                throw fail(entry, "deflate stream ends prematurely after \(produced) of \(entry.uncompressedSize) bytes (truncated or corrupt data)")
            case Z_DATA_ERROR:
                let message = zs.msg.map { String(cString: $0) } ?? "invalid data"
                throw fail(entry, "corrupt deflate data after \(produced) bytes: \(message)")
            case Z_MEM_ERROR:
                throw ArchiveError(.unexpected, "\(path): entry '\(entry.name)': zlib out of memory")
            default:
                let message = zs.msg.map { String(cString: $0) } ?? "status \(status)"
                throw fail(entry, "inflate error after \(produced) bytes: \(message)")
            }
        }
    }

    /// The stored bytes of one entry, read front to back: stored and deflated entries share
    /// the reading, the truncation check and the progress count.
    private struct EntryData {
        let archive: ZipArchive
        let entry: Entry
        var offset: UInt64
        private(set) var remaining: UInt64
        private var consumed: Int64 = 0

        init(archive: ZipArchive, entry: Entry, offset: UInt64) {
            self.archive = archive
            self.entry = entry
            self.offset = offset
            remaining = entry.compressedSize
        }

        /// Reads the next `min(limit, remaining)` bytes; throws if the file ends before them.
        mutating func read(into buffer: UnsafeMutableRawPointer, upTo limit: Int,
                           progress: (Int64) -> Void) throws -> Int {
            let want = Int(min(UInt64(limit), remaining))
            let got = try ZipArchive.preadFully(archive.fd, buffer, want, at: offset, path: archive.path)
            guard got == want else {
                throw archive.fail(entry, "data ends early at offset \(offset + UInt64(got)) (truncated archive)")
            }
            offset += UInt64(got)
            remaining -= UInt64(got)
            consumed += Int64(got)
            progress(consumed)
            return got
        }
    }

    // MARK: - Zip bombs
    //
    // Real exports compress 5 to 70 times (export.xml 10 to 30, GPX, ECG and JSON files 2 to
    // 10, the CDA copy up to 70); deflate's limit is about 1,030. A zip of zeros, spaces or
    // `{}` would keep a reader busy for minutes per megabyte of zip and have it store what it
    // read: a 1 MB zip of spaces is 1 GiB of XML, and 1.6 MB of clinical files, each under the
    // 64 MiB where an entry used to be checked first, made 2.2 GB of store and Bundle. Two
    // bounds, checked on every chunk of every read, refuse such an archive whole:

    /// Past `entryRatioFloor` bytes out of it, an entry may inflate to at most this many times
    /// the compressed bytes read from it so far: seven times the most compressible real entry,
    /// half of a bomb's.
    public static let entryRatioLimit: UInt64 = 500
    /// Past the first chunk of a small read; a real entry of any size is far from the ratio.
    public static let entryRatioFloor: UInt64 = 64 << 10

    /// Past `archiveFloor`, all reads of the archive together may produce at most this many
    /// times the archive's size. Under `entryRatioFloor` an entry is not judged alone, and a
    /// zip of many such entries (each with some 200 bytes of headers) inflates up to 300 times;
    /// a reader may read an entry more than once (the import reads export.xml up to twice, and
    /// its first megabyte a few more times: at 30 times, 60). 200 is three times what a real
    /// import reads, and a bomb is stopped at a fifth of its size.
    public static let archiveRatioLimit: UInt64 = 200
    /// What any archive may produce, however small: a tiny export of repetitive test data.
    public static let archiveFloor: UInt64 = 64 << 20

    /// The most all reads of this archive may produce.
    private var readLimit: UInt64 {
        let (bound, overflow) = fileSize.multipliedReportingOverflow(by: Self.archiveRatioLimit)
        return overflow ? .max : max(bound, Self.archiveFloor)
    }

    /// `produced` bytes out of `entry` so far by this read, from `consumed` compressed bytes.
    private func checkEntryRatio(_ entry: Entry, produced: UInt64, consumed: UInt64) throws {
        guard produced > Self.entryRatioFloor, produced / max(1, consumed) > Self.entryRatioLimit else { return }
        throw ArchiveError(.bomb, "\(path): entry '\(entry.name)' inflates more than \(Self.entryRatioLimit) times "
            + "(\(consumed) bytes to over \(produced >> 10) KiB so far); a Health export compresses 5 to 70 times: "
            + "refused as a zip bomb")
    }

    /// Counts `count` more bytes out of the archive (out of `entry`) against its bound.
    private func countRead(_ entry: Entry, _ count: Int) throws {
        let total = bytesProduced.wrappingAdd(UInt64(count), ordering: .relaxed).newValue
        guard total > readLimit else { return }
        throw ArchiveError(.bomb, "\(path): its entries inflate to over \(readLimit >> 20) MiB (reading '\(entry.name)'), "
            + "more than \(Self.archiveRatioLimit) times the archive's \(fileSize) bytes; "
            + "a Health export compresses 5 to 70 times: refused as a zip bomb")
    }

    private func check(_ entry: Entry, crc: UInt32, size: UInt64) throws {
        if size != entry.uncompressedSize {
            throw fail(entry, "holds \(size) bytes, expected \(entry.uncompressedSize) (truncated or corrupt data)")
        }
        if crc != entry.crc32 {
            throw fail(entry, "CRC-32 mismatch (expected \(ZipArchive.hex(entry.crc32)), computed \(ZipArchive.hex(crc))); the data is corrupt")
        }
    }

    // MARK: - Central directory

    private static func readCentralDirectory(fd: Int32, fileSize: UInt64, path: String) throws -> [Entry] {
        func unusable(_ message: String) -> ArchiveError { ArchiveError(.unusable, "\(path): \(message)") }

        if fileSize == 0 { throw unusable("not a ZIP archive (the file is empty)") }

        // End of central directory: 22 bytes + up to 64 KiB of comment, at the very end.
        let tailLength = Int(min(fileSize, 0xFFFF + 22))
        let tailStart = fileSize - UInt64(tailLength)
        let tail = try readBytes(fd, tailLength, at: tailStart, path: path)
        var eocdIndex: Int? = nil
        if tail.count >= 22 {
            var i = tail.count - 22
            while i >= 0 {
                if tail[i] == 0x50 && tail[i + 1] == 0x4b && tail[i + 2] == 0x05 && tail[i + 3] == 0x06 {
                    let commentLength = Int(u16(tail, i + 20))
                    if i + 22 + commentLength <= tail.count { eocdIndex = i; break }
                }
                i -= 1
            }
        }
        guard let eocdIndex else {
            let head = try readBytes(fd, min(4, Int(fileSize)), at: 0, path: path)
            if head.count == 4 && u32(head, 0) == 0x0403_4b50 {
                throw unusable("truncated ZIP archive: the end-of-central-directory record is missing (was the file cut short while copying or downloading?)")
            }
            throw unusable("not a ZIP archive (no end-of-central-directory record)")
        }
        let eocdOffset = tailStart + UInt64(eocdIndex)
        let diskNumber = u16(tail, eocdIndex + 4)
        let cdDisk = u16(tail, eocdIndex + 6)
        var entryCount = UInt64(u16(tail, eocdIndex + 10))
        var cdSize = UInt64(u32(tail, eocdIndex + 12))
        var cdOffset = UInt64(u32(tail, eocdIndex + 16))
        var isZip64 = false
        /// Where the central directory is expected to end (start of the EOCD or ZIP64 EOCD record).
        var cdEnd = eocdOffset

        // ZIP64 end of central directory locator, immediately before the EOCD.
        if eocdOffset >= 20 {
            let locator = try readBytes(fd, 20, at: eocdOffset - 20, path: path)
            if locator.count == 20 && u32(locator, 0) == 0x0706_4b50 {
                let recordOffset = u64(locator, 8)
                // The stated offset may be off by bytes prepended to the archive; the record is
                // normally right before the locator (56 bytes without extensible data).
                var candidates: [UInt64] = [recordOffset]
                if eocdOffset >= 20 + 56 { candidates.append(eocdOffset - 20 - 56) }
                var found = false
                // Compared by subtraction: a stated offset near 2^64 overflowed `candidate + 56`
                // and stopped the process (seen while adding the fuzz targets).
                for candidate in candidates where eocdOffset >= 56 && candidate <= eocdOffset - 56 {
                    let record = try readBytes(fd, 56, at: candidate, path: path)
                    if record.count == 56 && u32(record, 0) == 0x0606_4b50 {
                        if u32(record, 16) != 0 || u32(record, 20) != 0 {
                            throw unusable("multi-volume (split) ZIP archives are not supported")
                        }
                        entryCount = u64(record, 32)
                        cdSize = u64(record, 40)
                        cdOffset = u64(record, 48)
                        cdEnd = candidate
                        isZip64 = true
                        found = true
                        break
                    }
                }
                if !found {
                    throw unusable("corrupt ZIP64 archive: ZIP64 end-of-central-directory record not found (truncated or damaged archive)")
                }
            }
        }
        if !isZip64 && (diskNumber != 0 || cdDisk != 0) {
            throw unusable("multi-volume (split) ZIP archives are not supported")
        }

        // Bytes prepended to the archive shift everything; the directory ends where the end
        // record begins, which tells us the shift.
        let (statedEnd, overflow) = cdOffset.addingReportingOverflow(cdSize)
        guard !overflow, statedEnd <= cdEnd else {
            throw unusable("truncated or corrupt ZIP archive: the central directory (offset \(cdOffset), \(cdSize) bytes) does not fit before its end record at \(cdEnd)")
        }
        let shift = cdEnd - statedEnd
        let cdStart = cdOffset + shift
        if cdSize > UInt64(Int.max) { throw unusable("central directory too large") }
        let cd = try readBytes(fd, Int(cdSize), at: cdStart, path: path)
        guard cd.count == Int(cdSize) else {
            throw unusable("truncated ZIP archive: central directory cut short")
        }

        var entries: [Entry] = []
        entries.reserveCapacity(Int(min(entryCount, cdSize / 46)))  // a header is >= 46 bytes
        var p = 0
        while p < cd.count {
            guard p + 46 <= cd.count, u32(cd, p) == 0x0201_4b50 else {
                throw unusable("corrupt central directory: bad file header at directory offset \(p) (entry \(entries.count + 1))")
            }
            let madeBy = u16(cd, p + 4) >> 8   // host system: 3 = Unix, 19 = macOS
            let flags = u16(cd, p + 8)
            let method = u16(cd, p + 10)
            let crc = u32(cd, p + 16)
            var compressed = UInt64(u32(cd, p + 20))
            var uncompressed = UInt64(u32(cd, p + 24))
            let nameLength = Int(u16(cd, p + 28))
            let extraLength = Int(u16(cd, p + 30))
            let commentLength = Int(u16(cd, p + 32))
            let diskStart = u16(cd, p + 34)
            let unixMode = u32(cd, p + 38) >> 16   // external attributes: st_mode on Unix hosts
            var localOffset = UInt64(u32(cd, p + 42))
            let nameStart = p + 46
            let extraStart = nameStart + nameLength
            let next = extraStart + extraLength + commentLength
            guard next <= cd.count else {
                throw unusable("corrupt central directory: entry \(entries.count + 1) runs past its end")
            }
            let rawName = cd[nameStart..<extraStart]
            var unicodeName: String? = nil

            // Extra fields: ZIP64 (0x0001) sizes/offset; Info-ZIP Unicode Path (0x7075).
            var q = extraStart
            let extraEnd = extraStart + extraLength
            while q + 4 <= extraEnd {
                let tag = u16(cd, q)
                let size = Int(u16(cd, q + 2))
                let dataStart = q + 4
                guard dataStart + size <= extraEnd else { break }
                if tag == 0x0001 {
                    var r = dataStart
                    let rEnd = dataStart + size
                    func take(_ field: String) throws -> UInt64 {
                        guard r + 8 <= rEnd else {
                            throw unusable("corrupt ZIP64 extra field for entry '\(decodeName(rawName, utf8: true))': missing \(field)")
                        }
                        defer { r += 8 }
                        return u64(cd, r)
                    }
                    if uncompressed == 0xFFFF_FFFF { uncompressed = try take("uncompressed size") }
                    if compressed == 0xFFFF_FFFF { compressed = try take("compressed size") }
                    if localOffset == 0xFFFF_FFFF { localOffset = try take("local header offset") }
                } else if tag == 0x7075, size >= 5, cd[dataStart] == 1 {
                    let nameCRC = u32(cd, dataStart + 1)
                    let computed = rawName.withUnsafeBufferPointer {
                        UInt32(truncatingIfNeeded: CZlib.crc32(0, $0.baseAddress, uInt($0.count)))
                    }
                    if nameCRC == computed {
                        unicodeName = String(decoding: cd[(dataStart + 5)..<(dataStart + size)], as: UTF8.self)
                    }
                }
                q = dataStart + size
            }
            if diskStart != 0 && diskStart != 0xFFFF {
                throw unusable("multi-volume (split) ZIP archives are not supported")
            }

            let name = unicodeName ?? decodeName(rawName, utf8: flags & 0x0800 != 0)
            let (absoluteOffset, offsetOverflow) = localOffset.addingReportingOverflow(shift)
            if offsetOverflow || absoluteOffset >= cdStart {
                throw unusable("corrupt central directory: entry '\(name)' has local header offset \(localOffset) beyond the entries' data")
            }
            let isDirectory = name.hasSuffix("/")
            let isSymbolicLink = (madeBy == 3 || madeBy == 19) && unixMode & 0o170000 == 0o120000
            entries.append(Entry(name: name, method: method, flags: flags, crc32: crc,
                                 compressedSize: compressed, uncompressedSize: uncompressed,
                                 localHeaderOffset: absoluteOffset, isDirectory: isDirectory,
                                 isSymbolicLink: isSymbolicLink))
            p = next
        }
        let count = UInt64(entries.count)
        if count != entryCount && (isZip64 || count & 0xFFFF != entryCount) {
            throw unusable("corrupt ZIP archive: the central directory holds \(count) entries but the end record says \(entryCount)")
        }
        return entries
    }

    // MARK: - Helpers

    /// Reads up to `count` bytes at `offset`, retrying on EINTR and short reads; returns the
    /// number read (less than `count` only at end of file).
    private static func preadFully(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int,
                                   at offset: UInt64, path: String) throws -> Int {
        var done = 0
        while done < count {
            let n = pread(fd, buffer + done, count - done, off_t(offset) + off_t(done))
            if n > 0 {
                done += n
            } else if n == 0 {
                break
            } else if errno != EINTR {
                throw ArchiveError(.io, "\(path): read error at offset \(offset + UInt64(done)): \(errnoText())")
            }
        }
        return done
    }

    private static func readBytes(_ fd: Int32, _ count: Int, at offset: UInt64, path: String) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var got = 0
        let bytes = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            got = try preadFully(fd, buffer.baseAddress!, count, at: offset, path: path)
            initialized = got
        }
        return bytes
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> UInt16 {
        UInt16(b[i]) | UInt16(b[i + 1]) << 8
    }

    private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    private static func u64(_ b: [UInt8], _ i: Int) -> UInt64 {
        UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32
    }

    private static func hex(_ v: UInt32) -> String {
        let digits = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// UTF-8 when flagged; otherwise UTF-8 if the bytes are valid UTF-8 (macOS and Info-ZIP on
    /// Unix write UTF-8 without the flag), else code page 437 (the ZIP default).
    static func decodeName(_ bytes: ArraySlice<UInt8>, utf8: Bool) -> String {
        if utf8 { return String(decoding: bytes, as: UTF8.self) }
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            let value = byte < 0x80 ? UInt32(byte) : UInt32(cp437High[Int(byte) - 0x80])
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    private static let cp437High: [UInt16] = [
        0x00C7, 0x00FC, 0x00E9, 0x00E2, 0x00E4, 0x00E0, 0x00E5, 0x00E7,
        0x00EA, 0x00EB, 0x00E8, 0x00EF, 0x00EE, 0x00EC, 0x00C4, 0x00C5,
        0x00C9, 0x00E6, 0x00C6, 0x00F4, 0x00F6, 0x00F2, 0x00FB, 0x00F9,
        0x00FF, 0x00D6, 0x00DC, 0x00A2, 0x00A3, 0x00A5, 0x20A7, 0x0192,
        0x00E1, 0x00ED, 0x00F3, 0x00FA, 0x00F1, 0x00D1, 0x00AA, 0x00BA,
        0x00BF, 0x2310, 0x00AC, 0x00BD, 0x00BC, 0x00A1, 0x00AB, 0x00BB,
        0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x2561, 0x2562, 0x2556,
        0x2555, 0x2563, 0x2551, 0x2557, 0x255D, 0x255C, 0x255B, 0x2510,
        0x2514, 0x2534, 0x252C, 0x251C, 0x2500, 0x253C, 0x255E, 0x255F,
        0x255A, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256C, 0x2567,
        0x2568, 0x2564, 0x2565, 0x2559, 0x2558, 0x2552, 0x2553, 0x256B,
        0x256A, 0x2518, 0x250C, 0x2588, 0x2584, 0x258C, 0x2590, 0x2580,
        0x03B1, 0x00DF, 0x0393, 0x03C0, 0x03A3, 0x03C3, 0x00B5, 0x03C4,
        0x03A6, 0x0398, 0x03A9, 0x03B4, 0x221E, 0x03C6, 0x03B5, 0x2229,
        0x2261, 0x00B1, 0x2265, 0x2264, 0x2320, 0x2321, 0x00F7, 0x2248,
        0x00B0, 0x2219, 0x00B7, 0x221A, 0x207F, 0x00B2, 0x25A0, 0x00A0,
    ]
}
