import Foundation

/// A `clinical-records/` file checked and put on one line: it must be one JSON object with a
/// `resourceType`, nested at most `maximumDepth` deep; the whitespace between its tokens is
/// removed (nothing inside a string changes, so the resource is the provider's, byte for byte
/// in every value), so that it fits on a line of an NDJSON file.
enum ClinicalJSON {
    /// Real resources nest a dozen levels; Foundation's parser is given nothing deeper.
    static let maximumDepth = 100

    /// The compacted bytes and the resource type; `UnreadableExportFile` saying why not.
    static func resource(_ bytes: [UInt8]) throws -> (json: [UInt8], resourceType: String) {
        let compact = try compacted(bytes)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(compact))
        } catch {
            throw UnreadableExportFile("not JSON")
        }
        guard let resource = object as? [String: Any] else { throw UnreadableExportFile("not a JSON object") }
        guard let type = resource["resourceType"] as? String, !type.isEmpty, type.utf8.count <= 64,
              type.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw UnreadableExportFile("no resourceType: not a FHIR resource")
        }
        return (compact, type)
    }

    /// `bytes` without the whitespace outside strings (a UTF-8 byte order mark dropped too).
    static func compacted(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false, escaped = false, depth = 0
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for byte in bytes[start...] {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                out.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth <= maximumDepth else { throw UnreadableExportFile("nested deeper than \(maximumDepth) levels") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
            out.append(byte)
        }
        return out
    }
}
