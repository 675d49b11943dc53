import HealthCore

/// Metadata as a JSON object text (SQLite's JSON functions read it). Repeated keys — real
/// exports have them — become arrays, so nothing is lost.
public enum JSONText {
    static func object(_ entries: [MetadataEntry]) -> String? {
        guard !entries.isEmpty else { return nil }
        var order: [String] = []
        var values: [String: [String]] = [:]
        for e in entries {
            if values[e.key] == nil { order.append(e.key) }
            values[e.key, default: []].append(e.value)
        }
        var out = "{"
        for (i, key) in order.enumerated() {
            if i > 0 { out += "," }
            out += quoted(key) + ":"
            let v = values[key]!
            out += v.count == 1 ? quoted(v[0]) : "[" + v.map(quoted).joined(separator: ",") + "]"
        }
        return out + "}"
    }

    /// `s` as a JSON string literal.
    public static func quoted(_ s: String) -> String {
        // Most keys and values need no escaping: one byte scan, one concatenation.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + s + "\""
        }
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
