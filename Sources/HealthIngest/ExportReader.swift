import Foundation
import HealthCore

/// The ingest stage: streams an export through libxml2's SAX2 push parser and emits typed
/// batches. Runs on its own thread, with the file read (or the zip inflated) a few chunks
/// ahead on another (`ReadAhead`); `emit` blocks when downstream is busy (back-pressure).
package struct ExportReader: Sendable {
    package let source: ExportSource
    package var batchSize: Int
    package var chunkSize: Int
    /// Records it rejects are dropped unread (counted in `IngestBatch.skippedByAnchorSoFar`).
    package var prefilter: (any RecordPrefilter)?
    /// With a prefilter: drop known records from the bytes before libxml2 parses them
    /// (`KnownRecordSkipper`); off, the SAX handler alone drops them after parsing.
    var skipsKnownRecordsBeforeParsing = true

    package init(source: ExportSource, batchSize: Int = 4096, chunkSize: Int = 1 << 20,
                prefilter: (any RecordPrefilter)? = nil) {
        self.source = source
        self.batchSize = batchSize
        self.chunkSize = chunkSize
        self.prefilter = prefilter
    }

    /// What the reader saw besides the batches.
    package typealias Summary = IngestSummary

    /// Streams the export. `resumingAt`: start after that point (a run resumed from its
    /// checkpoint; `knownRoutePaths` are the route files the part before it referenced).
    package func run(resumingAt resume: ResumePoint? = nil, knownRoutePaths: [String] = [],
                    emit: @escaping (IngestBatch) throws -> Void) throws -> Summary {
        var bytesRead: Int64 = 0
        let total = source.totalBytes
        let routeFiles = RouteFileCollector(emit: emit)
        routeFiles.note(paths: knownRoutePaths)
        let handler = ExportSAXHandler(batchSize: batchSize, resumingAt: resume, prefilter: prefilter,
                                       position: { InputPosition(bytesRead: bytesRead, totalBytes: total) },
                                       emit: { batch in
                                           routeFiles.note(batch)
                                           try emit(batch)
                                       })
        var summary = Summary()
        if let resume, resume.inputComplete {
            // The whole XML is in the store already: only the route files are left.
            (summary.elements, summary.removedDoctype, summary.repairedBytes) =
                (resume.elementOrdinal, resume.removedDoctype, resume.repairedBytes)
        } else {
            // Known records are dropped from the file's bytes before the sanitizer and libxml2
            // see them (`KnownRecordSkipper`), logged for the parser's offsets.
            let skipping = (skipsKnownRecordsBeforeParsing ? prefilter : nil).map { (prefilter: $0, log: SkipLog()) }
            let parser = try SAXPushParser(handler: handler, fileName: source.displayName, resumingAt: resume,
                                           skipped: skipping?.log)
            handler.parser = parser
            do {
                let (source, offset, chunkSize) = (source, resume?.inputOffset ?? 0, chunkSize)
                // Direct I/O when the parse is the bottleneck; a run that skips known records
                // reads far faster than a disk delivers, so it reads through the page cache,
                // where a nightly run finds an export it has read before.
                if let file = try source.xmlFile(from: offset, direct: skipping == nil) {
                    // Skipping on the read thread and on this one, which has little else to do.
                    let filter = skipping.map {
                        SkippingOnTwoThreads(prefilter: $0.prefilter, startingInBody: resume != nil, log: $0.log)
                    }
                    let reader = UncheckedFileReader(file: file)   // used by the read thread alone
                    try ReadAhead.stream(chunkSize: chunkSize, filter: filter, fill: { buffer in
                        (try reader.file.read(into: buffer), reader.file.offset)
                    }, progress: { bytesRead = $0 }, consume: parser.feed)
                } else {
                    // A zip: inflating keeps the read thread busier than skipping would keep
                    // this one, so the skipper runs here.
                    let skipper = skipping.map {
                        KnownRecordSkipper(prefilter: $0.prefilter, startingInBody: resume != nil, log: $0.log)
                    }
                    try ReadAhead.stream(chunkSize: chunkSize, produce: { progress, body in
                        try source.readXML(from: offset, chunkSize: chunkSize, progress: progress, body)
                    }, progress: { bytesRead = $0 }, consume: { chunk in
                        try parser.feed(skipper.map { UnsafeRawBufferPointer($0.filter(copying: chunk)) } ?? chunk)
                    })
                    if let skipper { try parser.feed(UnsafeRawBufferPointer(skipper.finish())) }
                }
                try parser.finish()
            } catch ExportSAXHandler.Failure.notHealthExport(let root) {
                throw HealthETLError.dataUnusable(
                    "\(source.displayName): not an Apple Health export (root element is <\(root)>, expected <HealthData>)")
            }
            guard handler.sawRoot else {
                throw HealthETLError.dataUnusable("\(source.displayName): not an Apple Health export (no <HealthData> element)")
            }
            try handler.flush(xmlComplete: true)
            (summary.elements, summary.removedDoctype, summary.repairedBytes) =
                (handler.elementOrdinal, parser.removedDoctype, parser.repairedBytes)
        }
        let afterXML = InputPosition(bytesRead: total, totalBytes: total, elementOrdinal: summary.elements)
        try routeFiles.readAll(from: source, summary: &summary, position: afterXML)
        // Read after the XML, like the routes, so a resumed run (whose checkpoints all lie
        // in the XML) reads them again whole; the store keeps a recording once.
        try ECGFileCollector.readAll(from: source, summary: &summary, position: afterXML, emit: emit)
        try ClinicalFileCollector.readAll(from: source, summary: &summary, position: afterXML, emit: emit)
        return summary
    }
}

/// A file reader handed to the read-ahead thread, which alone uses it from then on.
private struct UncheckedFileReader: @unchecked Sendable {
    let file: FileReader
}

/// Collects `FileReference` paths of routes while the XML streams by, then reads those GPX
/// files (they sit beside the XML in the zip or folder).
private final class RouteFileCollector {
    private var paths: [String] = []
    private var seen: Set<String> = []
    private let emit: (IngestBatch) throws -> Void

    init(emit: @escaping (IngestBatch) throws -> Void) { self.emit = emit }

    func note(_ batch: IngestBatch) {
        note(paths: batch.workouts.flatMap { $0.routes.compactMap(\.filePath) })
    }

    func note(paths new: [String]) {
        for path in new where seen.insert(path).inserted { paths.append(path) }
    }

    func readAll(from source: ExportSource, summary: inout ExportReader.Summary, position: InputPosition) throws {
        for path in paths {
            let handler = GPXHandler()
            let parser = try SAXPushParser(handler: handler, fileName: path)
            var partsSent = 0
            // Points go to the store in parts as they are read: memory stays a part's worth.
            let send = { (isLast: Bool, abandoned: Bool) throws in
                var batch = IngestBatch()
                batch.routeFiles = [RouteFile(path: path, points: handler.points, isLast: isLast, abandoned: abandoned)]
                batch.position = position
                handler.points.removeAll(keepingCapacity: true)
                partsSent += 1
                try self.emit(batch)
            }
            let found: Bool
            do {
                found = try source.readReferencedFile(path) { chunk in
                    try parser.feed(chunk)
                    if handler.points.count >= RouteFile.partPoints { try send(false, false) }
                }
                if found { try parser.finish() }
            } catch let error as HealthETLError {
                // A broken route file loses its route, not the import: parts sent already are taken back.
                handler.points.removeAll()
                if partsSent > 0 { try send(true, true) }
                summary.routeFilesMissing.append("\(path) (\(error.description))")
                continue
            }
            guard found else { summary.routeFilesMissing.append(path); continue }
            summary.routeFilesRead += 1
            try send(true, false)
        }
    }
}
