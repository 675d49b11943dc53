#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HealthCore

/// Reading the hints of an Apple export: its head, and the first `HKTimeZone` in it.
extension ExportZoneHints {
    /// The head holds the `ExportDate` (the first element) and the `locale`.
    package static let headBytes = 64 << 10

    /// The hints of `source`: its head, and the first `HKTimeZone` anywhere in it. Exports
    /// list quantity types before the category types (sleep) whose records carry it, so the
    /// scan may read the whole XML (`memchr` over each chunk in place); it stops at the first
    /// one. Runs only for a first import with no zone set.
    package static func read(_ source: ExportSource) throws -> ExportZoneHints {
        var hints = find(in: try source.head(maxBytes: headBytes))
        if hints.timeZoneName == nil { hints.timeZoneName = try firstTimeZone(in: source) }
        return hints
    }

    /// The first `HKTimeZone` value that names a zone, reading `chunkSize` bytes at a time
    /// (`readXML`: a plain file through the page cache into one buffer, a zip inflated). Not past
    /// the cache, as the parse reads: the scan runs alone before the import starts, and a year's
    /// export read past it (0.21 s from this machine's disk) kept the import waiting longer than
    /// copying it out of the cache costs (0.07 s of CPU time), where a freshly unzipped export is.
    static func firstTimeZone(in source: ExportSource, chunkSize: Int = 1 << 20) throws -> String? {
        struct Found: Error {}
        var scan = ZoneScan()
        do {
            try source.readXML(from: 0, chunkSize: chunkSize, progress: { _ in }) { chunk in
                if scan.look(at: chunk) { throw Found() }
            }
        } catch is Found {}
        return scan.found
    }

    /// The search over consecutive chunks. Each chunk is searched where it lies; only the seam
    /// (the end of the last chunk and the start of the next) is copied, so that a match cut by a
    /// chunk boundary is found too. A value that names no zone is passed over.
    struct ZoneScan {
        private static let needle = Array(#"key="HKTimeZone" value=""#.utf8)
        /// The longest value looked for: zone names are under 40 bytes.
        private static let valueLimit = 256
        private static let overlap = needle.count + valueLimit
        private var tail: [UInt8] = []
        private(set) var found: String?

        /// Looks at the next chunk; true once a zone is found.
        mutating func look(at chunk: UnsafeRawBufferPointer) -> Bool {
            if !tail.isEmpty {
                // Matches starting in the last chunk's tail, completed by this chunk's start.
                var seam = tail
                seam.append(contentsOf: chunk.prefix(Self.overlap))
                found = seam.withUnsafeBytes { Self.firstZone(in: $0, startingBefore: tail.count) }
                if found != nil { return true }
            }
            found = Self.firstZone(in: chunk, startingBefore: chunk.count)
            if found != nil { return true }
            // A chunk shorter than the overlap (an inflated zip's last) keeps the older tail before it.
            if chunk.count < Self.overlap { tail.append(contentsOf: chunk); tail.removeFirst(max(0, tail.count - Self.overlap)) }
            else { tail = Array(chunk.suffix(Self.overlap)) }
            return false
        }

        /// The first complete match starting before `limit` whose value names a zone.
        private static func firstZone(in bytes: UnsafeRawBufferPointer, startingBefore limit: Int) -> String? {
            var from = 0
            while from < limit, let at = ExportZoneHints.start(of: needle, in: bytes, from: from), at < limit {
                let valueStart = at + needle.count
                let value = UnsafeRawBufferPointer(rebasing: bytes[valueStart..<min(bytes.count, valueStart + valueLimit)])
                if let quote = value.firstIndex(of: UInt8(ascii: "\"")) {
                    let name = String(decoding: value[..<quote], as: UTF8.self)
                    if TimeZone(identifier: name) != nil { return name }
                }
                from = at + 1
            }
            return nil
        }
    }

    /// Where the first whole `needle` in `bytes` at or after `from` starts. `memchr` finds each
    /// candidate for its rarest byte (the `Z`, which dates and type names never hold) at memory
    /// speed.
    static func start(of needle: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let pivot = needle.firstIndex(of: UInt8(ascii: "Z")), let base = bytes.baseAddress else { return nil }
        var next = from + pivot
        while next < bytes.count, let hit = memchr(base + next, Int32(UInt8(ascii: "Z")), bytes.count - next) {
            let at = base.distance(to: UnsafeRawPointer(hit)) - pivot
            if at + needle.count <= bytes.count, bytes[at..<(at + needle.count)].elementsEqual(needle) { return at }
            next = at + pivot + 1
        }
        return nil
    }

    /// The hints in `bytes` (the start of an export XML).
    package static func find(in bytes: [UInt8]) -> ExportZoneHints {
        var hints = ExportZoneHints()
        hints.locale = attribute("locale", after: "<HealthData", in: bytes)
        if let text = attribute("value", after: "<ExportDate", in: bytes),
           let parsed = text.utf8CString.withUnsafeBufferPointer({ buf in
               buf.withMemoryRebound(to: UInt8.self) { DateParser.parse(ByteSpan(start: $0.baseAddress!, count: $0.count - 1)) }
           }) {
            hints.exportOffsetSeconds = parsed.offsetSeconds
            hints.exportDate = parsed.timestamp
        }
        if let name = attribute("value", after: "key=\"HKTimeZone\"", in: bytes), TimeZone(identifier: name) != nil {
            hints.timeZoneName = name
        }
        return hints
    }

    /// The value of `name="…"` in the same tag as the first `marker`.
    static func attribute(_ name: String, after marker: String, in bytes: [UInt8]) -> String? {
        guard let at = firstIndex(of: Array(marker.utf8), in: bytes, from: 0) else { return nil }
        let tagEnd = bytes[at...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.endIndex
        // The tag's start: a marker inside an attribute list (`key="HKTimeZone"`) has its tag before it.
        let tagStart = bytes[..<at].lastIndex(of: UInt8(ascii: "<")) ?? at
        let needle = Array((" " + name + "=\"").utf8)
        guard let found = firstIndex(of: needle, in: Array(bytes[tagStart..<tagEnd]), from: 0) else { return nil }
        let valueStart = tagStart + found + needle.count
        guard let quote = bytes[valueStart..<tagEnd].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: bytes[valueStart..<quote], as: UTF8.self)
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var i = from
        while i <= bytes.count - needle.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

extension ExportSource {
    /// The first `maxBytes` bytes of the export XML (fewer if it is shorter).
    package func head(maxBytes: Int) throws -> [UInt8] {
        struct Enough: Error {}
        var out: [UInt8] = []
        out.reserveCapacity(min(maxBytes, 1 << 20))
        do {
            try readXML(from: 0, chunkSize: 1 << 20, progress: { _ in }) { chunk in
                out.append(contentsOf: chunk.prefix(maxBytes - out.count))
                if out.count >= maxBytes { throw Enough() }
            }
        } catch is Enough {}
        return out
    }
}
