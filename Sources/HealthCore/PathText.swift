/// Path arithmetic Foundation gets wrong on Linux: `NSString.deletingLastPathComponent` traps
/// on a one-character relative path (`o`, `o/`), which a person may well give as `--out` or
/// as an export's name (`healthetl import e --out o` crashed).
package enum PathText {
    /// The folder part of `path`, as `deletingLastPathComponent` gives it: "" for a name alone,
    /// "/" for a name at the root, trailing and repeated slashes ignored.
    package static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard trimmed != "/" else { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var folder = trimmed[..<slash]
        while folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder.isEmpty ? "/" : String(folder)
    }
}
