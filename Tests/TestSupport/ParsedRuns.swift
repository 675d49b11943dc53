// Debug builds only: `@testable` needs a module compiled for testing, which a release build's
// is not, and `swift build -c release` builds every target of the package, this one too (issue
// 57: it failed there). The tests that use these run in debug builds (make test, swift test).
#if DEBUG
import Foundation
import XCTest
import HealthCore
@testable import HealthIngest

// An export read in-process, with and without the known-record skipper, reduced to comparable
// lines (KnownRecordSkipperTests, in-process, and KnownRecordSkipperExportTests, on generated
// exports, share them). `@testable`: the skipper and the sanitizer are internal to HealthIngest,
// and TestSupport, like the test targets, is only built for tests (debug, testable).

/// What one read of an export gave: its items as lines, its resume points and counts.
package struct ParsedRun {
    package init() {}
    package var items: [String] = []
    package var points: [(point: ResumePoint, items: Int, skipped: Int)] = []
    package var skipped = 0
    package var summary = ExportReader.Summary()
}

package func parse(_ path: String, _ prefilter: SkipperTestPrefilter?, skipper: Bool, chunkSize: Int = 1 << 20,
           batchSize: Int = 50, from resume: ResumePoint? = nil) throws -> ParsedRun {
    let box = BatchBox()
    var reader = try ExportReader(source: ExportSource(path: path), batchSize: batchSize, chunkSize: chunkSize,
                              prefilter: prefilter)
    reader.skipsKnownRecordsBeforeParsing = skipper
    var run = ParsedRun()
    run.summary = try reader.run(resumingAt: resume) { box.batches.append($0) }
    func describe(_ r: ExportRecord) -> String {
        "\(r.line) \(r.type) \(r.source.name) \(r.creationDate?.microseconds ?? -1) \(r.startDate?.microseconds ?? -1) "
            + "\(r.endDate?.microseconds ?? -1) \(r.value ?? "-") m\(r.metadata.count) b\(r.heartbeats.count)"
    }
    for batch in box.batches {
        run.items += batch.records.map { "record " + describe($0) }
        for c in batch.correlations {
            run.items.append("correlation \(c.line) \(c.type) \(c.members.count): "
                             + c.members.map(describe).joined(separator: " | "))
        }
        run.items += batch.workouts.map { "workout \($0.line) \($0.activityType) \($0.startDate?.microseconds ?? 0)" }
        run.items += batch.activitySummaries.map { "activity \($0.line)" }
        if let p = batch.position.resume {
            XCTAssertEqual(p.elementOrdinal, batch.position.elementOrdinal)
            run.points.append((p, run.items.count, batch.skippedByAnchorSoFar))
        }
        // A running total; the route files' batches after the XML carry none.
        run.skipped = max(run.skipped, batch.skippedByAnchorSoFar)
    }
    return run
}

package func assertSame(_ a: ParsedRun, _ b: ParsedRun, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.items.count, b.items.count, message, file: file, line: line)
    for (x, y) in zip(a.items, b.items) where x != y {
        XCTFail("\(message)\n  on:  \(x)\n  off: \(y)", file: file, line: line)
        break
    }
    XCTAssertEqual(a.skipped, b.skipped, "skipped, " + message, file: file, line: line)
    XCTAssertEqual(a.summary.elements, b.summary.elements, "elements, " + message, file: file, line: line)
    XCTAssertEqual(a.summary.repairedBytes, b.summary.repairedBytes, message, file: file, line: line)
    XCTAssertEqual(a.summary.removedDoctype, b.summary.removedDoctype, message, file: file, line: line)
    XCTAssertEqual(a.points.map(\.point), b.points.map(\.point), "resume points, " + message, file: file, line: line)
    XCTAssertEqual(a.points.map(\.skipped), b.points.map(\.skipped), "skipped so far, " + message, file: file, line: line)
}

/// Cutoffs at the median creation date of every other (type, source) pair of the export,
/// and every other workout known.
package func middleCutoffs(_ path: String) throws -> SkipperTestPrefilter {
    var created: [String: [Int64]] = [:]
    var workouts: [Int64] = []
    for batch in try readBatches(path).batches {
        for r in batch.records { if let c = r.creationDate { created[r.type + "\u{1}" + r.source.name, default: []].append(c.microseconds) } }
        workouts += batch.workouts.map(\.storeID)
    }
    var cutoffs: [String: Int64] = [:]
    for (k, (key, dates)) in created.sorted(by: { $0.key < $1.key }).enumerated() where k % 3 != 2 {
        cutoffs[key] = dates.sorted()[dates.count / 2]
    }
    return SkipperTestPrefilter(cutoffs: cutoffs, workouts: Set(workouts.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)))
}

/// The skipper and the sanitizer over `bytes` as the parser runs them (the skipper first, on
/// the file's bytes), in chunks of `chunk`: the sanitized output, and the bytes the skipper passed.
package func skip(_ bytes: [UInt8], _ prefilter: SkipperTestPrefilter, chunk: Int) -> (output: [UInt8], skipper: KnownRecordSkipper, passed: Int) {
    let skipper = KnownRecordSkipper(prefilter: prefilter, startingInBody: false)
    var sanitizer = XMLSanitizer()
    var output: [UInt8] = []
    var passed = 0
    func sanitize(_ part: UnsafeMutableBufferPointer<UInt8>) {
        passed += part.count
        var out = [UInt8](repeating: 0, count: part.count + XMLSanitizer.outputSlack)
        let n = out.withUnsafeMutableBufferPointer { sanitizer.filter(UnsafeBufferPointer(part), into: $0.baseAddress!) }
        output += out[..<n]
    }
    var i = 0
    while i < bytes.count {
        let n = min(chunk, bytes.count - i)
        sanitize(bytes[i..<(i + n)].withUnsafeBytes { skipper.filter(copying: $0) })
        i += n
    }
    sanitize(skipper.finish())
    output += sanitizer.finish()
    return (output, skipper, passed)
}
#endif
