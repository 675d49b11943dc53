import HealthConnectIngest
import HealthCore
import HealthIngest

/// The inputs an import can read, asked in this order; the first that recognizes the path
/// opens it. Adding an input is a module that implements `HealthInputFormat` and a line here
/// (docs/ARCHITECTURE.md, "Inputs"). The Apple reader is last: it takes whatever the others do
/// not, and its checks say what the file is not.
package enum InputFormats {
    package static var all: [any HealthInputFormat.Type] {
        [HealthConnectExport.self, ExportSource.self]
    }

    static func open(_ path: String, scratch: String, trying formats: [any HealthInputFormat.Type] = all) throws -> any HealthInput {
        for format in formats where try format.recognizes(path) { return try format.open(path, scratch: scratch) }
        throw HealthETLError.dataUnusable("\(path): not an export of any platform this program reads")
    }
}
