#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore

/// A byte filter in front of the sanitizer and libxml2 for incremental runs: removes whole
/// top-level `<Record …>` elements that the prefilter says are known, and `<Workout …>`
/// elements whose id the store holds (`ExportWorkout.storeID` of four start-tag values, as the
/// SAX handler asks), so neither the sanitizer nor libxml2 ever reads them (most of a nightly
/// re-read of a cumulative export).
/// It reads the file's own bytes: a record holding a byte the sanitizer would drop or replace
/// (a control byte, broken UTF-8) is passed on whole, for the sanitizer to repair as in a run
/// without it; the root element counts as begun only where the sanitizer, too, sees the body
/// begin (past any DOCTYPE, by the sanitizer's own rule).
///
/// It makes the same decision as `ExportSAXHandler.isKnown` (attributes `type`, `sourceName`
/// or `source`, `creationDate`; the last pair's cutoff kept by bytes), and is conservative:
/// a record whose values it cannot compare byte for byte (an entity, a tab or line break that
/// XML would normalize) is passed on for the SAX-level check to decide, and on anything it
/// does not expect (a comment, PI or CDATA in the body, a tag it cannot read, a record that
/// would not be well-formed) it passes the rest of the document on untouched.
///
/// Structure: a small state machine over top-level constructs (prolog, children of the root,
/// the inside of a passed element by depth), each state read by its own method
/// (`readProlog`, `readTopLevel`, `readInside`) one construct a step, over a `Cursor` that
/// compacts the output in place. A construct cut by the end of a chunk is held
/// back, from its `<`, until the next chunk: a tag, or a whole `Record` (up to its
/// `</Record>`, so a known record is dropped whole or not at all). Nothing else is held.
///
/// A dropped element leaves its line breaks behind (libxml2's line numbers stay those of the
/// file). Dropped bytes and records are logged by output offset, so a parser offset maps back
/// to the sanitized input and the handler can count the records dropped before it; entries
/// with no passed top-level element end between them are merged, so the log stays tiny.
final class KnownRecordSkipper {
    enum State: Equatable { case prolog, top, inside(Int), passAll }
    private enum Tag { case incomplete, unexpected, tag(end: Int, selfClosing: Bool) }

    private var known: KnownRecordCheck
    private var state: State
    /// Input bytes: the held construct first, then the new chunk; output is compacted in place.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var heldStart = 0, heldCount = 0
    /// Output bytes before the current chunk.
    private var outputBefore: Int64 = 0
    /// Output offset just after the last top-level element passed on (the parser can ask
    /// there: merging log entries across such a point would change an answer).
    private var lastPassedEnd: Int64 = -1
    /// What it dropped, by output offset: written here, read by the parser (on another thread
    /// when the skipper runs on the read thread, a chunk or more ahead of it).
    let log: SkipLog
    /// The drops of the piece being filtered, noted in the log once it is done (by `filter`,
    /// or, for a piece filtered on the parse thread, by `SkippingOnTwoThreads`).
    private var drops: [SkipLog.Drop] = []
    /// A known record with children is held whole; one larger than this is passed on (and
    /// skipping stops) rather than held.
    static let maxHeld = 16 << 20

    /// Per-byte classes for scanning (a pointer, not an array: no bounds checks, no retains).
    private let classes: UnsafeMutablePointer<UInt8>
    /// 0: ends a name; 1: a name byte we accept in an element we drop; 2: any other name byte.
    private let nameClasses: UnsafeMutablePointer<UInt8>
    /// Attribute names of the tag being checked (start, length), for the duplicate check;
    /// the element names open inside a record being checked.
    private var attributeNames: UnsafeMutablePointer<Int>
    private static let maxAttributes = 64
    private var openNames: UnsafeMutablePointer<Int>
    private static let maxDepth = 16
    /// The last accepted `Record` start tag's layout, and where the strict scan notes the
    /// values' places and roles to make one.
    private var layout = RecordTagLayout()
    private var lastContent = LastRecordContent()
    private let layoutValues = UnsafeMutablePointer<Int>.allocate(capacity: 2 * RecordTagLayout.maxValues)
    private let layoutRoles = UnsafeMutablePointer<RecordTagLayout.Role>.allocate(capacity: RecordTagLayout.maxValues)

    /// Records dropped, bytes dropped (whole run).
    var recordsSkipped: Int { log.totalRecords }
    var bytesSkipped: Int64 { log.totalBytes }

    init(prefilter: any RecordPrefilter, startingInBody: Bool, log: SkipLog = SkipLog()) {
        self.log = log
        known = KnownRecordCheck(prefilter: prefilter)
        state = startingInBody ? .top : .prolog
        capacity = 1 << 16
        buffer = .allocate(capacity: capacity)
        classes = .allocate(capacity: 256)
        classes.initialize(repeating: 0, count: 256)
        classes[Int(UInt8(ascii: "\""))] = Self.quote
        classes[Int(UInt8(ascii: "'"))] = Self.quote
        classes[Int(UInt8(ascii: "<"))] = Self.lt
        classes[Int(UInt8(ascii: "&"))] = Self.amp
        classes[0x0A] = Self.lineBreak
        classes[0x0D] = Self.lineBreak
        classes[0x09] = Self.tab
        classes[0xEF] = Self.ef
        nameClasses = .allocate(capacity: 256)
        for b in 0..<256 {
            let byte = UInt8(b)
            let ends = isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
                || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "<")
            let plain = (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == 95 || b == 45 || b == 46
            nameClasses[b] = ends ? 0 : plain ? 1 : 2
        }
        attributeNames = .allocate(capacity: 2 * Self.maxAttributes)
        openNames = .allocate(capacity: 2 * Self.maxDepth)
    }

    deinit {
        buffer.deallocate()
        classes.deallocate()
        nameClasses.deallocate()
        attributeNames.deallocate()
        openNames.deallocate()
        layoutValues.deallocate()
        layoutRoles.deallocate()
    }

    private static let quote: UInt8 = 1, lt: UInt8 = 2, amp: UInt8 = 4, lineBreak: UInt8 = 8, tab: UInt8 = 16, ef: UInt8 = 32

    // MARK: Feeding

    /// Room for `count` more input bytes, right after the bytes held back from the last chunk.
    func inputBuffer(adding count: Int) -> UnsafeMutablePointer<UInt8> {
        if heldStart > 0 && heldCount > 0 { memmove(buffer, buffer + heldStart, heldCount) }
        heldStart = 0
        if heldCount + count > capacity {
            capacity = max(heldCount + count, capacity + capacity / 2)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            if heldCount > 0 { memcpy(grown, buffer, heldCount) }
            buffer.deallocate()
            buffer = grown
        }
        return buffer + heldCount
    }

    /// Filters the held bytes and the `added` bytes written after them; returns the bytes to
    /// hand to the parser (valid until the next call).
    func filter(added: Int) -> UnsafeMutableBufferPointer<UInt8> {
        let count = run(heldCount + added)
        log.note(drops)
        drops.removeAll(keepingCapacity: true)
        outputBefore += Int64(count)
        return UnsafeMutableBufferPointer(start: buffer, count: count)
    }

    /// Filters bytes held elsewhere (copied in first).
    func filter(copying bytes: UnsafeRawBufferPointer) -> UnsafeMutableBufferPointer<UInt8> {
        copyIn(bytes)
        return filter(added: bytes.count)
    }

    /// Copies `bytes` in after the held bytes (not yet counted: the caller says what they are).
    private func copyIn(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(inputBuffer(adding: bytes.count)).copyMemory(from: base, byteCount: bytes.count)
    }

    /// The end of the input: whatever is held (an incomplete construct) is passed on as is.
    func finish() -> UnsafeMutableBufferPointer<UInt8> {
        if heldStart > 0 && heldCount > 0 { memmove(buffer, buffer + heldStart, heldCount) }
        let count = heldCount
        heldStart = 0
        heldCount = 0
        state = .passAll
        outputBefore += Int64(count)
        return UnsafeMutableBufferPointer(start: buffer, count: count)
    }

    /// Input bytes, records and elements dropped before output offset `offset` (offsets asked
    /// for only grow).
    func dropped(before offset: Int64) -> SkipLog.Dropped { log.before(offset) }

    // MARK: The state machine

    /// Filters `buffer[0..<n]` in place; returns the output length and sets what is held.
    ///
    /// Each turn of the loop reads one construct in the current state (`readProlog`,
    /// `readTopLevel`, `readInside`; in `.passAll` the rest of the input), which moves the
    /// cursor on and may change the state, or stops the pass: a construct cut by the chunk's
    /// end is held, from its `<`, for the next chunk.
    private func run(_ n: Int) -> Int {
        var cursor = Cursor(bytes: buffer, count: n, outputBefore: outputBefore)
        var holdFrom = n
        while cursor.read < n {
            if case .hold(let from) = step(&cursor) {
                holdFrom = from
                break
            }
        }
        cursor.passOn(upTo: holdFrom)
        heldStart = holdFrom
        heldCount = n - holdFrom
        return cursor.written
    }

    /// What a step of the state machine asks of `run`.
    private enum Step {
        /// Go on reading from `cursor.read`, in the state the step left.
        case next
        /// Stop: the input from this index on is cut by the chunk's end, held for the next one.
        case hold(from: Int)
    }

    /// `run`'s place in the buffer. Output is compacted in place: bytes passed on stay where
    /// they are (from `passFrom`) until a drop, or the end of the pass, moves them down to
    /// `written` in one `memmove`; a chunk with nothing dropped is not moved at all.
    private struct Cursor {
        let bytes: UnsafeMutablePointer<UInt8>
        /// Input bytes in the buffer, the held ones first.
        let count: Int
        /// Output bytes before this pass (log entries are by output offset).
        let outputBefore: Int64
        /// The next input byte to read.
        var read = 0
        /// Output bytes so far, at the buffer's start.
        var written = 0
        /// Where the input passed on, and not yet moved down to `written`, starts.
        var passFrom = 0

        /// Output offset of input index `i`, when everything from `passFrom` to `i` passes.
        @inline(__always) func outputOffset(_ i: Int) -> Int64 { outputBefore + Int64(written + i - passFrom) }
        /// Output offset of the next byte written (what `outputOffset(passFrom)` is, in fewer steps).
        @inline(__always) var outputEnd: Int64 { outputBefore + Int64(written) }

        /// Moves the input passed on from `passFrom` up to `end` down to the output.
        @inline(__always) mutating func passOn(upTo end: Int) {
            let run = end - passFrom
            if run > 0 && written != passFrom { memmove(bytes + written, bytes + passFrom, run) }
            written += max(0, run)
        }

        /// Drops `bytes[start..<end]`, all before it passed on; with `lineBreaks`, its line
        /// breaks are written in its place (libxml2's line numbers stay the file's). Returns how
        /// many bytes it kept.
        @inline(__always) mutating func drop(_ start: Int, _ end: Int, keepingLineBreaks lineBreaks: Bool) -> Int {
            passOn(upTo: start)
            var kept = 0
            if lineBreaks {
                if find(0x0D, bytes, start, end) == nil {
                    // Line feeds only, the usual case: found by `memchr`.
                    var i = start
                    while let k = find(0x0A, bytes, i, end) { bytes[written] = 0x0A; written += 1; kept += 1; i = k + 1 }
                } else {
                    for i in start..<end where bytes[i] == 0x0A || bytes[i] == 0x0D { bytes[written] = bytes[i]; written += 1; kept += 1 }
                }
            }
            passFrom = end
            read = end
            return kept
        }
    }

    /// One step: the current state's reader reads the next construct.
    @inline(__always)
    private func step(_ cursor: inout Cursor) -> Step {
        switch state {
        case .passAll:
            cursor.read = cursor.count
            return .next
        case .prolog: return readProlog(&cursor)
        case .top: return readTopLevel(&cursor)
        case .inside(let depth): return readInside(depth: depth, &cursor)
        }
    }

    /// Something this filter does not expect: the rest of the document passes on untouched,
    /// for the sanitizer, libxml2 and the SAX-level check to judge.
    @inline(__always)
    private func stopSkipping() -> Step {
        state = .passAll
        return .next
    }

    /// A construct from `start` cut by the chunk's end: held for the next chunk, unless that
    /// would hold more than `maxHeld` bytes; then skipping stops instead.
    @inline(__always)
    private func holdCut(from start: Int, _ cursor: Cursor) -> Step {
        guard cursor.count - start <= Self.maxHeld else { return stopSkipping() }
        return .hold(from: start)
    }

    // MARK: The prolog

    /// Before the root element. The prolog is held whole (from the document's start; `read`
    /// only says how far it was read) until the root's start tag is complete: only then can
    /// the sanitizer after this filter be asked whether it, too, sees the body start there.
    @inline(__always)
    private func readProlog(_ cursor: inout Cursor) -> Step {
        let p = cursor.bytes, n = cursor.count
        // Ten bytes from `<` tell the constructs apart (`<!DOCTYPE` is the longest compared).
        guard let lt = find(UInt8(ascii: "<"), p, cursor.read, n), lt + 10 <= n else { return holdCut(from: 0, cursor) }
        switch p[lt + 1] {
        case UInt8(ascii: "?"):
            guard let end = findPair(UInt8(ascii: "?"), UInt8(ascii: ">"), p, lt + 2, n) else { return holdCut(from: 0, cursor) }
            cursor.read = end + 2
            // Another encoding than UTF-8: libxml2's attribute values are not our bytes.
            return declaresUTF8OrNothing(p, lt + 2, end) ? .next : stopSkipping()
        case UInt8(ascii: "!"):
            return readPastCommentOrDoctype(at: lt, &cursor)
        case let c where isNameStart(c):
            return readRootStartTag(at: lt, &cursor)
        default:
            return stopSkipping()
        }
    }

    /// A comment or the DOCTYPE at `lt` (`<!`) in the prolog, read past; any other `<!`
    /// stops skipping.
    private func readPastCommentOrDoctype(at lt: Int, _ cursor: inout Cursor) -> Step {
        let p = cursor.bytes, n = cursor.count
        let end: Int?
        if p[lt + 2] == UInt8(ascii: "-"), p[lt + 3] == UInt8(ascii: "-") {
            end = findCommentEnd(p, lt + 4, n)
        } else if matches(p + lt + 2, "DOCTYPE") {
            end = doctypeEnd(p, lt + 9, n)   // by the sanitizer's own rule (it removes it)
        } else {
            return stopSkipping()
        }
        guard let end else { return holdCut(from: 0, cursor) }
        cursor.read = end
        return .next
    }

    /// The first element's start tag, at `lt`: skipping begins after it only if it opens the
    /// `HealthData` root and the sanitizer enters the body at the same byte.
    private func readRootStartTag(at lt: Int, _ cursor: inout Cursor) -> Step {
        let p = cursor.bytes, n = cursor.count
        switch scanTag(p, lt + 1, n, strict: false) {
        case .incomplete: return holdCut(from: 0, cursor)
        case .unexpected: return stopSkipping()
        case .tag(let end, let selfClosing):
            let isRoot = nameLength(p, lt + 1, n) == 10 && matches(p + lt + 1, "HealthData")
            state = isRoot && !selfClosing && sanitizerEntersBody(p, at: lt + 1) ? .top : .passAll
            cursor.read = end
            return .next
        }
    }

    // MARK: The root's children

    /// The root's next child: a `Record` or `Workout` is read whole and dropped if known; any
    /// other element is passed on, its content read by depth (`readInside`).
    @inline(__always)
    private func readTopLevel(_ cursor: inout Cursor) -> Step {
        let p = cursor.bytes, n = cursor.count
        guard let lt = find(UInt8(ascii: "<"), p, cursor.read, n) else {
            cursor.read = n
            return .next
        }
        // `<Workout` and the byte after it: enough to tell both names from any other.
        if lt + 9 > n { return .hold(from: lt) }
        // `</HealthData>` (the end), comments, PIs, CDATA: pass the rest on.
        guard isNameStart(p[lt + 1]) else { return stopSkipping() }
        if matches(p + lt + 1, "Record") && isTagNameEnd(p[lt + 7]) { return readRecordOrWorkout(at: lt, isRecord: true, &cursor) }
        if matches(p + lt + 1, "Workout") && isTagNameEnd(p[lt + 8]) { return readRecordOrWorkout(at: lt, isRecord: false, &cursor) }
        return passStartTag(at: lt, depth: 0, &cursor)
    }

    /// A top-level `Record` or `Workout` at `lt`. Known, it is read whole (start tag, content,
    /// end tag) and dropped; cut by the chunk's end, it is held whole for the next chunk, so
    /// that it is dropped whole or not at all. Not known, it is passed on as any element.
    @inline(__always)
    private func readRecordOrWorkout(at lt: Int, isRecord: Bool, _ cursor: inout Cursor) -> Step {
        let p = cursor.bytes, n = cursor.count
        let start = isRecord ? scanRecordStart(p, lt + 7, n) : scanWorkoutStart(p, lt + 8, n)
        guard case .tag(let startEnd, let selfClosing, let known) = start else {
            if case .incomplete = start { return holdCut(from: lt, cursor) }
            return stopSkipping()
        }
        guard known else { return passedStartTag(endingAt: startEnd, selfClosing: selfClosing, depth: 0, &cursor) }
        var end = startEnd
        if !selfClosing {
            let content = isRecord ? scanKnownRecordContent(p, startEnd, n) : scanElementContent(p, startEnd, n, closing: "Workout")
            guard case .tag(let contentEnd, _) = content else {
                if case .incomplete = content { return holdCut(from: lt, cursor) }
                return stopSkipping()
            }
            end = contentEnd
        }
        // A byte in it that the sanitizer repairs: passed on whole, for the sanitizer and the
        // SAX-level check.
        if repairableInLastScan { return passedTopLevelElement(endingAt: end, &cursor) }
        let kept = cursor.drop(lt, end, keepingLineBreaks: lineBreaksInLastScan)
        drops.append(SkipLog.Drop(bytes: end - lt - kept, output: cursor.outputEnd, mergeAfter: lastPassedEnd,
                                  isRecord: isRecord))
        return .next
    }

    /// The start tag at `lt` of an element not to drop, passed on; `depth`: how many passed
    /// elements are open around it (0: it is a child of the root).
    @inline(__always)
    private func passStartTag(at lt: Int, depth: Int, _ cursor: inout Cursor) -> Step {
        switch scanTag(cursor.bytes, lt + 1, cursor.count, strict: false) {
        case .incomplete: return .hold(from: lt)
        case .unexpected: return stopSkipping()
        case .tag(let end, let selfClosing): return passedStartTag(endingAt: end, selfClosing: selfClosing, depth: depth, &cursor)
        }
    }

    /// After a start tag passed on (`depth` as for `passStartTag`): its content follows, a
    /// level deeper; or, self-closing, the element has ended there.
    @inline(__always)
    private func passedStartTag(endingAt end: Int, selfClosing: Bool, depth: Int, _ cursor: inout Cursor) -> Step {
        if selfClosing && depth == 0 { return passedTopLevelElement(endingAt: end, &cursor) }
        if !selfClosing { state = .inside(depth + 1) }
        cursor.read = end
        return .next
    }

    /// A child of the root passed on ends at `end`. The parser may ask there what was dropped
    /// before it, so drops on either side of it are not merged in the log.
    @inline(__always)
    private func passedTopLevelElement(endingAt end: Int, _ cursor: inout Cursor) -> Step {
        cursor.read = end
        lastPassedEnd = cursor.outputOffset(end)
        return .next
    }

    // MARK: Inside a passed element

    /// Inside a child of the root passed on, `depth` levels deep: its content passes on as it
    /// is; only tags are read, to find where the child ends.
    @inline(__always)
    private func readInside(depth: Int, _ cursor: inout Cursor) -> Step {
        let p = cursor.bytes, n = cursor.count
        guard let lt = find(UInt8(ascii: "<"), p, cursor.read, n) else {
            cursor.read = n
            return .next
        }
        if lt + 2 > n { return .hold(from: lt) }
        let c = p[lt + 1]
        if c == UInt8(ascii: "/") {
            guard let gt = find(UInt8(ascii: ">"), p, lt + 2, n) else { return .hold(from: lt) }
            if depth == 1 {
                state = .top
                return passedTopLevelElement(endingAt: gt + 1, &cursor)
            }
            state = .inside(depth - 1)
            cursor.read = gt + 1
            return .next
        }
        if isNameStart(c) { return passStartTag(at: lt, depth: depth, &cursor) }
        return stopSkipping()   // a comment, PI or CDATA inside an element
    }

    // MARK: Scanning

    /// Set by the strict scans: the bytes scanned held a line break.
    private var lineBreaksInLastScan = false
    /// Set by the strict scans of a record: it holds a byte the sanitizer (after this filter)
    /// drops or replaces, so it is passed on whole, for the sanitizer and the SAX-level check.
    private var repairableInLastScan = false

    /// A start tag from `start` (just after `<`). Not strict: only finds its end (quotes respected).
    /// Strict (an element about to be dropped): also checks what libxml2 would check there
    /// (names, `=`, quotes, references, no `<` in values, no duplicate attribute), and notes
    /// line breaks; anything it does not accept is `.unexpected`.
    private func scanTag(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ n: Int, strict: Bool) -> Tag {
        var attributes = 0
        return scanTag(p, start, n, strict: strict, attributes: &attributes) { _, _, _, _, _ in }
    }

    @inline(__always)
    private func scanTag(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ n: Int, strict: Bool, attributes: inout Int,
                         _ attribute: (_ name: Int, _ nameLength: Int, _ value: Int, _ valueEnd: Int, _ flags: UInt8) -> Void) -> Tag {
        var i = start
        // Element name.
        var nameBits: UInt8 = 0
        while i < n { let c = nameClasses[Int(p[i])]; if c == 0 { break }; nameBits |= c; i += 1 }
        if i == n { return .incomplete }
        if strict && !strictName(p, start, i, nameBits) { return .unexpected }
        var seen: UInt64 = 0
        attributes = 0
        while true {
            var sawSpace = false
            while i < n && isSpace(p[i]) {
                if p[i] == 0x0A || p[i] == 0x0D { lineBreaksInLastScan = true }
                sawSpace = true; i += 1
            }
            if i == n { return .incomplete }
            let b = p[i]
            if b == UInt8(ascii: ">") { return .tag(end: i + 1, selfClosing: false) }
            if b == UInt8(ascii: "/") {
                if i + 1 == n { return .incomplete }
                return p[i + 1] == UInt8(ascii: ">") ? .tag(end: i + 2, selfClosing: true) : .unexpected
            }
            guard sawSpace, isNameStart(b) else { return .unexpected }
            let nameStart = i
            nameBits = 0
            while i < n { let c = nameClasses[Int(p[i])]; if c == 0 { break }; nameBits |= c; i += 1 }
            if i == n { return .incomplete }
            let nameEnd = i
            while i < n && isSpace(p[i]) {
                if p[i] == 0x0A || p[i] == 0x0D { lineBreaksInLastScan = true }
                i += 1
            }
            if i == n { return .incomplete }
            guard p[i] == UInt8(ascii: "=") else { return .unexpected }
            i += 1
            while i < n && isSpace(p[i]) {
                if p[i] == 0x0A || p[i] == 0x0D { lineBreaksInLastScan = true }
                i += 1
            }
            if i == n { return .incomplete }
            let q = p[i]
            guard q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") else { return .unexpected }
            i += 1
            let valueStart = i
            var flags: UInt8 = 0
            if strict {
                guard strictName(p, nameStart, nameEnd, nameBits) else { return .unexpected }
                // Duplicate attributes: a 64-bit filter, names compared only on a collision.
                let length = nameEnd - nameStart
                let bit = UInt64(1) << UInt64((length &* 7 &+ Int(p[nameStart]) &+ Int(p[nameEnd - 1]) &* 3) & 63)
                if seen & bit != 0 {
                    for k in 0..<attributes where attributeNames[2 * k + 1] == length
                        && memcmp(p + attributeNames[2 * k], p + nameStart, length) == 0 { return .unexpected }
                }
                seen |= bit
                guard attributes < Self.maxAttributes else { return .unexpected }
                attributeNames[2 * attributes] = nameStart
                attributeNames[2 * attributes + 1] = length
                switch scanValue(p, i, n, quote: q) {
                case .incomplete: return .incomplete
                case .unexpected: return .unexpected
                case .value(let valueEnd, let valueFlags): i = valueEnd; flags = valueFlags
                }
            } else {
                guard let end = find(q, p, i, n) else { return .incomplete }
                i = end
            }
            attribute(nameStart, nameEnd - nameStart, valueStart, i, flags)
            attributes += 1
            i += 1
        }
    }

    private enum ValueScan { case incomplete, unexpected, value(end: Int, flags: UInt8) }

    /// An attribute value from `start` (just after its opening quote `q`): the index of its
    /// closing quote, and the classes of the bytes libxml2 would change in it (`amp`,
    /// `lineBreak`, `tab`); `.unexpected` for what libxml2 would reject (`<`, a bad
    /// reference, U+FFFE/U+FFFF). Eight bytes at a time while none is the quote, `<`, `&`, a
    /// control byte (line breaks and tabs among them) or non-ASCII.
    @inline(__always)
    private func scanValue(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ n: Int, quote q: UInt8) -> ValueScan {
        var i = start
        var flags: UInt8 = 0
        let quoteWord = UInt64(q) &* 0x0101_0101_0101_0101
        while true {
            while i + 8 <= n {
                let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                let hits = hasByte(word, quoteWord) | hasByte(word, 0x3C3C_3C3C_3C3C_3C3C)
                    | hasByte(word, 0x2626_2626_2626_2626) | hasByteBelow(word, 0x2020_2020_2020_2020)
                    | (word & highBitOfEveryByte)
                if hits == 0 { i += 8; continue }
                i += hits.trailingZeroBitCount >> 3   // the first such byte (exact for the lowest)
                break
            }
            if i == n { return .incomplete }
            let b = p[i]
            let k = classes[Int(b)]
            if k == 0 {
                // The sanitizer runs after this filter: a byte it would drop or replace
                // (a control byte, broken UTF-8) is left to it, the record passed on.
                if b >= 0x80 {
                    let length = sequenceLength(b)
                    if length > 0 && i + length > n { return .incomplete }
                    if length > 0 && (1..<length).allSatisfy({ fits(p[i + $0], at: $0, after: b) }) {
                        i += length
                        continue
                    }
                    repairableInLastScan = true
                } else if b < 0x20 {
                    repairableInLastScan = true
                }
                i += 1
                continue
            }
            if b == q { return .value(end: i, flags: flags) }
            flags |= k
            if k & Self.lt != 0 { return .unexpected }
            if k & Self.lineBreak != 0 { lineBreaksInLastScan = true }
            if k & Self.amp != 0 {
                // `&lt;` and `&gt;` (a device's description) by one compare.
                if i + 4 <= n {
                    let four = UnsafeRawPointer(p + i).loadUnaligned(as: UInt32.self)
                    if four == Self.ltReference || four == Self.gtReference { i += 4; continue }
                }
                switch checkReference(p, i, n) {
                case 0: return .incomplete
                case -1: return .unexpected
                case let length: i += length; continue
                }
            }
            if k & Self.ef != 0 {
                // U+FFFE and U+FFFF are valid UTF-8 but not XML characters.
                if i + 2 >= n { return .incomplete }
                if p[i + 1] == 0xBF && p[i + 2] >= 0xBE { return .unexpected }
                if fits(p[i + 1], at: 1, after: b), fits(p[i + 2], at: 2, after: b) { i += 3; continue }
                repairableInLastScan = true
            }
            i += 1
        }
    }

    /// `&lt;` and `&gt;` as little-endian words.
    private static let ltReference = UInt32(0x26) | UInt32(0x6C) << 8 | UInt32(0x74) << 16 | UInt32(0x3B) << 24
    private static let gtReference = UInt32(0x26) | UInt32(0x67) << 8 | UInt32(0x74) << 16 | UInt32(0x3B) << 24

    private enum RecordTag { case incomplete, unexpected, tag(end: Int, selfClosing: Bool, known: Bool) }

    /// The start tag of a top-level `Record` from just after its name: its end, and whether the
    /// prefilter knows it (the same decision as `ExportSAXHandler.isKnown`).
    private func scanRecordStart(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ n: Int) -> RecordTag {
        if layout.valueCount > 0, let tag = scanRecordStartByLayout(p, start, n) { return tag }
        lineBreaksInLastScan = false
        repairableInLastScan = false
        var type = (0, -1), source = (0, -1), created = (0, -1)
        var flags: UInt8 = 0
        var attributes = 0
        var values = 0
        let valuesFit = RecordTagLayout.maxValues
        // `Record` itself is a fine name: scan from the name's end with a zero-length name.
        let result = scanTag(p, start, n, strict: true, attributes: &attributes) { name, length, value, valueEnd, valueFlags in
            var role = RecordTagLayout.Role.none
            defer {
                if values < valuesFit {
                    layoutValues[2 * values] = value
                    layoutValues[2 * values + 1] = valueEnd
                    layoutRoles[values] = role
                }
                values += 1
            }
            if type.1 >= 0 && source.1 >= 0 && created.1 >= 0 { return }
            switch length {
            case 4 where matches(p + name, "type"): type = (value, valueEnd - value); flags |= valueFlags; role = .type
            case 10 where matches(p + name, "sourceName"), 6 where matches(p + name, "source"):
                source = (value, valueEnd - value); flags |= valueFlags; role = .source
            case 12 where matches(p + name, "creationDate"):
                created = (value, valueEnd - value); flags |= valueFlags; role = .created
            default: break
            }
        }
        switch result {
        case .incomplete: return .incomplete
        case .unexpected: return .unexpected
        case .tag(let end, let selfClosing):
            // A layout only from bytes with no line break (the layout's bytes are not scanned
            // again, and a dropped record's line breaks must be noted).
            if !lineBreaksInLastScan && !repairableInLastScan {
                layout.capture(p, start: start, end: end, selfClosing: selfClosing, values: layoutValues, roles: layoutRoles,
                               count: values)
            }
            return recordTag(p, end: end, selfClosing: selfClosing, type: type, source: source, created: created, flags: flags)
        }
    }

    /// The verdict on a record start tag read whole.
    @inline(__always)
    private func recordTag(_ p: UnsafeMutablePointer<UInt8>, end: Int, selfClosing: Bool, type: (Int, Int),
                           source: (Int, Int), created: (Int, Int), flags: UInt8) -> RecordTag {
        guard type.1 >= 0, source.1 >= 0, created.1 >= 0, reachHandlerAsRead(flags) else {
            return .tag(end: end, selfClosing: selfClosing, known: false)
        }
        return .tag(end: end, selfClosing: selfClosing, known: isKnown(p, type, source, created))
    }

    /// Whether the values the last start tag's scan read (their `flags`) are what libxml2
    /// hands the SAX handler, byte for byte: no reference, no tab or line break (attribute
    /// value normalization turns those into spaces), nothing the sanitizer repairs. Only such
    /// values may decide that an element is known.
    private func reachHandlerAsRead(_ flags: UInt8) -> Bool {
        flags & (Self.amp | Self.lineBreak | Self.tab) == 0 && !repairableInLastScan
    }

    /// The start tag of a top-level `Workout` from just after its name: its end, and whether
    /// the store holds it, by the id the SAX handler makes from the same four values
    /// (`ExportWorkout.storeID`). Only values libxml2 hands over byte for byte decide, and
    /// only one source attribute (the handler takes the last of `sourceName` and `source`).
    private func scanWorkoutStart(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ n: Int) -> RecordTag {
        lineBreaksInLastScan = false
        repairableInLastScan = false
        var activity = (0, -1), source = (0, -1), begins = (0, -1), ends = (0, -1)
        var sources = 0
        var flags: UInt8 = 0
        var attributes = 0
        let result = scanTag(p, start, n, strict: true, attributes: &attributes) { name, length, value, valueEnd, valueFlags in
            switch length {
            case 19 where matches(p + name, "workoutActivityType"): activity = (value, valueEnd - value)
            case 10 where matches(p + name, "sourceName"), 6 where matches(p + name, "source"):
                source = (value, valueEnd - value); sources += 1
            case 9 where matches(p + name, "startDate"): begins = (value, valueEnd - value)
            case 7 where matches(p + name, "endDate"): ends = (value, valueEnd - value)
            default: return
            }
            flags |= valueFlags
        }
        switch result {
        case .incomplete: return .incomplete
        case .unexpected:
            // Not one to drop; passed on as any other element is, for libxml2 to judge.
            switch scanTag(p, start, n, strict: false) {
            case .incomplete: return .incomplete
            case .unexpected: return .unexpected
            case .tag(let end, let selfClosing): return .tag(end: end, selfClosing: selfClosing, known: false)
            }
        case .tag(let end, let selfClosing):
            func span(_ value: (Int, Int)) -> ByteSpan { ByteSpan(start: p + value.0, count: value.1) }
            guard activity.1 >= 0, sources == 1, begins.1 >= 0, ends.1 >= 0, reachHandlerAsRead(flags),
                  let startDate = DateParser.parse(span(begins))?.timestamp,
                  let endDate = DateParser.parse(span(ends))?.timestamp else {
                return .tag(end: end, selfClosing: selfClosing, known: false)
            }
            let id = ExportWorkout.storeID(activityType: span(activity).string, sourceName: span(source).string,
                                           start: startDate, end: endDate)
            return .tag(end: end, selfClosing: selfClosing, known: known.prefilter.knowsWorkout(id))
        }
    }

    /// The start tag read against the layout of the last one the strict scan accepted: its
    /// separators compared byte for byte, its values scanned as the strict scan does. nil:
    /// the tag differs from the layout (or is cut by the chunk's end), read it whole.
    @inline(__always)
    private func scanRecordStartByLayout(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ n: Int) -> RecordTag? {
        lineBreaksInLastScan = false
        repairableInLastScan = false
        var type = (0, -1), source = (0, -1), created = (0, -1)
        var flags: UInt8 = 0
        var i = start
        for k in 0...layout.valueCount {
            let separator = layout.separator(k)
            guard i + separator.count <= n, bytesEqual(p + i, separator.start, separator.count) else { return nil }
            i += separator.count
            if k == layout.valueCount { break }
            guard case .value(let end, let valueFlags) = scanValue(p, i, n, quote: separator.start[separator.count - 1])
            else { return nil }
            switch layout.role(k) {
            case .none: break
            case .type: type = (i, end - i); flags |= valueFlags
            case .source: source = (i, end - i); flags |= valueFlags
            case .created: created = (i, end - i); flags |= valueFlags
            }
            i = end
        }
        return recordTag(p, end: i, selfClosing: layout.selfClosing, type: type, source: source, created: created, flags: flags)
    }

    /// Whether the sanitizer, given the prolog `p[..<nameStart]` and then the root's first name
    /// byte, enters the body exactly there: records are dropped only where both agree that the
    /// root element has begun (a DOCTYPE or a stray byte read otherwise by either passes all on).
    private func sanitizerEntersBody(_ p: UnsafeMutablePointer<UInt8>, at nameStart: Int) -> Bool {
        var probe = XMLSanitizer()
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: nameStart + 1 + XMLSanitizer.outputSlack)
        defer { scratch.deallocate() }
        _ = probe.filter(UnsafeBufferPointer(start: p, count: nameStart), into: scratch)
        guard !probe.isInBody else { return false }
        _ = probe.filter(UnsafeBufferPointer(start: p + nameStart, count: 1), into: scratch)
        return probe.isInBody
    }

    private func isKnown(_ p: UnsafeMutablePointer<UInt8>, _ type: (Int, Int), _ source: (Int, Int), _ created: (Int, Int)) -> Bool {
        // Values here hold no reference (checked by the caller): their bytes are their text.
        known.isKnown(type: ByteSpan(start: p + type.0, count: type.1), source: ByteSpan(start: p + source.0, count: source.1),
                      created: ByteSpan(start: p + created.0, count: created.1)) { $0.string }
    }

    /// `scanRecordContent`, or the content of the last record dropped if it comes again.
    private func scanKnownRecordContent(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ n: Int) -> Tag {
        if lastContent.isAt(p, start, n) {
            if lastContent.hasLineBreaks { lineBreaksInLastScan = true }
            return .tag(end: start + lastContent.count, selfClosing: false)
        }
        let inStartTag = lineBreaksInLastScan
        lineBreaksInLastScan = false
        let content = scanElementContent(p, start, n, closing: "Record")
        if case .tag(let end, _) = content, !repairableInLastScan {
            lastContent.capture(p, start: start, end: end, hasLineBreaks: lineBreaksInLastScan)
        }
        lineBreaksInLastScan = lineBreaksInLastScan || inStartTag
        return content
    }

    /// The content of a known record or workout after its start tag, up to and including its
    /// end tag (`</Record>`, `</Workout>`): elements (strictly checked, properly nested) and
    /// white space only, else `.unexpected`.
    private func scanElementContent(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ n: Int, closing: StaticString) -> Tag {
        var i = start
        var depth = 0
        while true {
            // White space up to the next `<`.
            while i < n && p[i] != UInt8(ascii: "<") {
                let b = p[i]
                if b < 0x20 && !isSpace(b) { repairableInLastScan = true; i += 1; continue }
                guard isSpace(b) else { return .unexpected }
                if b == 0x0A || b == 0x0D { lineBreaksInLastScan = true }
                i += 1
            }
            if i + 1 >= n { return .incomplete }
            if p[i + 1] == UInt8(ascii: "/") {
                let nameStart = i + 2
                var j = nameStart
                while j < n && isNameByte(p[j]) { j += 1 }
                let length = j - nameStart
                while j < n && isSpace(p[j]) {
                    if p[j] == 0x0A || p[j] == 0x0D { lineBreaksInLastScan = true }
                    j += 1
                }
                if j == n { return .incomplete }
                guard p[j] == UInt8(ascii: ">") else { return .unexpected }
                if depth == 0 {
                    guard length == closing.utf8CodeUnitCount, matches(p + nameStart, closing) else { return .unexpected }
                    return .tag(end: j + 1, selfClosing: false)
                }
                depth -= 1
                guard openNames[2 * depth + 1] == length, memcmp(p + openNames[2 * depth], p + nameStart, length) == 0
                else { return .unexpected }
                i = j + 1
            } else if isNameStart(p[i + 1]) {
                var attributes = 0
                switch scanTag(p, i + 1, n, strict: true, attributes: &attributes, { _, _, _, _, _ in }) {
                case .incomplete: return .incomplete
                case .unexpected: return .unexpected
                case .tag(let end, let selfClosing):
                    if !selfClosing {
                        guard depth < Self.maxDepth else { return .unexpected }
                        openNames[2 * depth] = i + 1
                        openNames[2 * depth + 1] = nameLength(p, i + 1, n)
                        depth += 1
                    }
                    i = end
                }
            } else {
                return .unexpected   // comment, PI, CDATA
            }
        }
    }

    /// Length of a valid reference at `i` (`&lt;`, `&#38;`, `&#x26;` …); 0: cut by the end of
    /// the buffer; -1: anything else (an undeclared entity, a character XML forbids).
    private func checkReference(_ p: UnsafeMutablePointer<UInt8>, _ i: Int, _ n: Int) -> Int {
        var j = i + 1
        let limit = min(n, i + 12)
        while j < limit && p[j] != UInt8(ascii: ";") { j += 1 }
        if j == limit { return j == n ? 0 : -1 }
        let body = UnsafeBufferPointer(start: p + i + 1, count: j - i - 1)
        let length = j - i + 1
        switch body.count {
        case 2 where (body[0] == UInt8(ascii: "l") || body[0] == UInt8(ascii: "g")) && body[1] == UInt8(ascii: "t"):
            return length
        case 3 where memcmp(body.baseAddress!, "amp", 3) == 0: return length
        case 4 where memcmp(body.baseAddress!, "quot", 4) == 0 || memcmp(body.baseAddress!, "apos", 4) == 0: return length
        default: break
        }
        guard body.count >= 2, body[0] == UInt8(ascii: "#") else { return -1 }
        var value: UInt32 = 0
        if body[1] == UInt8(ascii: "x") {
            guard body.count >= 3 else { return -1 }
            for b in body[2...] {
                let d: UInt32
                switch b {
                case 48...57: d = UInt32(b - 48)
                case 97...102: d = UInt32(b - 87)
                case 65...70: d = UInt32(b - 55)
                default: return -1
                }
                value = value &* 16 &+ d
            }
        } else {
            for b in body[1...] {
                guard b >= 48 && b <= 57 else { return -1 }
                value = value &* 10 &+ UInt32(b - 48)
            }
        }
        let allowed = value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value <= 0xD7FF)
            || (value >= 0xE000 && value <= 0xFFFD) || (value >= 0x10000 && value <= 0x10FFFF)
        return allowed ? length : -1
    }
}

@inline(__always) private func find(_ byte: UInt8, _ p: UnsafeMutablePointer<UInt8>, _ from: Int, _ n: Int) -> Int? {
    guard from < n, let hit = memchr(p + from, Int32(byte), n - from) else { return nil }
    return hit.assumingMemoryBound(to: UInt8.self) - p
}

/// False if the processing instruction `p[start..<end]` is an XML declaration naming an
/// encoding other than UTF-8.
private func declaresUTF8OrNothing(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    guard end - start >= 4, matches(p + start, "xml"), isSpace(p[start + 3]) else { return true }
    var i = start + 3
    while i + 8 <= end {
        if matches(p + i, "encoding") {
            var j = i + 8
            while j < end && (isSpace(p[j]) || p[j] == UInt8(ascii: "=")) { j += 1 }
            guard j < end, p[j] == UInt8(ascii: "\"") || p[j] == UInt8(ascii: "'") else { return false }
            let valueStart = j + 1
            guard let valueEnd = find(p[j], p, valueStart, end) else { return false }
            var name: [UInt8] = []
            for k in valueStart..<valueEnd where p[k] != UInt8(ascii: "-") && p[k] != UInt8(ascii: "_") { name.append(p[k] | 0x20) }
            return name == Array("utf8".utf8)
        }
        i += 1
    }
    return true
}

/// Index of `a` where `a b` follows, from `from`.
private func findPair(_ a: UInt8, _ b: UInt8, _ p: UnsafeMutablePointer<UInt8>, _ from: Int, _ n: Int) -> Int? {
    var i = from
    while let hit = find(a, p, i, n) {
        if hit + 1 >= n { return nil }
        if p[hit + 1] == b { return hit }
        i = hit + 1
    }
    return nil
}

/// Index just after `-->`, from `from`.
private func findCommentEnd(_ p: UnsafeMutablePointer<UInt8>, _ from: Int, _ n: Int) -> Int? {
    var i = from
    while let hit = find(UInt8(ascii: "-"), p, i, n) {
        if hit + 2 >= n { return nil }
        if p[hit + 1] == UInt8(ascii: "-") && p[hit + 2] == UInt8(ascii: ">") { return hit + 3 }
        i = hit + 1
    }
    return nil
}

/// Index just after the DOCTYPE whose keyword ends at `from`, by `XMLSanitizer`'s rule (a `>`
/// outside brackets, or after the internal subset's `]`); nil: not in `p[..<n]`.
private func doctypeEnd(_ p: UnsafeMutablePointer<UInt8>, _ from: Int, _ n: Int) -> Int? {
    var rule = XMLSyntax.DoctypeEnd()
    for i in from..<max(from, n) where rule.ends(at: p[i]) { return i + 1 }
    return nil
}

@inline(__always) private func isSpace(_ b: UInt8) -> Bool { XMLSyntax.isSpace(b) }
@inline(__always) private func isNameStart(_ b: UInt8) -> Bool { XMLSyntax.isNameStart(b) }
/// Any byte that can be part of a name here (checked properly by `strictName` where it matters).
@inline(__always) private func isNameByte(_ b: UInt8) -> Bool {
    !(isSpace(b) || b == UInt8(ascii: ">") || b == UInt8(ascii: "/") || b == UInt8(ascii: "=")
      || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || b == UInt8(ascii: "<"))
}
@inline(__always) private func isTagNameEnd(_ b: UInt8) -> Bool {
    isSpace(b) || b == UInt8(ascii: ">") || b == UInt8(ascii: "/")
}
/// A name of an element about to be dropped (`bits`: its bytes' name classes ORed): ASCII
/// letters, digits, `_ - .` only (the first byte is already known to start a name), no
/// namespace prefix (`:`), nothing starting `xml` (namespace declarations): anything else is
/// left to libxml2.
@inline(__always) private func strictName(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int, _ bits: UInt8) -> Bool {
    guard bits & 2 == 0 else { return false }
    if end - start >= 3 && (p[start] | 0x20) == UInt8(ascii: "x") && (p[start + 1] | 0x20) == UInt8(ascii: "m")
        && (p[start + 2] | 0x20) == UInt8(ascii: "l") { return false }
    return true
}

/// Bytes at `p` equal a literal (the caller knows there are enough bytes).
@inline(__always) private func matches(_ p: UnsafeMutablePointer<UInt8>, _ literal: StaticString) -> Bool {
    memcmp(p, literal.utf8Start, literal.utf8CodeUnitCount) == 0
}

private func nameLength(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ n: Int) -> Int {
    var i = start
    while i < n && isNameByte(p[i]) { i += 1 }
    return i - start
}

// MARK: Sharing the work with a second skipper (`SkippingOnTwoThreads`)

extension KnownRecordSkipper {
    /// Whether records may be skipped from here on (in the body, not passing all on).
    var isSkipping: Bool { state == .top || state.isInside }

    /// After `filter`: it ended at the top level with nothing held, so the input that follows
    /// may be filtered by a second skipper starting there.
    var endedAtTopLevel: Bool { state == .top && heldCount == 0 }

    /// Where `bytes` can be cut for a second skipper: the `<` of the first `\n <Record ` from
    /// `from` on — a top-level record as exports indent them (children are indented further);
    /// whether the state there is indeed the top level, `endedAtTopLevel` tells afterwards.
    static func splitPoint(in bytes: UnsafeMutableBufferPointer<UInt8>, from: Int) -> Int? {
        let pattern: StaticString = "\n <Record "
        let length = pattern.utf8CodeUnitCount
        guard let base = bytes.baseAddress else { return nil }
        var i = from
        while i + length <= bytes.count, let hit = memchr(base + i, 0x0A, bytes.count - i - length + 1) {
            let at = hit.assumingMemoryBound(to: UInt8.self) - base
            if memcmp(base + at, pattern.utf8Start, length) == 0 { return at + 2 }
            i = at + 1
        }
        return nil
    }

    /// The second skipper filtered the input that followed: its state, what it held at the
    /// end, its output's length and the end of the last element it passed on (counted from
    /// its output's start; 0: none) take up where it stopped.
    func handOver(to state: State, held: UnsafeBufferPointer<UInt8>, outputCount: Int, lastPassedEnd passed: Int64) {
        let base = outputBefore
        outputBefore += Int64(outputCount)
        if passed > 0 { lastPassedEnd = base + passed }
        self.state = state
        heldStart = 0
        heldCount = 0
        copyIn(UnsafeRawBufferPointer(held))
        heldCount = held.count
    }

    /// Filters a piece taken over from another skipper, which ended at the top level just
    /// before it: from that state, with offsets counted from the piece's output start, drops
    /// kept for `takeDrops` rather than noted.
    func filterPiece(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableBufferPointer<UInt8> {
        state = .top
        heldStart = 0
        heldCount = 0
        outputBefore = 0
        lastPassedEnd = 0
        drops.removeAll(keepingCapacity: true)
        copyIn(bytes)
        let count = run(bytes.count)
        return UnsafeMutableBufferPointer(start: buffer, count: count)
    }

    /// After `filterPiece`: where it stopped (state, held bytes, the last passed element's end).
    var pieceEnd: (state: State, held: UnsafeBufferPointer<UInt8>, lastPassedEnd: Int64) {
        (state, UnsafeBufferPointer(start: buffer + heldStart, count: heldCount), lastPassedEnd)
    }

    /// The piece's drops, moved to output offset `base` (their merge points no earlier than it).
    func takeDrops(at base: Int64) -> [SkipLog.Drop] {
        defer { drops.removeAll(keepingCapacity: true) }
        return drops.map { drop in
            var moved = drop
            moved.output += base
            moved.mergeAfter += base
            return moved
        }
    }
}

extension KnownRecordSkipper.State {
    var isInside: Bool { if case .inside = self { true } else { false } }
}
