import Foundation
import XCTest
@testable import HealthCore
@testable import HealthIngest
import TestSupport

/// A parse resumed from any batch's resume point yields exactly the rest of the export:
/// the same records, with the same line numbers and element ordinals, as one straight pass.
/// Covers what moves file offsets away from parser offsets: the removed (broken) DOCTYPE,
/// dropped control bytes, and a zip entry that cannot seek.
final class ResumeIngestTests: XCTestCase {
    /// Every record of a parse as one comparable line, and the resume point after each batch
    /// with the number of records before it.
    func parse(_ path: String, from resume: ResumePoint? = nil, knownRoutes: [String] = [])
        throws -> (records: [String], points: [(ResumePoint, Int)], routes: [String], summary: ExportReader.Summary) {
        let box = BatchBox()
        let summary = try ExportReader(source: ExportSource(path: path), batchSize: 50)
            .run(resumingAt: resume, knownRoutePaths: knownRoutes) { box.batches.append($0) }
        var records: [String] = [], points: [(ResumePoint, Int)] = [], routes: [String] = []
        for batch in box.batches {
            for r in batch.records {
                records.append("\(r.line) \(r.type) \(r.startDate?.microseconds ?? 0) \(r.value ?? "-") \(r.metadata.count)")
            }
            for w in batch.workouts { records.append("workout \(w.activityType) \(w.startDate?.microseconds ?? 0)") }
            routes += batch.routeFiles.map { "\($0.path) \($0.points.count)" }
            if let p = batch.position.resume { points.append((p, records.count)) }
        }
        return (records, points, routes, summary)
    }

    func assertEveryResumeMatches(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let whole = try parse(path)
        XCTAssertGreaterThan(whole.points.count, 10, file: file, line: line)
        XCTAssertTrue(whole.points.last!.0.inputComplete, file: file, line: line)
        for (point, before) in whole.points where !point.inputComplete {
            // The byte at the resume offset follows a complete element.
            let rest = try parse(path, from: point)
            XCTAssertEqual(rest.records, Array(whole.records[before...]), "resumed at \(point)", file: file, line: line)
            XCTAssertEqual(rest.summary.elements, whole.summary.elements, file: file, line: line)
            XCTAssertEqual(rest.summary.removedDoctype, whole.summary.removedDoctype, file: file, line: line)
            XCTAssertEqual(rest.summary.repairedBytes, whole.summary.repairedBytes, file: file, line: line)
        }
    }

    func testResumeInPlainXMLWithBrokenDoctypeAndControlBytes() throws {
        let dir = try temporaryFolder(self)
        let path = dir.appendingPathComponent("export.xml").path
        try generateExport(["--out", path, "--days", "3", "--seed", "11", "--broken-dtd", "--vertical-tabs"])
        let whole = try parse(path)
        XCTAssertGreaterThan(whole.summary.repairedBytes, 0, "the fixture must contain dropped control bytes")
        XCTAssertTrue(whole.summary.removedDoctype)
        // The resume offsets point right after a '>' in the file itself.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for (p, _) in whole.points where !p.inputComplete {
            XCTAssertEqual(bytes[Int(p.inputOffset) - 1], UInt8(ascii: ">"), "offset \(p.inputOffset)")
        }
        try assertEveryResumeMatches(path)
    }

    func testResumeInsideZipWithRoutes() throws {
        let dir = try temporaryFolder(self)
        let path = dir.appendingPathComponent("export.zip").path
        try generateExport(["--out", path, "--days", "3", "--seed", "12", "--layout", "zip"])
        try assertEveryResumeMatches(path)
        // Resuming after the XML reads only the route files, those named before included.
        let whole = try parse(path)
        XCTAssertFalse(whole.routes.isEmpty, "the fixture must have route files")
        let end = whole.points.last!.0
        let names = whole.routes.map { String($0.split(separator: " ")[0]) }
        let rest = try parse(path, from: end, knownRoutes: names)
        XCTAssertEqual(rest.records, [])
        XCTAssertEqual(rest.routes, whole.routes)
    }
}
