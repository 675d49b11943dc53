import FuzzHarness
import HealthCore
// `@testable import` needs a build with -enable-testing: a debug build (the replayer) or
// fuzz/run.sh's (-DFUZZING). A plain `swift build -c release` of the package gets a stub `main`
// instead, so that the whole package builds in release.
#if DEBUG || FUZZING
@testable import HealthIngest

// The export XML path of an import: byte sanitizer (+ the known-record skipper of nightly
// runs) → libxml2's SAX2 push parser → `ExportSAXHandler` → typed batches with resume points.
//
// Input: [mode][4 chunk lengths][document]. The document is parsed twice and both reads must
// agree whenever both succeed (a parse error is a fine answer to bad bytes; a trap or a
// difference is a finding):
// - plain mode: in the chunks the input chose, and whole: chunk boundaries must not matter,
//   not even to the resume points (the sanitizer maps parser offsets back to the file);
// - skipper mode (mode bit 0): chunked with the byte-level skipper (on two threads, as an
//   import runs it) dropping records older than a cutoff and known workouts, and whole with
//   the SAX handler dropping them instead (what KnownRecordSkipperTests checks on real exports).
// Mode bits 1–2 pick the batch size (1, 2, 7 or 4096 items): small batches ask for a resume
// point after nearly every element.

/// Records of every type whose name has an even length (so that some types are skipped and
/// some are not) created before 2016 are "known", and so are workouts with an even id.
struct FuzzPrefilter: RecordPrefilter {
    func cutoff(type: String, source: String) -> Int64? {
        type.utf8.count % 2 == 0 ? 1_451_606_400_000_000 : nil
    }
    func knowsWorkout(_ id: Int64) -> Bool { id % 2 == 0 }
}

/// What a read produced, as text to compare: items, skipped counts and resume points.
func parse(_ document: UnsafeRawBufferPointer, lengths: [Int], skipper: Bool, prefilter: FuzzPrefilter?,
           batchSize: Int) -> [String]? {
    var seen: [String] = []
    let handler = ExportSAXHandler(batchSize: batchSize, prefilter: prefilter, position: { InputPosition() },
                                   emit: { batch in
        seen += batch.records.map { String(reflecting: $0) }
        seen += batch.correlations.map { String(reflecting: $0) }
        seen += batch.workouts.map { String(reflecting: $0) }
        seen += batch.activitySummaries.map { String(reflecting: $0) }
        seen += batch.clinicalRecords.map { String(reflecting: $0) }
        seen += batch.audiograms.map { String(reflecting: $0) }
        seen += batch.visionPrescriptions.map { String(reflecting: $0) }
        // Sorted: two equal dictionaries may list their pairs in different orders.
        let profile = batch.profile?.characteristics.sorted { $0.key < $1.key }
        seen.append("profile \(String(reflecting: profile)) exported \(String(reflecting: batch.exportDate))")
        seen.append("skipped \(batch.skippedByAnchorSoFar) at element \(batch.position.elementOrdinal), \(resumeText(batch.position.resume))")
    })
    do {
        // As an import runs them: the skipper on the read thread and this one
        // (`SkippingOnTwoThreads`, the input in the chunks chosen) before the parser.
        let skipping = skipper ? prefilter.map { SkippingOnTwoThreads(prefilter: $0, startingInBody: false) } : nil
        let parser = try SAXPushParser(handler: handler, fileName: "fuzz.xml", skipped: skipping?.log)
        handler.parser = parser
        if let skipping {
            // Each read gives the next of the chosen lengths (at most a chunk).
            let input = SharedInput(bytes: document, lengths: lengths)
            try ReadAhead.stream(chunkSize: 4096, filter: skipping, fill: { input.read(into: $0) },
                                 progress: { _ in }, consume: parser.feed)
        } else {
            try FuzzHarness.feed(document, lengths: lengths) { try parser.feed($0) }
        }
        try parser.finish()
        guard handler.sawRoot else { return nil }
        try handler.flush(xmlComplete: true)
        seen.append("repaired \(parser.repairedBytes) doctype \(parser.removedDoctype) elements \(handler.elementOrdinal)")
        return seen
    } catch {
        return nil
    }
}

/// The input, read by the read thread while this one waits for its bytes.
final class SharedInput: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    let lengths: [Int]
    private var offset = 0, k = 0

    init(bytes: UnsafeRawBufferPointer, lengths: [Int]) {
        self.bytes = bytes
        self.lengths = lengths
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, progress: Int64) {
        let n = min(lengths[k % lengths.count], buffer.count, bytes.count - offset)
        if n > 0 { buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: n) }
        offset += n
        k += 1
        return (n, Int64(offset))
    }
}

/// A resume point as the two reads must agree on it. Where the sanitizer drops bytes right
/// after an element (a control byte after `</Record>`), the point may fall before them (a read
/// that has not seen them yet: offset N, 0 repaired) or after them (N + 1, 1 repaired): both
/// resume to the same records and totals, so the offset is compared net of the bytes dropped.
func resumeText(_ point: ResumePoint?) -> String {
    guard let point else { return "none" }
    return "element \(point.elementOrdinal) line \(point.line) net offset \(point.inputOffset - Int64(point.repairedBytes)) "
        + "complete \(point.inputComplete) doctype \(point.removedDoctype)"
}

func fuzzXML(_ input: UnsafeRawBufferPointer) {
    guard input.count > 0 else { return }
    let mode = input[0]
    let (lengths, document) = FuzzHarness.chunks(UnsafeRawBufferPointer(rebasing: input[1...]), count: 4)
    let batchSize = [1, 2, 7, 4096][Int(mode >> 1) & 3]
    let skipping = mode & 1 != 0
    let prefilter = skipping ? FuzzPrefilter() : nil
    let chunked = parse(document, lengths: lengths, skipper: skipping, prefilter: prefilter, batchSize: batchSize)
    let whole = parse(document, lengths: [Int.max], skipper: false, prefilter: prefilter, batchSize: batchSize)
    guard let chunked, let whole, chunked != whole else { return }
    let at = zip(chunked, whole).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(chunked.count, whole.count)
    FuzzHarness.disagree("""
        the \(skipping ? "skipper's" : "chunked") read and the whole read differ at item \(at) \
        (\(chunked.count) vs \(whole.count) items):
          \(at < chunked.count ? chunked[at] : "(none)")
          \(at < whole.count ? whole[at] : "(none)")
        """)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzXML(UnsafeRawBufferPointer(start: data, count: size))
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
