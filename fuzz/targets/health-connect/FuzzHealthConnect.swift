import Foundation
import FuzzHarness
// `@testable import` needs a build with -enable-testing: a debug build (the replayer) or
// fuzz/run.sh's (-DFUZZING). A plain `swift build -c release` of the package gets a stub `main`.
#if DEBUG || FUZZING
import HealthCore
@testable import HealthConnectIngest

// A Health Connect database's bytes, written to a file (SQLite reads files): recognised, opened
// as an untrusted database, checked, read to the end, and its state for the next run taken.
// Oracles: a database is refused only with the input's error (`HealthETLError`, or a zip's
// `ArchiveError`), never another; a read that ends, ends with its last batch marked complete.

/// The file each input is written to, one per process.
let inputPath = NSTemporaryDirectory() + "healthetl-fuzz-health-connect-\(getpid()).db"

final class LastPosition: @unchecked Sendable { var position: InputPosition? }

func fuzzHealthConnect(_ input: UnsafeRawBufferPointer) {
    guard FileManager.default.createFile(atPath: inputPath, contents: Data(input)) else { return }
    defer { unlink(inputPath) }
    do {
        guard try HealthConnectExport.recognizes(inputPath) else { return }
        let export = try HealthConnectExport.open(inputPath, scratch: NSTemporaryDirectory() + "healthetl-fuzz-scratch")
        let last = LastPosition()
        _ = try export.read(resumingAt: nil, knownRoutePaths: [], prefilter: nil) { last.position = $0.position }
        if last.position?.resume?.inputComplete != true { FuzzHarness.disagree("a read that ended without its last batch") }
        _ = try export.contentState()
    } catch is HealthETLError {
    } catch {
        FuzzHarness.disagree("refused with an error that is not the input's: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzHealthConnect(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@main enum Main {
    static func main() { FuzzHarness.main(fuzzerTestOneInput) }
}
#else
@main enum Main {
    static func main() { FuzzHarness.unavailable() }
}
#endif
