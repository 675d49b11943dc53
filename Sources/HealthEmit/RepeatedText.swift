#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The last text decoded from a column, kept while the next rows repeat it byte for byte: a
/// series repeats a handful of units and category values, so they cost one String each.
/// (The series reader and the sample-run merger both read their rows through it.)
struct RepeatedText {
    private var last: String?

    mutating func text(_ bytes: UnsafeRawBufferPointer) -> String {
        // memcmp on the String's own bytes: `elementsEqual` steps byte by byte.
        if let known = last, known.utf8.count == bytes.count,
           known.utf8.withContiguousStorageIfAvailable({ bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) == true {
            return known
        }
        let text = String(decoding: bytes, as: UTF8.self)
        last = text
        return text
    }
}
