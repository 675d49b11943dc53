import FuzzHarness
import HealthCore
// `@testable import` needs a build with -enable-testing: a debug build (the replayer) or
// fuzz/run.sh's (-DFUZZING). A plain `swift build -c release` of the package gets a stub `main`
// instead, so that the whole package builds in release.
#if DEBUG || FUZZING
@testable import HealthIngest

// A workout route file (`workout-routes/*.gpx` in the zip or folder): the byte sanitizer and
// libxml2's push parser into `GPXHandler` (points, elevations, times, speeds, accuracies).
//
// Input: [4 chunk lengths][GPX document]; the points must not depend on the chunking.

func readRoute(_ document: UnsafeRawBufferPointer, lengths: [Int]) -> [RoutePoint]? {
    let handler = GPXHandler()
    do {
        let parser = try SAXPushParser(handler: handler, fileName: "route.gpx")
        try FuzzHarness.feed(document, lengths: lengths) { try parser.feed($0) }
        try parser.finish()
        return handler.points
    } catch {
        return nil
    }
}

func fuzzGPX(_ input: UnsafeRawBufferPointer) {
    let (lengths, document) = FuzzHarness.chunks(input, count: 4)
    let chunked = readRoute(document, lengths: lengths)
    let whole = readRoute(document, lengths: [Int.max])
    guard let chunked, let whole else { return }
    // Compared as text: a NaN-free Equatable would call two equal NaN speeds different.
    if String(reflecting: chunked) != String(reflecting: whole) {
        FuzzHarness.disagree("chunked read gives \(chunked.count) points, whole read \(whole.count), or other values")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzGPX(UnsafeRawBufferPointer(start: data, count: size))
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
