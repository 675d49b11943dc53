import Foundation
import HealthStore
import HealthCore

/// Reads a pipeline definition and says what is wrong with one in the file's own terms: the
/// line and column of broken JSON, the name of an unknown key (a typo such as `timeZone`
/// would otherwise be ignored without a word), the key whose value has the wrong type —
/// never Swift's `DecodingError`.
enum PipelineFile {
    static func decode(_ data: Data, path: String) throws -> PipelineConfig {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw HealthETLError.usage("\(path): not valid JSON\(location(of: error, in: data))")
        }
        guard let keys = object as? [String: Any] else {
            throw HealthETLError.usage("\(path): a pipeline is a JSON object ({ \"timezone\": …, \"outputs\": […] })")
        }
        try refuseUnknownKeys(keys, known: propertyNames(of: PipelineConfig()), in: path, prefix: "")
        if let goals = keys["goals"] as? [String: Any] {
            try refuseUnknownKeys(goals, known: propertyNames(of: ReportGoals()), in: path, prefix: "goals.")
        }
        do {
            return try JSONDecoder().decode(PipelineConfig.self, from: data)
        } catch let error as DecodingError {
            throw HealthETLError.usage("\(path): \(describe(error))")
        }
    }

    /// The stored properties, which are the JSON keys (neither type renames its keys).
    static func propertyNames(of value: Any) -> [String] {
        Mirror(reflecting: value).children.compactMap(\.label)
    }

    private static func refuseUnknownKeys(_ object: [String: Any], known: [String], in path: String, prefix: String) throws {
        guard let unknown = object.keys.sorted().first(where: { !known.contains($0) }) else { return }
        throw HealthETLError.usage("\(path): unknown pipeline key '\(prefix)\(unknown)' (known: "
            + known.map { prefix + $0 }.joined(separator: ", ") + ")")
    }

    /// " at line L, column C" from Foundation's "around character N", where it says so.
    static func location(of error: Error, in data: Data) -> String {
        let text = "\((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? "")"
        guard let range = text.range(of: "character "),
              let offset = Int(text[range.upperBound...].prefix { $0.isNumber }) else { return "" }
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return " at line \(line), column \(column)"
    }

    static func describe(_ error: DecodingError) -> String {
        func key(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "pipeline key '\(key(context))' must be \(name(of: type))"
        case .valueNotFound(let type, let context):
            return "pipeline key '\(key(context))' must be \(name(of: type)), not null"
        case .keyNotFound(let missing, let context):
            return "pipeline key '\(key(context))' lacks '\(missing.stringValue)'"
        case .dataCorrupted(let context):
            return "pipeline key '\(key(context))': \(context.debugDescription)"
        @unknown default:
            return "not a valid pipeline definition"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch "\(type)" {
        case "String": return "a string"
        case "Double", "Int": return "a number"
        case let t where t.hasPrefix("Array"): return "a list"
        default: return "an object"
        }
    }
}
