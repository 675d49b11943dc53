import HealthCore

/// One line of an ECG file, read as CSV: fields split at commas outside double quotes (`""` is
/// a quote inside one), each trimmed of spaces. The files quote values that hold a comma:
/// `"Jan 1, 1980"`, `"Watch4,4"`, and a voltage with a decimal comma `"-61,237"`.
enum ECGLine {
    static func fields(_ line: UnsafeBufferPointer<UInt8>) -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var i = 0
        while i < line.count {
            let b = line[i]
            if quoted {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < line.count, line[i + 1] == UInt8(ascii: "\"") { field.append(b); i += 1 } else { quoted = false }
                } else {
                    field.append(b)
                }
            } else if b == UInt8(ascii: "\"") {
                quoted = true
            } else if b == UInt8(ascii: ",") {
                fields.append(trimmed(field))
                field.removeAll(keepingCapacity: true)
            } else {
                field.append(b)
            }
            i += 1
        }
        fields.append(trimmed(field))
        return fields
    }

    /// Whether the line holds nothing but commas and spaces (the files' `,` separator lines).
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// The voltage a sample line holds: one decimal number, optionally quoted, with a point or
    /// (some locales) a comma as its decimal mark; nil for anything else. An unquoted decimal
    /// comma splits the line into two CSV fields (`-61,237`), so that shape is read as one
    /// number too: no header line has a number for its key.
    static func number(_ line: UnsafeBufferPointer<UInt8>) -> Double? {
        // Trailing commas are empty fields (`-61.237,`), not decimal marks.
        var end = line.count
        while end > 0, line[end - 1] == UInt8(ascii: ",") || line[end - 1] == UInt8(ascii: " ") { end -= 1 }
        var text: [UInt8] = []
        text.reserveCapacity(end)
        var commas = 0, points = 0
        for b in line[..<end] {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            case UInt8(ascii: ","): commas += 1; text.append(UInt8(ascii: "."))
            case UInt8(ascii: "."): points += 1; text.append(b)
            default: text.append(b)
            }
        }
        // A comma is a decimal mark only where there is no point (`1,234.5` is not a voltage).
        guard commas + points <= 1, !text.isEmpty, text.count <= 64 else { return nil }
        let wellFormed = text.withUnsafeBufferPointer { DecimalText.isDecimal($0) }
        guard wellFormed, let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    private static func trimmed(_ bytes: [UInt8]) -> String {
        var slice = bytes[...]
        while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { slice = slice.dropFirst() }
        while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }
}
