import CSV
import Foundation
import SQLite
import HealthStore

/// How `healthetl query` prints a result.
package enum OutputFormat: String, CaseIterable, Sendable {
    case table, csv, json
}

package enum ResultFormatter {
    package static func format(_ result: QueryResult, as format: OutputFormat) -> String {
        switch format {
        case .table: table(result)
        case .csv: csv(result)
        case .json: json(result)
        }
    }

    // MARK: table

    /// Aligned columns (numbers right-aligned with thousands separators), then `N rows (T ms)`,
    /// then the result's notes. Widths are terminal columns: a Hangul or CJK character takes two.
    package static func table(_ result: QueryResult) -> String {
        let header = result.columns.map(\.name)
        let cells = result.rows.map { row in
            row.enumerated().map { i, v in tableCell(v, style: result.columns[safe: i]?.style ?? .decimal) }
        }
        var widths = header.map(DisplayWidth.of)
        for row in cells { for (i, c) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(c)) } }
        func line(_ values: [String], numericRight: Bool) -> String {
            values.enumerated().map { i, v in
                let pad = String(repeating: " ", count: max(0, widths[i] - DisplayWidth.of(v)))
                return numericRight && result.columns[i].isNumeric ? pad + v : v + pad
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        var out = [line(header, numericRight: true), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        out += cells.map { line($0, numericRight: true) }
        let count = result.rows.count
        out.append("\(count) row\(count == 1 ? "" : "s") (\(String(format: "%.1f", result.milliseconds)) ms)")
        out += result.notes.map { "note: " + $0 }
        return out.joined(separator: "\n")
    }

    static func tableCell(_ value: SQLValue, style: ColumnStyle) -> String {
        switch (value, style) {
        case (.null, _): return ""
        case (.integer(let v), .identifier): return String(v)
        case (.real(let v), .identifier): return v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
        case (.real(let v), .whole) where v.isFinite && abs(v) < 1e15: return grouped(Int64(v.rounded()))
        default: return tableCell(value, numeric: style != .text)
        }
    }

    static func tableCell(_ value: SQLValue, numeric: Bool) -> String {
        switch value {
        case .null: return ""
        case .integer(let v): return grouped(v)
        case .real(let v):
            guard v.isFinite else { return String(v) }
            if v == v.rounded(), abs(v) < 1e15 { return grouped(Int64(v)) }
            let fixed = String(format: "%.2f", abs(v))
            let parts = fixed.split(separator: ".")
            let whole = grouped(Int64(parts[0]) ?? 0)
            return (v < 0 ? "-" : "") + whole + "." + parts[1]
        case .text(let s): return s
        }
    }

    /// 1234567 → "1,234,567".
    static func grouped(_ v: Int64) -> String {
        let digits = String(v.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (v < 0 ? "-" : "") + out
    }

    // MARK: CSV (RFC 4180, plain numbers)

    /// Text cells (names and values) as the CSV files write them (`CSVField`: quoted, and
    /// guarded against spreadsheet formulas); numbers as they are, never guarded.
    package static func csv(_ result: QueryResult) -> String {
        var lines = [result.columns.map { CSVField.text($0.name) }.joined(separator: ",")]
        for row in result.rows { lines.append(row.map(csvCell).joined(separator: ",")) }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func csvCell(_ value: SQLValue) -> String {
        if case .text(let s) = value { return CSVField.text(s) }
        return plain(value)
    }

    /// A value as plain text: no grouping, integers without a fraction, reals in full.
    static func plain(_ value: SQLValue) -> String {
        switch value {
        case .null: ""
        case .integer(let v): String(v)
        case .real(let v): v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
        case .text(let s): s
        }
    }

    // MARK: JSON (an array of objects)

    /// `significantDigits`: reals rounded to that many digits for reading (`7393.679999999999` →
    /// `7393.68`, the MCP server's answers); nil keeps every digit (`query --format json`).
    package static func json(_ result: QueryResult, rows: Int? = nil, significantDigits: Int? = nil) -> String {
        let objects = result.rows.prefix(rows ?? result.rows.count).map { row in
            "{" + zip(result.columns, row).map { column, value in
                JSONText.quoted(column.name) + ":" + jsonValue(value, significantDigits: significantDigits)
            }.joined(separator: ",") + "}"
        }
        return "[" + objects.joined(separator: ",\n ") + "]"
    }

    static func jsonValue(_ value: SQLValue, significantDigits: Int? = nil) -> String {
        switch value {
        case .null: return "null"
        case .integer(let v): return String(v)
        case .real(let v):
            guard v.isFinite else { return "null" }
            guard let digits = significantDigits, v != v.rounded() else { return plain(value) }
            return plain(.real(Double(String(format: "%.\(digits)g", v)) ?? v))
        case .text(let s): return JSONText.quoted(s)
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
