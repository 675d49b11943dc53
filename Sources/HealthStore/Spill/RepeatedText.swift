/// The last text decoded from a column, kept while the next rows repeat it byte for byte: a
/// series repeats a handful of units and category values, so they cost one String each.
/// (The series reader and the sample-run merger both read their rows through it.)
struct RepeatedText {
    private var last: String?
    /// The last text's bytes, if at most 64: compared here eight at a time. They are mostly
    /// units of under 16 bytes, and a `memcmp` call per row and column (three per row) was a
    /// fifth of the merging thread's time at 4 years.
    private var lastBytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var lastCount = -1
    private static let inlineCapacity = 64

    mutating func text(_ bytes: UnsafeRawBufferPointer) -> String {
        if let known = last, bytes.count == lastCount, equalsLast(bytes) { return known }
        let text = String(decoding: bytes, as: UTF8.self)
        last = text
        if bytes.count <= Self.inlineCapacity {
            lastCount = bytes.count
            withUnsafeMutableBytes(of: &lastBytes) { $0.copyMemory(from: bytes) }
        } else {
            lastCount = -1   // long texts are not kept: they do not repeat in practice
        }
        return text
    }

    /// Whether `bytes` (as long as the last text) are the last text's bytes.
    private func equalsLast(_ bytes: UnsafeRawBufferPointer) -> Bool {
        withUnsafeBytes(of: lastBytes) { kept in
            var i = 0
            while i + 8 <= bytes.count {
                if kept.loadUnaligned(fromByteOffset: i, as: UInt64.self) != bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                    return false
                }
                i += 8
            }
            while i < bytes.count {
                if kept[i] != bytes[i] { return false }
                i += 1
            }
            return true
        }
    }
}
