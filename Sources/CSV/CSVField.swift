/// One text cell as `CSVWriter` writes it, for a program that builds its CSV in memory
/// (`healthetl query --format csv`): the same formula guard and quoting as the files, so one
/// rule covers every CSV. Numbers are not text: write them as they are.
public enum CSVField {
    /// `value` guarded against spreadsheet formulas (`"'=1+1"`, see `CSVFormat.text`) and
    /// quoted per RFC 4180 when it holds `separator`, `"`, CR or LF.
    public static func text(_ value: String, separator: UInt8 = 0x2C) -> String {
        var value = value
        return value.withUTF8 { field in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CSVCellEncoding.maxFieldBytes(field.count)) { out in
                let n = CSVCellEncoding.writeField(field, separator: separator, to: out.baseAddress!)
                return String(decoding: UnsafeBufferPointer(rebasing: out[0..<n]), as: UTF8.self)
            }
        }
    }
}
