import CLibXML2
import HealthCore

/// The attributes of one start tag as libxml2's SAX2 hands them over: five pointers per
/// attribute (localname, prefix, URI, value start, value end). Values are not
/// NUL-terminated and entity references come back as `&#38;`-style character references.
struct SAXAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    @inline(__always) func name(_ i: Int) -> ByteSpan {
        ByteSpan(cString: base![i * 5]!)
    }

    @inline(__always) func value(_ i: Int) -> ByteSpan {
        let start = base![i * 5 + 3]!
        let end = base![i * 5 + 4]!
        return ByteSpan(start: start, count: end - start)
    }
}

/// Receives parse events. A class, not a protocol, so that the C callbacks reach it through
/// one vtable call instead of an existential cast per element.
class SAXHandler {
    /// Set by the parser; lets handlers read the current line for error reports.
    var context: xmlParserCtxtPtr?
    /// A handler that must stop the parse (e.g. the job was cancelled) stores why here.
    var abortError: Error?
    /// Lines before the first byte the parser saw (a resumed parse starts mid-file).
    var lineOffset = 0

    func startElement(_ name: ByteSpan, _ attributes: SAXAttributes) {}
    func endElement(_ name: ByteSpan) {}
    func characters(_ text: ByteSpan) {}
    /// Whether `characters` is wanted. Export files hold no text, only the whitespace between
    /// elements, which libxml2 then need not check and hand over.
    var receivesText: Bool { false }

    var currentLine: Int { context.map { Int(xmlSAX2GetLineNumber($0)) + lineOffset } ?? 0 }

    func abort(_ error: Error) {
        if abortError == nil { abortError = error }
        if let context { xmlStopParser(context) }
    }
}

/// libxml2's SAX2 push parser, configured for untrusted input: no network, no DTD loading,
/// no validation, no entity substitution, huge documents allowed.
final class SAXPushParser {
    private let context: xmlParserCtxtPtr
    private let handler: SAXHandler
    private let fileName: String
    private var sanitizer: XMLSanitizer
    /// What `KnownRecordSkipper` dropped from the bytes before they were fed (incremental
    /// runs; it runs on the read thread); nil: no skipper.
    private let skipped: SkipLog?
    /// The document ended (after `finish`): everything the skipper dropped is behind the parser.
    private var finished = false
    /// The input has ended (`finish`): an error from here on means the document was cut short.
    private var ending = false
    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity = 0
    /// File offset of the first byte fed, and the length of the synthetic start that a
    /// resumed parse begins with (the parser counts it, the file does not have it there).
    private let fileBase: Int64
    private var syntheticLength: Int64 = 0
    private let resumedFrom: ResumePoint?

    /// `resumingAt`: the input fed will start at that point of the file, just inside the root
    /// element; the parser is given a synthetic `<HealthData>` first.
    /// `skipped`: the log of a `KnownRecordSkipper` that removes known top-level records from
    /// the bytes before they are fed (the file's offsets are mapped through it).
    init(handler: SAXHandler, fileName: String, resumingAt resume: ResumePoint? = nil,
         skipped: SkipLog? = nil) throws {
        sanitizer = XMLSanitizer(startingInBody: resume != nil)
        self.skipped = skipped
        fileBase = resume?.inputOffset ?? 0
        resumedFrom = resume
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        // The handler is reached without a strong reference (`_withUnsafeGuaranteedRef`): the
        // parser holds it for as long as libxml2 can call back, and `takeUnretainedValue()`
        // retained and released it around every element: about 1% of an import's CPU samples (issue 62).
        sax.startElementNs = { ctx, localname, _, _, _, _, nbAttributes, _, attributes in
            Unmanaged<SAXHandler>.fromOpaque(ctx!)._withUnsafeGuaranteedRef {
                $0.startElement(ByteSpan(cString: localname!), SAXAttributes(base: attributes, count: Int(nbAttributes)))
            }
        }
        sax.endElementNs = { ctx, localname, _, _ in
            Unmanaged<SAXHandler>.fromOpaque(ctx!)._withUnsafeGuaranteedRef { $0.endElement(ByteSpan(cString: localname!)) }
        }
        if handler.receivesText {
            sax.characters = { ctx, chars, length in
                Unmanaged<SAXHandler>.fromOpaque(ctx!)._withUnsafeGuaranteedRef {
                    $0.characters(ByteSpan(start: chars!, count: Int(length)))
                }
            }
        }
        // Errors are read from the context afterwards; never printed by libxml2 itself: not
        // through the parser's handler, nor through this thread's default, which libxml2 uses
        // for errors it raises without a parser at hand (a failed character conversion).
        sax.serror = { _, _ in }
        xmlSetStructuredErrorFunc(nil) { _, _ in }
        self.handler = handler
        self.fileName = fileName
        let user = Unmanaged.passUnretained(handler).toOpaque()
        guard let ctxt = xmlCreatePushParserCtxt(&sax, user, nil, 0, fileName) else {
            throw HealthETLError.internal("libxml2 could not create a parser")
        }
        context = ctxt
        // IGNORE_ENC: the input is UTF-8 whatever its declaration says. Exports are UTF-8, and
        // the sanitizer has already made the bytes valid UTF-8; an `encoding="ISO-8859-1"`
        // would turn every non-ASCII name into mojibake, and a multi-byte one stop the import.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_IGNORE_ENC.rawValue)
        xmlCtxtUseOptions(ctxt, options)
        // Belt and braces: even if a DTD slipped through, never load or substitute anything.
        ctxt.pointee.replaceEntities = 0
        ctxt.pointee.loadsubset = 0
        ctxt.pointee.validate = 0
        handler.context = ctxt
        scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        if let resume {
            var start = Array("<HealthData>".utf8)
            syntheticLength = Int64(start.count)
            handler.lineOffset = resume.line - 1
            try start.withUnsafeMutableBufferPointer { try push($0.baseAddress, $0.count, terminate: false) }
        }
    }

    /// Sanitized bytes the parser has consumed (inside a SAX callback: up to the event's end).
    /// The sanitizer maps this back to the file: it knows which file bytes it dropped.
    private var parsedBytes: Int64 { Int64(xmlByteConsumed(context)) - syntheticLength }

    deinit {
        xmlFreeParserCtxt(context)
        scratch.deallocate()
    }

    /// Entries the sanitizer holds to map offsets (for tests: bounded by a chunk's worth).
    var sanitizerHeldNotes: Int { sanitizer.heldNotes }

    /// What the sanitizer did, counting the part of the file before a resume point.
    var removedDoctype: Bool { resumedFrom?.removedDoctype == true || sanitizer.removedDoctype }
    var repairedBytes: Int { (resumedFrom?.repairedBytes ?? 0) + sanitizer.repairedBytes }

    /// The skipper's output offset (the sanitizer's input) of the parser's position: the skipper
    /// runs first, on the file's bytes, so what it drops is never sanitized.
    private func sanitizerInput(ofParsed parsed: Int64) -> Int64 { parsed + sanitizer.droppedBefore(output: parsed) }

    /// What the skipper dropped before the parser's position (all of it once the parse ended).
    private func skippedBeforeHere() -> SkipLog.Dropped {
        guard let skipped else { return SkipLog.Dropped() }
        return finished ? skipped.total : skipped.before(sanitizerInput(ofParsed: parsedBytes))
    }

    /// Top-level records the skipper removed before the parser's position: the handler never
    /// sees them, but counts them (records skipped by the prefilter).
    var recordsSkippedBeforeHere: Int { skippedBeforeHere().records }

    /// Top-level elements the skipper removed before the parser's position (the records and
    /// the known workouts): counted in the element ordinals as if seen.
    var elementsSkippedBeforeHere: Int { skippedBeforeHere().elements }

    /// The ingest state right here (call from a callback at the end of a top-level element,
    /// or after `finish` with `xmlComplete`). Parser offset → sanitizer input, i.e. skipper
    /// output (adding what the sanitizer dropped before it) → file (adding what the skipper
    /// dropped before that).
    func resumePoint(elementOrdinal: Int64, line: Int, xmlComplete: Bool = false) -> ResumePoint {
        let parsed = parsedBytes
        let sanitized = sanitizerInput(ofParsed: parsed)
        return ResumePoint(inputOffset: fileBase + sanitized + skippedBeforeHere().bytes,
                           elementOrdinal: elementOrdinal, line: line, inputComplete: xmlComplete,
                           removedDoctype: removedDoctype,
                           repairedBytes: (resumedFrom?.repairedBytes ?? 0) + sanitizer.repairedBefore(output: parsed))
    }

    /// Feeds one chunk of the raw input (any size).
    func feed(_ chunk: UnsafeRawBufferPointer) throws {
        // Resume points still to come lie past the parser's position, so what the sanitizer
        // noted before it is folded: its log stays about a chunk long (it notes every device
        // address it cuts).
        sanitizer.settle(upTo: parsedBytes)
        try sanitizeAndPush(chunk.bindMemory(to: UInt8.self))
    }

    private func sanitizeAndPush(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        if bytes.count + XMLSanitizer.outputSlack > scratchCapacity {
            scratch.deallocate()
            scratchCapacity = bytes.count + XMLSanitizer.outputSlack
            scratch = .allocate(capacity: scratchCapacity)
        }
        let n = sanitizer.filter(bytes, into: scratch)
        try refuseGiantTag(upcoming: UnsafeBufferPointer(start: scratch, count: n))
        // libxml2 2.9 drops what it has parsed from its buffer at the start of each parse
        // call, by moving what follows to the front: after the chunk was appended, that is the
        // whole new chunk (a megabyte moved per chunk, as many bytes as it copies in; issue
        // 62). An empty push first makes it drop the parsed bytes while only the unparsed
        // tail of the last chunk follows them, so the new chunk is appended where it stays.
        try push(nil, 0, terminate: false)
        try push(scratch, n, terminate: false)
    }

    /// libxml2 parses a tag only once it has all of it, and 2.9's duplicate-attribute check is
    /// quadratic: one start tag of 25,000 attributes took 0.4 s, 100,000 5.4 s, 1,000,000 (12
    /// MB) over 20 minutes. When the parser holds more than `watchedBytes` of one unfinished
    /// token after a chunk (no Apple tag comes near), its attributes are counted (each `=`
    /// outside quotes; each held byte once), and so are those the next chunk adds up to the
    /// tag's end, before it is handed over: a tag of more than `maximumAttributes` is refused
    /// before libxml2 parses it. A tag that starts and ends within one 1 MiB chunk has fewer
    /// (some 87,000 at the least bytes an attribute takes). A long value is no tag of many
    /// attributes: a 200 MB one is read through and its record quarantined. Apple's tags have a
    /// few dozen attributes. The check costs one subtraction a chunk until a token is that long.
    static let watchedBytes = 64 << 10
    static let maximumAttributes = 131_072
    /// The unfinished token being counted: where it starts (bytes the parser consumed before
    /// it), how much of it is counted, inside which quote, and its `=` so far.
    private var heldStart: Int64 = -1, heldCounted = 0, heldQuote: UInt8 = 0, heldEquals = 0

    private func refuseGiantTag(upcoming: UnsafeBufferPointer<UInt8>) throws {
        guard let input = context.pointee.input, let cur = input.pointee.cur, let end = input.pointee.end,
              end - cur > Self.watchedBytes else { return }
        let start = Int64(xmlByteConsumed(context))
        if start != heldStart { (heldStart, heldCounted, heldQuote, heldEquals) = (start, 0, 0, 0) }
        (heldQuote, heldEquals) = Self.count(UnsafeBufferPointer(start: cur + heldCounted, count: end - cur - heldCounted),
                                                quote: heldQuote, equals: heldEquals, stopAtTagEnd: false)
        heldCounted = end - cur
        let (_, equals) = Self.count(upcoming, quote: heldQuote, equals: heldEquals, stopAtTagEnd: true)
        guard equals > Self.maximumAttributes else { return }
        throw HealthETLError.dataUnusable("""
            \(fileName): a start tag with more than \(Self.maximumAttributes) attributes, from line \(input.pointee.line): \
            no Apple Health export holds one (a few dozen at most), so the file is refused
            """)
    }

    /// `=` outside quotes in `bytes`, from a quote state; up to the first `>` outside quotes
    /// when `stopAtTagEnd`.
    private static func count(_ bytes: UnsafeBufferPointer<UInt8>, quote start: UInt8, equals counted: Int,
                              stopAtTagEnd: Bool) -> (quote: UInt8, equals: Int) {
        var quote = start, equals = counted
        for b in bytes {
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "=") {
                equals += 1
            } else if b == UInt8(ascii: ">") && stopAtTagEnd {
                return (quote, equals)
            }
        }
        return (quote, equals)
    }

    /// Ends the document; throws if it is not complete and well-formed.
    func finish() throws {
        ending = true
        var tail = sanitizer.finish()
        try tail.withUnsafeMutableBufferPointer { try push($0.baseAddress, $0.count, terminate: true) }
        finished = true
        if context.pointee.wellFormed == 0 { try throwParseError() }
    }

    private func push(_ bytes: UnsafeMutablePointer<UInt8>?, _ count: Int, terminate: Bool) throws {
        let rc = xmlParseChunk(context, UnsafeRawPointer(bytes)?.assumingMemoryBound(to: CChar.self),
                               Int32(count), terminate ? 1 : 0)
        if let error = handler.abortError { throw error }
        if rc != 0 || context.pointee.disableSAX != 0 && context.pointee.wellFormed == 0 { try throwParseError() }
    }

    private func throwParseError() throws -> Never {
        if let error = handler.abortError { throw error }
        if let error = xmlCtxtGetLastError(context) {
            let message = error.pointee.message.map { String(cString: $0) }?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "malformed XML"
            // An error found only when the input ended (anything but junk after the root element)
            // is a document cut short: an interrupted download or copy, as a truncated zip is.
            if ending && error.pointee.code != Int32(XML_ERR_DOCUMENT_END.rawValue) {
                throw HealthETLError.dataUnusable("""
                    \(fileName): the file looks cut short: it ends inside the document, at line \(error.pointee.line), \
                    column \(error.pointee.int2) (\(message)). An interrupted download or copy? Export again from the \
                    Health app, or copy the export whole
                    """)
            }
            throw HealthETLError.dataUnusable(
                "\(fileName): not well-formed XML at line \(error.pointee.line), column \(error.pointee.int2): \(message)")
        }
        throw HealthETLError.dataUnusable("\(fileName): not well-formed XML near line \(handler.currentLine)")
    }
}

import Foundation
