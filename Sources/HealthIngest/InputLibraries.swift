import Archive
import CLibXML2

/// The C libraries that read an export, as they report themselves at run time (a bug report
/// names these: `healthetl --version`).
package enum InputLibraries {
    /// `2.9.14`, from libxml2's `xmlParserVersion` ("20914": major, two digits of minor, two of
    /// patch; a macro over `__xmlParserVersion()` in thread-enabled builds, which Swift cannot import).
    package static var libxml2: String {
        guard let raw = __xmlParserVersion()?.pointee, let number = Int(String(cString: raw)) else { return "unknown" }
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }

    package static var zlib: String { Zlib.version }
}
