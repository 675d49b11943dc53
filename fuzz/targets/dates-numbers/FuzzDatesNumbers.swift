import FuzzHarness
import HealthCore
// `@testable import` needs a build with -enable-testing: a debug build (the replayer) or
// fuzz/run.sh's (-DFUZZING). A plain `swift build -c release` of the package gets a stub `main`
// instead, so that the whole package builds in release.
#if DEBUG || FUZZING
@testable import HealthIngest

// The readers of dates and numbers in attribute values: every form `DateParser` knows (the
// fixed-position fast path must agree with the general reader), times of day of HRV beats,
// calendar dates, decimals (`ByteSpan.double` and `DecimalText` must agree), unit conversion
// and the plausibility bounds, and the dates the store's own text columns hold.
//
// Input: one value's bytes; `value|unit` also feeds the conversion of that value.

func fuzzDatesNumbers(_ input: UnsafeRawBufferPointer) {
    let bytes = input.bindMemory(to: UInt8.self)
    // A pointer that is valid even for an empty input (libFuzzer may pass nil then).
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { copy in
        _ = copy.initialize(from: bytes)
        let span = ByteSpan(start: UnsafePointer(copy.baseAddress!), count: bytes.count)
        readDates(span)
        readNumbers(span)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    _ = Timestamp(iso8601: text)
    _ = CivilDate(iso: text)
    if let bar = text.firstIndex(of: "|") {
        let (number, unit) = (String(text[..<bar]), String(text[text.index(after: bar)...]))
        if let value = DecimalText.double(number) {
            let (canonical, canonicalUnit) = UnitConverter.canonical(value, unit: unit)
            _ = canonical.roundedInt64
            _ = PlausibleValues.problem(with: canonical, of: TypeRegistry.type(for: canonicalUnit))
        }
    }
}

func readDates(_ span: ByteSpan) {
    let general = DateParser.anyForm(span)
    if let fixed = DateParser.fixedForm(span),
       fixed.timestamp != general?.timestamp || fixed.offsetSeconds != general?.offsetSeconds {
        FuzzHarness.disagree("fixedForm \(fixed) but anyForm \(String(describing: general)) for '\(span.string)'")
    }
    _ = DateParser.parse(span)
    _ = DateParser.timeOfDay(span)
    _ = DateParser.civilDate(span)
    _ = DateParser.compactOrISODate(span)
}

func readNumbers(_ span: ByteSpan) {
    let fromBytes = span.double
    _ = fromBytes?.roundedInt64
    // `ByteSpan.double` reads at most 63 bytes (no value Apple writes is longer).
    guard span.count < 64 else { return }
    let fromText = DecimalText.double(span.string)
    if fromBytes != fromText {
        FuzzHarness.disagree("ByteSpan.double \(String(describing: fromBytes)) but DecimalText.double \(String(describing: fromText)) for '\(span.string)'")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzDatesNumbers(UnsafeRawBufferPointer(start: data, count: size))
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
