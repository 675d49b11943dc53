import CZlib
import PrivateFiles

/// Writes a zip archive entry by entry, streamed: each entry's bytes are deflated as they come
/// and followed by a data descriptor (sizes and CRC-32 after the data), then the central
/// directory. Entries and the archive stay under 4 GiB (no ZIP64: made for documents such as
/// spreadsheets, far smaller).
public final class ZipWriter {
    private let file: AtomicOutputFile
    private var entries: [(name: [UInt8], offset: UInt32, crc: UInt32, compressed: UInt32, size: UInt32)] = []
    private var stream = z_stream()
    private var open: (name: [UInt8], offset: UInt32)?
    private var crc: uLong = 0
    private var size: UInt64 = 0
    private var compressedStart: Int64 = 0
    private var output = [UInt8](repeating: 0, count: 64 << 10)

    /// Creates the archive's temporary file beside `path`; `close()` publishes it.
    public init(path: String, durability: Durability = .synced) throws {
        file = try AtomicOutputFile(path: path, bufferSize: 1 << 20, durability: durability)
    }

    deinit { if open != nil { deflateEnd(&stream) } }

    /// Starts an entry (the previous one is finished first).
    public func begin(_ name: String) throws {
        try finishEntry()
        let nameBytes = Array(name.utf8)
        let offset = try offset32(file.offset)
        var header: [UInt8] = []
        header.le32(0x0403_4B50)
        header.le16(20)               // version needed: 2.0 (deflate)
        header.le16(0x0808)           // bit 3: sizes in a data descriptor; bit 11: UTF-8 names
        header.le16(8)                // deflate
        header.le16(0); header.le16(0x21)   // 1980-01-01 00:00: a fixed time, the same bytes every run
        header.le32(0); header.le32(0); header.le32(0)
        header.le16(UInt16(nameBytes.count)); header.le16(0)
        try file.write(header + nameBytes)
        stream = z_stream()
        guard deflateInit2_(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ArchiveError(.unexpected, "zlib deflateInit2 failed")
        }
        open = (nameBytes, offset)
        crc = crc32(0, nil, 0)
        size = 0
        compressedStart = file.offset
    }

    /// Appends bytes to the open entry.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard open != nil else { throw ArchiveError(.unexpected, "zip: no entry is open") }
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        crc = crc32(crc, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
        size += UInt64(bytes.count)
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(bytes.count)
        try pump(Z_NO_FLUSH)
    }

    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Ends the last entry, writes the central directory and publishes the file.
    public func close() throws {
        try finishEntry()
        let directoryStart = try offset32(file.offset)
        for e in entries {
            var h: [UInt8] = []
            h.le32(0x0201_4B50)
            h.le16(20); h.le16(20); h.le16(0x0808); h.le16(8)
            h.le16(0); h.le16(0x21)
            h.le32(e.crc); h.le32(e.compressed); h.le32(e.size)
            h.le16(UInt16(e.name.count)); h.le16(0); h.le16(0); h.le16(0); h.le16(0)
            h.le32(0o100600 << 16)        // external attributes: a regular file, 0600
            h.le32(e.offset)
            try file.write(h + e.name)
        }
        let directorySize = try offset32(file.offset) - directoryStart
        var end: [UInt8] = []
        end.le32(0x0605_4B50)
        end.le16(0); end.le16(0)
        end.le16(UInt16(entries.count)); end.le16(UInt16(entries.count))
        end.le32(directorySize); end.le32(directoryStart)
        end.le16(0)
        try file.write(end)
        try file.commit()
    }

    /// Removes the unfinished file.
    public func abort() {
        if open != nil { deflateEnd(&stream); open = nil }
        file.discard()
    }

    private func finishEntry() throws {
        guard let entry = open else { return }
        stream.next_in = nil
        stream.avail_in = 0
        try pump(Z_FINISH)
        deflateEnd(&stream)
        open = nil
        guard size < UInt64(UInt32.max) else { throw ArchiveError(.unexpected, "zip: an entry over 4 GiB") }
        let compressed = try offset32(file.offset - compressedStart)
        var descriptor: [UInt8] = []
        descriptor.le32(0x0807_4B50)
        descriptor.le32(UInt32(crc)); descriptor.le32(compressed); descriptor.le32(UInt32(size))
        try file.write(descriptor)
        entries.append((entry.name, entry.offset, UInt32(crc), compressed, UInt32(size)))
    }

    private func pump(_ flush: Int32) throws {
        repeat {
            let produced: Int = try output.withUnsafeMutableBufferPointer { out in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let rc = deflate(&stream, flush)
                guard rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR else { throw ArchiveError(.unexpected, "zlib deflate failed (\(rc))") }
                return out.count - Int(stream.avail_out)
            }
            try file.write(output, count: produced)
            if flush == Z_FINISH ? stream.avail_out != 0 : stream.avail_in == 0 && stream.avail_out != 0 { break }
        } while true
    }

    private func offset32(_ value: Int64) throws -> UInt32 {
        guard value >= 0, value < Int64(UInt32.max) else { throw ArchiveError(.unexpected, "zip: the archive would pass 4 GiB") }
        return UInt32(value)
    }
}

extension [UInt8] {
    mutating func le16(_ v: UInt16) { append(UInt8(v & 0xFF)); append(UInt8(v >> 8)) }
    mutating func le32(_ v: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((v >> UInt32(shift)) & 0xFF)) } }
}
