import HealthCore
import SQLite

/// Metadata as a JSON object text (SQLite's JSON functions read it). Repeated keys — real
/// exports have them — become arrays, so nothing is lost.
package enum JSONText {
    static func object(_ entries: [MetadataEntry]) -> String? {
        var writer = JSONObjectWriter()
        guard writer.write(entries) else { return nil }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// `s` as a JSON string literal.
    package static func quoted(_ s: String) -> String {
        var bytes: [UInt8] = []
        JSONObjectWriter.appendQuoted(s, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Writes metadata objects as JSON bytes into a buffer it keeps, so the load (the sink) makes
/// no String and allocates nothing per record.
struct JSONObjectWriter {
    private(set) var bytes: [UInt8] = []

    /// Replaces `bytes` with the object of `entries`, keys in first-seen order; false (and
    /// nothing written) when there are none. A record has a handful of entries, so repeated
    /// keys are found by comparing with the earlier ones; past `pairwiseLimit` entries (a
    /// hostile file had 100,000 on one record: 33 s pairwise) they are grouped by a dictionary.
    mutating func write(_ entries: [MetadataEntry]) -> Bool {
        bytes.removeAll(keepingCapacity: true)
        guard !entries.isEmpty else { return false }
        bytes.append(UInt8(ascii: "{"))
        if entries.count <= Self.pairwiseLimit {
            for i in entries.indices where !entries[..<i].contains(where: { $0.key == entries[i].key }) {
                let key = entries[i].key
                appendMember(key, entries[i...].lazy.filter { $0.key == key }.map(\.value), first: i == 0)
            }
        } else {
            var order: [String] = []
            var values: [String: [String]] = [:]
            for entry in entries {
                if values[entry.key] == nil { order.append(entry.key) }
                values[entry.key, default: []].append(entry.value)
            }
            for (n, key) in order.enumerated() { appendMember(key, values[key] ?? [], first: n == 0) }
        }
        bytes.append(UInt8(ascii: "}"))
        return true
    }

    static let pairwiseLimit = 16

    /// `"key":"value"`, or `"key":[…]` for a key that repeats.
    private mutating func appendMember(_ key: String, _ values: some Collection<String>, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        Self.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        guard values.count > 1 else {
            Self.appendQuoted(values.first ?? "", to: &bytes)
            return
        }
        bytes.append(UInt8(ascii: "["))
        for (n, value) in values.enumerated() {
            if n > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendQuoted(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `s` as a JSON string literal: quotes, backslashes and control characters escaped,
    /// everything else (UTF-8 included) as it is.
    static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Nearly every key and value needs no escape: checked, then copied in one piece.
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
