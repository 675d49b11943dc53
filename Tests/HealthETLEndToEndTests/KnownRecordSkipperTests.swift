import Foundation
import XCTest
@testable import HealthCore
@testable import HealthIngest
import TestSupport

/// The byte-level skipper (`KnownRecordSkipper`, in front of libxml2) drops exactly the
/// records and known workouts the SAX-level prefilter check would drop: same records,
/// correlations, workouts, line numbers, element ordinals, skipped counts and resume points,
/// for any chunk size.
final class KnownRecordSkipperTests: XCTestCase {
    struct Run {
        var items: [String] = []
        var points: [(point: ResumePoint, items: Int, skipped: Int)] = []
        var skipped = 0
        var summary = ExportReader.Summary()
    }

    func parse(_ path: String, _ prefilter: SkipperTestPrefilter?, skipper: Bool, chunkSize: Int = 1 << 20,
               batchSize: Int = 50, from resume: ResumePoint? = nil) throws -> Run {
        let box = BatchBox()
        var reader = try ExportReader(source: ExportSource(path: path), batchSize: batchSize, chunkSize: chunkSize,
                                  prefilter: prefilter)
        reader.skipsKnownRecordsBeforeParsing = skipper
        var run = Run()
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

    func assertSame(_ a: Run, _ b: Run, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
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
    func middleCutoffs(_ path: String) throws -> SkipperTestPrefilter {
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
    func skip(_ bytes: [UInt8], _ prefilter: SkipperTestPrefilter, chunk: Int) -> (output: [UInt8], skipper: KnownRecordSkipper, passed: Int) {
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

    func generated(_ seed: String, _ extra: [String] = []) throws -> String {
        let path = try temporaryFolder(self).appendingPathComponent("export.xml").path
        try generateExport(["--out", path, "--days", "3", "--seed", seed] + extra)
        return path
    }

    /// The export's first workout again right after it, as another kind of workout (a second
    /// id): three days hold one.
    func withASecondWorkout(_ path: String) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = try XCTUnwrap(bytes.range(of: Data("\n <Workout ".utf8)))
        let end = try XCTUnwrap(bytes.range(of: Data("</Workout>".utf8), in: start.upperBound..<bytes.endIndex))
        var copy = bytes[start.lowerBound..<end.upperBound]
        let type = try XCTUnwrap(copy.range(of: Data("workoutActivityType=\"".utf8)))
        copy.insert(contentsOf: Data("X".utf8), at: type.upperBound)
        bytes.insert(contentsOf: copy, at: end.upperBound)
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    func testSameResultWithAndWithoutByteSkippingForAnyChunkSize() throws {
        let path = try generated("31", ["--broken-dtd", "--vertical-tabs"])
        try withASecondWorkout(path)
        let prefilter = try middleCutoffs(path)
        let off = try parse(path, prefilter, skipper: false)
        XCTAssertGreaterThan(off.skipped, 100, "the cutoffs must drop records")
        XCTAssertTrue(off.items.contains { $0.hasPrefix("correlation") && !$0.hasSuffix(" 0: ") })
        XCTAssertTrue(off.items.contains { $0.hasPrefix("record") && !$0.hasSuffix("b0") }, "records with beat lists")
        XCTAssertTrue(off.items.contains { $0.hasPrefix("workout") }, "a workout the prefilter does not know")
        // Every other workout is known: dropped at the SAX level here, by their bytes below.
        let workouts = try parse(path, nil, skipper: false).items.filter { $0.hasPrefix("workout") }.count
        let knownWorkouts = workouts - off.items.filter { $0.hasPrefix("workout") }.count
        XCTAssertGreaterThan(knownWorkouts, 0)
        XCTAssertGreaterThan(off.summary.repairedBytes, 0)
        // The byte level drops every one of them (none needs the SAX-level check here).
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let direct = skip(bytes, prefilter, chunk: 1 << 16)
        XCTAssertEqual(direct.skipper.recordsSkipped, off.skipped)
        XCTAssertEqual(direct.skipper.log.total.elements, off.skipped + knownWorkouts, "the known workouts, by their bytes")
        XCTAssertEqual(direct.output.filter { $0 == 0x0A }.count, bytes.filter { $0 == 0x0A }.count)
        for chunk in [7, 64, 333, 4096, 1 << 20] {
            let on = try parse(path, prefilter, skipper: true, chunkSize: chunk)
            assertSame(on, off, "chunk size \(chunk)")
        }
        // Without a prefilter nothing changes either.
        assertSame(try parse(path, nil, skipper: true, chunkSize: 64), try parse(path, nil, skipper: false), "no prefilter")
        // From a zip the skipper runs on the parse thread (the read thread inflates).
        let zip = try temporaryFolder(self).appendingPathComponent("export.zip").path
        try generateExport(["--out", zip, "--days", "3", "--seed", "31", "--broken-dtd", "--vertical-tabs", "--layout", "zip"])
        let zipCutoffs = try middleCutoffs(zip)
        let zipOff = try parse(zip, zipCutoffs, skipper: false)
        XCTAssertGreaterThan(zipOff.skipped, 100)
        for chunk in [333, 1 << 20] { assertSame(try parse(zip, zipCutoffs, skipper: true, chunkSize: chunk), zipOff, "zip, chunk \(chunk)") }
    }

    func testEveryResumePointWithByteSkippingYieldsTheRest() throws {
        let path = try generated("32", ["--broken-dtd", "--vertical-tabs"])
        let prefilter = try middleCutoffs(path)
        let whole = try parse(path, prefilter, skipper: true, chunkSize: 4096)
        XCTAssertGreaterThan(whole.points.count, 10)
        XCTAssertTrue(whole.points.last!.point.xmlComplete)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for (point, before, skippedBefore) in whole.points where !point.xmlComplete {
            XCTAssertEqual(bytes[Int(point.xmlOffset) - 1], UInt8(ascii: ">"), "offset \(point.xmlOffset)")
            for chunk in [61, 1 << 20] {
                let rest = try parse(path, prefilter, skipper: true, chunkSize: chunk, from: point)
                XCTAssertEqual(rest.items, Array(whole.items[before...]), "resumed at \(point)")
                XCTAssertEqual(rest.summary.elements, whole.summary.elements, "resumed at \(point)")
                XCTAssertEqual(skippedBefore + rest.skipped, whole.skipped, "resumed at \(point)")
                XCTAssertEqual(rest.summary.repairedBytes, whole.summary.repairedBytes)
            }
        }
    }

    /// Where the skipper must not decide (or must stop), the SAX-level check still does:
    /// results equal those of a run without it.
    func testConservativeCases() throws {
        let old = "2024-01-01 10:00:00 +0100", new = "2024-06-01 10:00:00 +0100"
        let dates = #"startDate="2024-01-01 09:00:00 +0100" endDate="2024-01-01 09:00:00 +0100""#
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (Record)*>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2024-06-02 10:00:00 +0100"/>
             <Record type="T" sourceName="A &amp; B" creationDate="\(old)" \(dates) value="1"/>
             <Record type="T" sourceName="W" creationDate="\(old)" \(dates) value="2">
              <MetadataEntry key="k" value="v &lt; w"/>
              <HeartRateVariabilityMetadataList>
               <InstantaneousBeatsPerMinute bpm="60" time="9:00:00.00 AM"/>
              </HeartRateVariabilityMetadataList>
             </Record>
             <Record type='T' sourceName='W' creationDate='\(old)' \(dates) value='3'/>
             <Record
               type="T" sourceName="W"
               creationDate="\(old)" \(dates) value="4"/>
             <Record type="T" sourceName="W\tX" creationDate="\(old)" \(dates) value="5"/>
             <Record type="T" source="W" creationDate="\(old)" \(dates) value="6"/>
             <Record type="T" sourceName="W" creationDate="\(new)" \(dates) value="7"/>
             <Record type="T" sourceName="W" \(dates) value="8"/>
             <Record type="T" sourceName="W" creationDate="\(old)" \(dates) value="9" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch&gt;" HKMeta="&#38;&#x26;"></Record>
             <Correlation type="C" sourceName="W" creationDate="\(old)" \(dates)>
              <MetadataEntry key="k" value="v"/>
              <Record type="T" sourceName="W" creationDate="\(old)" \(dates) value="10"/>
             </Correlation>
             <Workout workoutActivityType="Run" sourceName="W" creationDate="\(old)" \(dates)>
              <WorkoutEvent type="Pause" date="2024-01-01 09:00:00 +0100"/>
             </Workout>
             <Record type="T" sourceName="W" creationDate="\(old)" \(dates) value="11"/>
             <!-- a comment <Record type="T" sourceName="W" creationDate="\(old)"/> -->
             <Record type="T" sourceName="W" creationDate="\(old)" \(dates) value="12"/>
             <Record type="T" sourceName="W" creationDate="\(new)" \(dates) value="13"/>
            </HealthData>

            """
        let path = try write(xml, to: "export.xml", in: try temporaryFolder(self))
        let cutoff = try Self.instant("2024-03-01 00:00:00 +0100")
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": cutoff, "T\u{1}A & B": cutoff, "T\u{1}W\tX": cutoff])
        let off = try parse(path, prefilter, skipper: false, batchSize: 1)
        XCTAssertEqual(off.items.filter { $0.hasPrefix("record") }.map { $0.split(separator: " ").dropLast(2).last! }, ["5", "7", "8", "13"])
        XCTAssertTrue(off.items.contains { $0.hasPrefix("correlation") && $0.contains(" 1: ") && $0.contains(" 10 ") },
                      "the correlation keeps its member record")
        XCTAssertEqual(off.skipped, 8)
        let bytes = Array(xml.utf8)
        for chunk in [1, 2, 3, 5, 7, 13, 64, 4096] {
            let (output, skipper, passed) = skip(bytes, prefilter, chunk: chunk)
            let text = String(decoding: output, as: UTF8.self)
            for value in ["2", "4", "6", "9", "11"] { XCTAssertFalse(text.contains("value=\"\(value)\""), value) }
            XCTAssertFalse(text.contains("value='3'"))
            for value in ["1", "5", "7", "8", "10", "12", "13"] { XCTAssertTrue(text.contains("value=\"\(value)\""), value) }
            XCTAssertEqual(text.split(separator: "\n", omittingEmptySubsequences: false).count,
                           xml.split(separator: "\n", omittingEmptySubsequences: false).count)
            XCTAssertEqual(skipper.recordsSkipped, 6)
            XCTAssertEqual(skipper.dropped(before: Int64(passed) + 1).bytes, Int64(bytes.count - passed))
            assertSame(try parse(path, prefilter, skipper: true, chunkSize: chunk, batchSize: 1), off, "chunk size \(chunk)")
        }
    }

    /// The skipper runs before the sanitizer: a known record it drops is never sanitized, so one
    /// holding a byte the sanitizer would repair (a control byte, broken UTF-8) is passed on for
    /// the sanitizer and the SAX-level check; well-formed UTF-8 is dropped as before. Results,
    /// repairs counted among them, equal those of a run without it.
    func testBytesTheSanitizerRepairsAreLeftToIt() throws {
        let old = "2024-01-01 10:00:00 +0100"
        let dates = #"startDate="2024-01-01 09:00:00 +0100" endDate="2024-01-01 09:00:00 +0100""#
        func record(_ value: String, _ extra: [UInt8] = []) -> [UInt8] {
            Array(#" <Record type="T" sourceName="Alex’s Watch" creationDate="\#(old)" \#(dates) note="a"#.utf8) + extra
                + Array(#"b" value="\#(value)"/>"#.utf8) + [0x0A]
        }
        var bytes = Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (Record)*>
            <!ATTLIST Record type CDATA #REQUIRED>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2024-06-02 10:00:00 +0100"/>

            """.utf8)
        bytes += record("1") + record("2", [0x0B]) + record("3", [0xFF]) + record("4", [0xE2, 0x80]) + record("5", [0xED, 0xA0, 0x80])
            + record("6", [0xC3, 0xA9]) + record("7", [0x01, 0x1F])
        bytes += Array(#" <Record type="T" sourceName="Alex’s Watch" creationDate="\#(old)" \#(dates) value="8">"#.utf8)
            + Array(#"<MetadataEntry key="k" value="v"#.utf8) + [0x0B] + Array(#""/>"#.utf8) + [0x0C]
            + Array("</Record>\n".utf8) + record("9")
        bytes += Array("</HealthData>\n".utf8)
        let path = try temporaryFolder(self).appendingPathComponent("export.xml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let cutoff = try Self.instant("2024-03-01 00:00:00 +0100")
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}Alex’s Watch": cutoff])
        let off = try parse(path, prefilter, skipper: false, batchSize: 1)
        XCTAssertGreaterThan(off.summary.repairedBytes, 0)
        for chunk in [1, 2, 5, 13, 64, 4096] {
            let (output, skipper, _) = skip(bytes, prefilter, chunk: chunk)
            let text = String(decoding: output, as: UTF8.self)
            // Dropped by bytes: the plain records and the one with valid UTF-8; the others
            // passed, and skipping goes on after them.
            for value in ["1", "6", "9"] { XCTAssertFalse(text.contains("value=\"\(value)\""), "\(value), chunk \(chunk)") }
            for value in ["2", "3", "4", "5", "7", "8"] {
                XCTAssertTrue(text.contains("value=\"\(value)\""), "\(value), chunk \(chunk)")
            }
            XCTAssertEqual(skipper.recordsSkipped, 3, "chunk \(chunk)")
            assertSame(try parse(path, prefilter, skipper: true, chunkSize: chunk, batchSize: 1), off, "chunk size \(chunk)")
        }
    }

    /// An export declaring another encoding than UTF-8 is left to the SAX-level check.
    func testOtherEncodingIsPassedOn() throws {
        let old = "2024-01-01 10:00:00 +0100"
        let cutoff = try Self.instant("2024-03-01 00:00:00 +0100")
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": cutoff])
        let folder = try temporaryFolder(self)
        for (k, declaration) in [#"<?xml version="1.0" encoding="ISO-8859-1"?>"#, #"<?xml version='1.0' encoding='utf-8'?>"#,
                                 #"<?xml version="1.0"?>"#].enumerated() {
            let xml = "\(declaration)\n<HealthData>\n <Record type=\"T\" sourceName=\"W\" creationDate=\"\(old)\"/>\n"
                + " <Record type=\"T\" sourceName=\"V\" creationDate=\"\(old)\"/>\n</HealthData>\n"
            let path = try write(xml, to: "e\(k).xml", in: folder)
            XCTAssertEqual(skip(Array(xml.utf8), prefilter, chunk: 7).skipper.recordsSkipped, k == 0 ? 0 : 1, declaration)
            assertSame(try parse(path, prefilter, skipper: true, chunkSize: 7, batchSize: 1),
                       try parse(path, prefilter, skipper: false, batchSize: 1), declaration)
        }
    }

    /// A known record that is not well-formed fails the import with the skipper as without it.
    func testMalformedKnownRecordsStillFail() throws {
        let old = "2024-01-01 10:00:00 +0100"
        let cutoff = try Self.instant("2024-03-01 00:00:00 +0100")
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": cutoff])
        let bad = [
            #"<Record type="T" sourceName="W" creationDate="\#(old)" device="&bogus;"/>"#,
            #"<Record type="T" sourceName="W" creationDate="\#(old)" value="1" value="2"/>"#,
            #"<Record type="T" sourceName="W" creationDate="\#(old)"><MetadataEntry key="k"></Record>"#,
            #"<Record type="T" sourceName="W" creationDate="\#(old)" value="a<b"/>"#,
            #"<Record type="T" sourceName="W" creationDate="\#(old)"value="1"/>"#,
            "<Record type=\"T\" sourceName=\"W\" creationDate=\"\(old)\" value=\"abcdefghij\u{FFFE}\"/>",
            #"<Record type="T" sourceName="W" creationDate="\#(old)" value="&#0;"/>"#,
        ]
        let folder = try temporaryFolder(self)
        for (k, record) in bad.enumerated() {
            let xml = "<HealthData>\n <Record type=\"T\" sourceName=\"W\" creationDate=\"\(old)\"/>\n \(record)\n</HealthData>\n"
            let path = try write(xml, to: "bad\(k).xml", in: folder)
            XCTAssertThrowsError(try parse(path, prefilter, skipper: false), record)
            // The skipper drops the first record and leaves the bad one to libxml2.
            XCTAssertEqual(skip(Array(xml.utf8), prefilter, chunk: 5).skipper.recordsSkipped, 1, record)
            for chunk in [3, 4096] {
                XCTAssertThrowsError(try parse(path, prefilter, skipper: true, chunkSize: chunk), record)
            }
        }
    }
}

extension KnownRecordSkipperTests {
    /// A record whose start tag has the layout of the one before (the same bytes between its
    /// values) and whose content is the same bytes is checked without reading names again:
    /// its values are still checked as strictly, and a line break in a value is still kept.
    func testARecordLikeTheOneBeforeIsCheckedAsStrictly() throws {
        let old = "2024-01-01 10:00:00 +0100"
        let cutoff = try Self.instant("2024-03-01 00:00:00 +0100")
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": cutoff])
        func record(_ value: String, content: Bool) -> String {
            let start = #"<Record type="T" sourceName="W" creationDate="\#(old)" device="&lt;&lt;HKDevice: 0x1&gt;&gt;" value=""#
                + value + "\""
            return content ? start + #"><MetadataEntry key="k" value="v"/></Record>"# : start + "/>"
        }
        let folder = try temporaryFolder(self)
        for content in [false, true] {
            let good = (1...3).map { " " + record("\($0)", content: content) }.joined(separator: "\n")
            for (k, bad) in ["a<b", "&bogus;", "&#0;", "ab\u{FFFE}", "&lt"].enumerated() {
                let xml = "<HealthData>\n\(good)\n \(record(bad, content: content))\n</HealthData>\n"
                let path = try write(xml, to: "bad\(k).xml", in: folder)
                XCTAssertThrowsError(try parse(path, prefilter, skipper: false), bad)
                XCTAssertEqual(skip(Array(xml.utf8), prefilter, chunk: 4096).skipper.recordsSkipped, 3, bad)
                for chunk in [7, 4096] { XCTAssertThrowsError(try parse(path, prefilter, skipper: true, chunkSize: chunk), bad) }
            }
            // A value with a line break: dropped, its line break kept (libxml2's line numbers).
            let xml = "<HealthData>\n\(good)\n \(record("a\nb", content: content))\n \(record("4", content: content))\n</HealthData>\n"
            let (output, skipper, _) = skip(Array(xml.utf8), prefilter, chunk: 4096)
            XCTAssertEqual(skipper.recordsSkipped, 5)
            XCTAssertEqual(output.filter { $0 == 0x0A }.count, xml.utf8.filter { $0 == 0x0A }.count)
            let path = try write(xml, to: "breaks.xml", in: folder)
            assertSame(try parse(path, prefilter, skipper: true, chunkSize: 7, batchSize: 1),
                       try parse(path, prefilter, skipper: false, batchSize: 1), "line break in a value")
        }
    }
}

/// A nightly run (known records dropped by the byte-level skipper) SIGKILLed again and again
/// during its load, each time re-run, ends with what one uninterrupted nightly run gives:
/// the same stored rows and the same counts (elements, records skipped by the anchors).
final class KilledNightlyRunTests: XCTestCase {
    func sequence(_ out: String) -> Int {
        struct Checkpoint: Decodable { var sequence: Int; var phase: String }
        guard let data = FileManager.default.contents(atPath: out + "/.healthetl/checkpoint.json"),
              let state = try? JSONDecoder().decode(Checkpoint.self, from: data), state.phase != "loaded" else { return 0 }
        return state.sequence
    }

    func rows(_ store: String) throws -> [String] {
        var out: [String] = []
        for table in ["sample_data", "heartbeat_data", "workouts", "correlations", "correlation_members", "anchors",
                      "(SELECT elements, records_read, new_samples, skipped_by_anchor, mode FROM runs)"] {
            out += try queryRows(store, "SELECT * FROM \(table) ORDER BY 1, 2").map { table + ": " + $0.map(\.description).joined(separator: "|") }
        }
        return out
    }

    func testKilledNightlyRunResumesToTheSameStore() throws {
        let dir = try temporaryFolder(self)
        let full = dir.appendingPathComponent("full.xml").path
        try generateExport(["--out", full, "--days", "60", "--start", "2024-10-01", "--seed", "41", "--scale", "3"])
        let older = dir.appendingPathComponent("n.xml").path, newer = dir.appendingPathComponent("n1.xml").path
        let split = try runProcess("/usr/bin/env", ["python3", TestPaths.script("split_export.py"),
                                                    full, "2024-10-21 00:00:00 +0200", older, newer])
        XCTAssertEqual(split.status, 0, split.stderr)
        let pipeline = try write(#"{"checkpointRecords": 250}"#, to: "pipeline.json", in: dir)
        let straight = dir.appendingPathComponent("straight").path, killed = dir.appendingPathComponent("killed").path
        let args = { (export: String, out: String) in
            ["import", export, "--out", out, "--pipeline", pipeline, "--timezone", "Europe/Berlin", "--quiet"]
        }
        for out in [straight, killed] { XCTAssertEqual(try healthetl(args(older, out)).status, 0) }
        XCTAssertEqual(try healthetl(args(newer, straight)).status, 0)

        var kills = 0, last = 0
        for _ in 0..<40 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestPaths.binary)
            process.arguments = args(newer, killed)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning, sequence(killed) <= last, Date() < deadline { usleep(300) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { kills += 1 } else { XCTAssertEqual(process.terminationStatus, 0); break }
            XCTAssertGreaterThanOrEqual(sequence(killed), last)
            last = sequence(killed)
        }
        XCTAssertGreaterThanOrEqual(kills, 5, "kills during the nightly load")
        let a = try rows(straight + "/health.sqlite"), b = try rows(killed + "/health.sqlite")
        XCTAssertTrue(a.contains { $0.hasPrefix("(SELECT") && $0.hasSuffix("incremental") })
        XCTAssertEqual(a.count, b.count)
        for (x, y) in zip(a, b) where x != y { XCTFail("uninterrupted \(x)\n     resumed \(y)"); break }
        XCTAssertEqual(try analyticsSnapshot(straight + "/health.sqlite"), try analyticsSnapshot(killed + "/health.sqlite"))
        // And the counts are those of the export: every top-level element, every record read or skipped.
        let read = try readBatches(newer)
        let counts = try queryRows(killed + "/health.sqlite", "SELECT elements, records_read + skipped_by_anchor, skipped_by_anchor FROM runs ORDER BY id DESC LIMIT 1")[0]
        XCTAssertEqual(counts[0].description, "\(read.summary.elements)")
        XCTAssertEqual(counts[1].description, "\(read.batches.reduce(0) { $0 + $1.records.count })")
        XCTAssertGreaterThan(Int(counts[2].description) ?? 0, 10_000)
    }
}

extension KnownRecordSkipperTests {
    /// The instant of an export date (parsed from a buffer that outlives the parse: a string
    /// literal passed as a C string lives only for the call that makes the pointer).
    static func instant(_ text: String) throws -> Int64 {
        var text = text
        return try text.withUTF8 { bytes in
            try XCTUnwrap(DateParser.parse(ByteSpan(start: bytes.baseAddress!, count: bytes.count))).timestamp.microseconds
        }
    }
}

/// The skipper's work shared by two threads (`SkippingOnTwoThreads`: a second part of each
/// chunk filtered on the consumer's thread, from the top level) passes on the bytes one
/// skipper passes, and logs the same drops — also where the guess that a part starts at the
/// top level is wrong (a correlation's member record indented as a top-level one).
final class SkippingOnTwoThreadsTests: XCTestCase {
    func testTwoThreadsPassAndLogWhatOneSkipperDoes() throws {
        let old = "2024-01-01 10:00:00 +0100", new = "2024-06-01 10:00:00 +0100"
        let dates = #"startDate="2024-01-01 09:00:00 +0100" endDate="2024-01-01 09:00:00 +0100""#
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        for k in 0..<400 {
            let created = k % 5 == 0 ? new : old
            switch k % 23 {
            case 7:   // a member record indented like a top-level one: a wrong guess there
                xml += " <Correlation type=\"C\" sourceName=\"W\" creationDate=\"\(old)\" \(dates)>\n"
                    + " <Record type=\"T\" sourceName=\"W\" creationDate=\"\(old)\" \(dates) value=\"m\(k)\"/>\n </Correlation>\n"
            case 11:  // a known record with children, over several lines
                xml += " <Record type=\"T\" sourceName=\"W\" creationDate=\"\(created)\" \(dates) value=\"\(k)\">\n"
                    + "  <MetadataEntry key=\"k\" value=\"v\"/>\n </Record>\n"
            default:
                xml += " <Record type=\"T\" sourceName=\"W\" creationDate=\"\(created)\" \(dates) value=\"\(k)\"/>\n"
            }
        }
        xml += "</HealthData>\n"
        let bytes = Array(xml.utf8)
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": try KnownRecordSkipperTests.instant("2024-03-01 00:00:00 +0100")])
        var (takenOver, voided) = (0, 0)
        for chunk in [97, 300, 1000, 4096] {
            let (expected, one) = KnownRecordSkipperTests.skipperOutput(bytes, prefilter, chunk: chunk)

            let two = SkippingOnTwoThreads(prefilter: prefilter, startingInBody: false)
            let source = FixedBytes(bytes)
            var passed: [UInt8] = []
            try ReadAhead.stream(chunkSize: chunk, filter: two, fill: { source.read(into: $0) },
                                 progress: { _ in }, consume: { passed += $0 })
            XCTAssertEqual(passed, expected, "chunk \(chunk)")
            XCTAssertEqual(two.log.totalRecords, one.recordsSkipped, "chunk \(chunk)")
            XCTAssertEqual(two.log.totalBytes, one.bytesSkipped, "chunk \(chunk)")
            // Where the parser asks: just after each top-level element passed on.
            let ends = topLevelEnds(passed)
            XCTAssertGreaterThan(ends.count, 50)
            for offset in ends {
                XCTAssertEqual(one.dropped(before: offset), two.log.before(offset), "chunk \(chunk), offset \(offset)")
            }
            takenOver += two.partsTakenOver
            voided += two.partsVoided
        }
        XCTAssertGreaterThan(takenOver, 10, "second parts filtered on the consumer's thread")
        XCTAssertGreaterThan(voided, 0, "a wrong guess, caught")
    }
}

/// Offsets just after each top-level element of `xml` (elements, no comments or CDATA).
private func topLevelEnds(_ xml: [UInt8]) -> [Int64] {
    var ends: [Int64] = []
    var depth = 0, i = 0
    var quote: UInt8? = nil
    var inTag = false, closing = false
    while i < xml.count {
        let b = xml[i]
        if let q = quote {
            if b == q { quote = nil }
        } else if inTag {
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                inTag = false
                let selfClosing = xml[i - 1] == UInt8(ascii: "/")
                if closing { depth -= 1 } else if !selfClosing { depth += 1 }
                // Depth 1: inside the root, so an element of the root's just ended.
                if (closing || selfClosing) && depth == 1 { ends.append(Int64(i + 1)) }
            }
        } else if b == UInt8(ascii: "<"), i + 1 < xml.count, xml[i + 1] != UInt8(ascii: "?") {
            inTag = true
            closing = xml[i + 1] == UInt8(ascii: "/")
        }
        i += 1
    }
    return ends
}

/// Bytes read by the read thread, a chunk at a time.
private final class FixedBytes: @unchecked Sendable {
    let bytes: [UInt8]
    private var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, progress: Int64) {
        let n = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        offset += n
        return (n, Int64(offset))
    }
}

extension KnownRecordSkipperTests {
    /// The skipper's own output (no sanitizer after it) for `bytes` fed in chunks of `chunk`,
    /// and the skipper.
    static func skipperOutput(_ bytes: [UInt8], _ prefilter: SkipperTestPrefilter, chunk: Int)
        -> (output: [UInt8], skipper: KnownRecordSkipper) {
        let skipper = KnownRecordSkipper(prefilter: prefilter, startingInBody: false)
        var output: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(chunk, bytes.count - i)
            output += bytes[i..<(i + n)].withUnsafeBytes { Array(skipper.filter(copying: $0)) }
            i += n
        }
        output += Array(skipper.finish())
        return (output, skipper)
    }

    /// Constructs no generated export holds, each step of the skipper's state machine that
    /// meets them pinned byte for byte, for any chunk size: a comment in the prolog is read
    /// past; anything else unexpected in the prolog, inside a passed element or at the top
    /// level stops skipping there; nested passed elements end in turn; a known record on
    /// CRLF lines leaves its `\r\n`s; a prolog or a known record longer than the skipper
    /// holds is passed on. In each text `%D` is a known record the skipper drops, `%K` one
    /// it passes on.
    func testRareConstructsArePassedOrDroppedAsPinned() throws {
        let old = "2024-01-01 10:00:00 +0100"
        let known = #"<Record type="T" sourceName="W" creationDate="\#(old)" value="1"/>"#
        let prefilter = SkipperTestPrefilter(cutoffs: ["T\u{1}W": try Self.instant("2024-03-01 00:00:00 +0100")])
        let multiLine = "<Record\r\n  type=\"T\" sourceName=\"W\" creationDate=\"\(old)\">\r\n  <MetadataEntry key=\"k\" value=\"v\"/>\r\n</Record>"
        let cases: [(text: String, wellFormed: Bool)] = [
            ("<?xml version=\"1.0\"?>\n<!-- a comment -->\n<HealthData>\n %D\n %D\n</HealthData>\n", true),
            ("<![CDATA[x]]>\n<HealthData>\n %K\n</HealthData>\n", false),
            ("< HealthData>\n %K\n</HealthData>\n", false),
            ("<HealthData =\"x\">\n %K\n</HealthData>\n", false),
            ("<Health>\n %K\n</Health>\n", false),
            ("<HealthData/>\n %K\n", false),
            ("<HealthData>\n %D\n <Correlation type=\"C\">\n  <!-- c -->\n  %K\n </Correlation>\n %K\n</HealthData>\n", true),
            ("<HealthData>\n %D\n <Correlation type=\"C\">\n  <MetadataEntry =\"x\"/>\n </Correlation>\n %K\n</HealthData>\n", false),
            ("<HealthData>\n %D\n <ExportDate =\"x\"/>\n %K\n</HealthData>\n", false),
            ("<HealthData>\n <Correlation type=\"C\">\n  <A>\n   <B/>\n  </A>\n </Correlation>\n %D\n</HealthData>\n", true),
            ("<HealthData>\r\n %D\r\n %M\r\n %D\r\n</HealthData>\r\n", true),
        ]
        let folder = try temporaryFolder(self)
        for (k, (text, wellFormed)) in cases.enumerated() {
            let input = text.replacingOccurrences(of: "%D", with: known).replacingOccurrences(of: "%K", with: known)
                .replacingOccurrences(of: "%M", with: multiLine)
            let expected = text.replacingOccurrences(of: "%D", with: "").replacingOccurrences(of: "%K", with: known)
                .replacingOccurrences(of: "%M", with: "\r\n\r\n\r\n")
            let dropped = text.components(separatedBy: "%D").count - 1 + text.components(separatedBy: "%M").count - 1
            for chunk in [1, 2, 3, 7, 64, 4096] {
                let (output, skipper) = Self.skipperOutput(Array(input.utf8), prefilter, chunk: chunk)
                XCTAssertEqual(String(decoding: output, as: UTF8.self), expected, "case \(k), chunk \(chunk)")
                XCTAssertEqual(skipper.recordsSkipped, dropped, "case \(k), chunk \(chunk)")
            }
            if wellFormed {
                let path = try write(input, to: "rare\(k).xml", in: folder)
                assertSame(try parse(path, prefilter, skipper: true, chunkSize: 7, batchSize: 1),
                           try parse(path, prefilter, skipper: false, batchSize: 1), "case \(k)")
            }
        }
        // Cut by a chunk's end past the most the skipper holds (`maxHeld`): a prolog, and a
        // known record, are passed on and skipping stops.
        let long = [UInt8](repeating: 0x20, count: KnownRecordSkipper.maxHeld + 2048)
        for (before, after, dropped) in [("<?xml version=\"1.0\"?>\n<!--", "-->\n<HealthData>\n %K\n</HealthData>\n", 0),
                                         ("<HealthData>\n %D\n <Record type=\"T\" sourceName=\"W\" creationDate=\"\(old)\">",
                                          "</Record>\n %K\n</HealthData>\n", 1)] {
            func bytes(_ text: String, dropping: Bool) -> [UInt8] {
                Array(text.replacingOccurrences(of: "%D", with: dropping ? "" : known).replacingOccurrences(of: "%K", with: known).utf8)
            }
            let input = bytes(before, dropping: false) + long + bytes(after, dropping: false)
            let (output, skipper) = Self.skipperOutput(input, prefilter, chunk: KnownRecordSkipper.maxHeld + 1024)
            XCTAssertTrue(output == bytes(before, dropping: true) + long + bytes(after, dropping: true), "\(dropped) dropped")
            XCTAssertEqual(skipper.recordsSkipped, dropped)
        }
    }
}
