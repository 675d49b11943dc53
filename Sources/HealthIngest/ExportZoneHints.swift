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
    /// scan may read the whole XML (a `memmem` over each chunk: a fraction of a second for a
    /// year of data); it stops at the first one. Runs only for a first import with no zone set.
    package static func read(_ source: ExportSource) throws -> ExportZoneHints {
        var hints = find(in: try source.head(maxBytes: headBytes))
        if hints.timeZoneName == nil { hints.timeZoneName = try firstTimeZone(in: source) }
        return hints
    }

    private static func firstTimeZone(in source: ExportSource) throws -> String? {
        struct Found: Error {}
        let needle = Array(#"key="HKTimeZone" value=""#.utf8)
        let carryLength = 256
        var window: [UInt8] = []   // the end of the last chunk, then the new one
        var found: String?
        do {
            try source.readXML(from: 0, chunkSize: 1 << 20, progress: { _ in }) { chunk in
                window.removeFirst(max(0, window.count - carryLength))
                window.append(contentsOf: chunk)
                window.withUnsafeBytes { w in
                    guard let start = Self.end(of: needle, in: w),
                          let end = w[start...].prefix(carryLength).firstIndex(of: UInt8(ascii: "\"")) else { return }
                    let name = String(decoding: w[start..<end], as: UTF8.self)
                    if TimeZone(identifier: name) != nil { found = name }
                }
                if found != nil { throw Found() }
            }
        } catch is Found {}
        return found
    }

    /// Where the first `needle` in `bytes` ends. `memchr` finds each candidate for its rarest
    /// byte (the `Z`, which dates and type names never hold) at memory speed.
    static func end(of needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let pivot = needle.firstIndex(of: UInt8(ascii: "Z")), let base = bytes.baseAddress else { return nil }
        var from = pivot
        while from < bytes.count, let hit = memchr(base + from, Int32(UInt8(ascii: "Z")), bytes.count - from) {
            let at = base.distance(to: UnsafeRawPointer(hit)) - pivot
            if at + needle.count <= bytes.count, bytes[at..<(at + needle.count)].elementsEqual(needle) { return at + needle.count }
            from = at + pivot + 1
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
