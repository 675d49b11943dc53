import Foundation
import HealthCore

/// A file given as an export that is neither a zip nor XML (a README, a PDF, a zip cut to a
/// few bytes) is named as such before the XML parser sees it: libxml2 would call a README
/// "Document is empty" at line 1, column 1.
enum FileKindCheck {
    /// Throws `dataUnusable` (65) unless the file's first bytes that are not a byte-order mark
    /// or white space open an XML document (`<`).
    static func requireXML(_ path: String) throws {
        let head = try FileReader.head(of: path, count: 4096)
        guard !head.isEmpty else {
            throw HealthETLError.dataUnusable("\(path): the file is empty (expected export.zip or export.xml)")
        }
        // UTF-16 exports open with a mark and `<` with a zero byte beside it.
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) { return }
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw HealthETLError.dataUnusable("\(path): the file holds only white space (expected export.zip or export.xml)")
        }
        guard first == UInt8(ascii: "<") else {
            let start = String(decoding: head.prefix(16), as: UTF8.self)
                .map { $0.isLetter || $0.isNumber || $0 == " " || $0.isPunctuation ? $0 : "." }
            throw HealthETLError.dataUnusable("\(path): neither XML nor a zip archive, so not an Apple Health export "
                + "(it begins \"\(String(start))\"; expected export.zip or the export.xml inside it)")
        }
    }
}
