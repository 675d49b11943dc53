import Foundation
import FuzzHarness
// `@testable import` needs a build with -enable-testing: a debug build (the replayer) or
// fuzz/run.sh's (-DFUZZING). A plain `swift build -c release` of the package gets a stub `main`.
#if DEBUG || FUZZING
@testable import HealthIngest

// A `clinical-records/*.json` file: `StrictJSON`'s check and compaction, then
// `ClinicalJSON.resource`. Oracles: what passes is JSON to Foundation's parser too, holds no
// byte below 0x20 outside a string (one NDJSON line, no NUL), and is its own compaction; a
// resource's type is the compact text's.

func fuzzClinical(_ input: UnsafeRawBufferPointer) {
    let bytes = Array(input)
    guard let checked = try? StrictJSON.check(bytes, maximumDepth: ClinicalJSON.maximumDepth) else { return }
    let compact = checked.compact
    if compact.contains(where: { $0 < 0x20 }) {
        FuzzHarness.disagree("the compact text holds a control byte: it would break an NDJSON line")
    }
    guard let again = try? StrictJSON.check(compact, maximumDepth: ClinicalJSON.maximumDepth), again.compact == compact,
          again.resourceType == checked.resourceType else {
        FuzzHarness.disagree("the compact text is not its own compaction")
    }
    // Foundation reads what passed, except escapes of lone surrogates, which it refuses and
    // RFC 8259 allows.
    let escapesSurrogate = String(decoding: compact, as: UTF8.self).lowercased().contains("\\ud")
    if !escapesSurrogate, (try? JSONSerialization.jsonObject(with: Data(compact), options: [.fragmentsAllowed])) == nil {
        FuzzHarness.disagree("passed the check but Foundation's parser refuses it")
    }
    if let resource = try? ClinicalJSON.resource(bytes) {
        if resource.json != compact || resource.resourceType != checked.resourceType {
            FuzzHarness.disagree("the resource is not the checked text")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzClinical(UnsafeRawBufferPointer(start: data, count: size))
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
