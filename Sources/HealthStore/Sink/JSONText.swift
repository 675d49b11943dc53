import HealthCore
import SQLite

/// Metadata as a JSON object text (SQLite's JSON functions read it). Repeated keys — real
/// exports have them — become arrays, so nothing is lost.
public enum JSONText {
    static func object(_ entries: [MetadataEntry]) -> String? {
        var writer = JSONObjectWriter()
        guard writer.write(entries) else { return nil }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// `s` as a JSON string literal.
    public static func quoted(_ s: String) -> String {
        var bytes: [UInt8] = []
        JSONObjectWriter.appendQuoted(s, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Writes metadata objects as JSON bytes into a buffer it keeps, so the SQLite sink makes
/// no String and allocates nothing per record.
struct JSONObjectWriter {
    private(set) var bytes: [UInt8] = []

    /// Replaces `bytes` with the object of `entries`, keys in first-seen order; false (and
    /// nothing written) when there are none. A record has a handful of entries, so repeated
    /// keys are found by comparing with the earlier ones.
    mutating func write(_ entries: [MetadataEntry]) -> Bool {
        bytes.removeAll(keepingCapacity: true)
        guard !entries.isEmpty else { return false }
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for i in entries.indices where !entries[..<i].contains(where: { $0.key == entries[i].key }) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            let key = entries[i].key
            Self.appendQuoted(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            let repeated = entries[(i + 1)...].contains { $0.key == key }
            guard repeated else {
                Self.appendQuoted(entries[i].value, to: &bytes)
                continue
            }
            bytes.append(UInt8(ascii: "["))
            var firstValue = true
            for entry in entries[i...] where entry.key == key {
                if !firstValue { bytes.append(UInt8(ascii: ",")) }
                firstValue = false
                Self.appendQuoted(entry.value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
        return true
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
