// healthetl-xmlfloor: the parse floor for `make bench`.
//
// The least work our parser can do on an export on this machine: read the file in 1 MiB chunks,
// drop the `<!DOCTYPE … ]>` block (as HealthIngest's XMLSanitizer does: Apple's broken iOS 16 DTD
// stops libxml2, and without a DTD no entity can be declared), feed libxml2's SAX2 push parser with
// a handler whose startElementNs only counts elements. No entity loading or substitution
// (XML_PARSE_NONET, no XML_PARSE_NOENT), huge documents allowed. Unlike the product, the body is
// passed through unfiltered (the product also drops forbidden control bytes and bad UTF-8).
//
//   healthetl-xmlfloor FILE   →   {"bytes":…,"elements":…,"seconds":…,"megabytes_per_second":…}
//
// `--two-parsers` measures issue 35's moonshot instead: the body cut at a line that starts a
// top-level record (`\n <Record `) past the middle, each half parsed by a parser of its own on
// a thread of its own (the second inside a `<HealthData>` of its own), nothing else running.
import CLibXML2
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class Counter {
    var elements: Int64 = 0
}

/// Removes the DOCTYPE block from the prolog; passes everything after the root's start through.
struct DoctypeSkipper {
    private enum State { case prolog, doctype, internalSubset, subsetClosing, body }
    private var state = State.prolog
    private var matched = 0
    private(set) var removed = false
    private static let keyword: [UInt8] = Array("<!DOCTYPE".utf8)

    var inBody: Bool { state == .body }

    /// Filters the prolog part of `input` into `out` (room for input.count bytes); returns the
    /// bytes written and how many input bytes were consumed (all, or up to the root element).
    mutating func filterProlog(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>)
        -> (written: Int, consumed: Int) {
        var o = 0
        var i = 0
        while i < input.count && state != .body {
            let b = input[i]
            switch state {
            case .prolog:
                if b == Self.keyword[matched] {
                    matched += 1
                    i += 1
                    if matched == Self.keyword.count { state = .doctype; removed = true; matched = 0 }
                    continue
                }
                let held = matched
                for k in 0..<held { out[o] = Self.keyword[k]; o += 1 }
                matched = 0
                if held == 1 && (b >= 65 && b <= 90 || b >= 97 && b <= 122 || b == 95 || b >= 0x80) {
                    state = .body   // `<` + name: the root element starts here
                    continue
                }
                if b == Self.keyword[0] { matched = 1 } else { out[o] = b; o += 1 }
                i += 1
            case .doctype:
                if b == UInt8(ascii: "[") { state = .internalSubset } else if b == UInt8(ascii: ">") { state = .prolog }
                i += 1
            case .internalSubset:
                if b == UInt8(ascii: "]") { state = .subsetClosing }
                i += 1
            case .subsetClosing:
                if b == UInt8(ascii: ">") {
                    state = .prolog
                } else if !(b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == UInt8(ascii: "]")) {
                    state = .internalSubset
                }
                i += 1
            case .body:
                break
            }
        }
        return (o, i)
    }
}

func printError(_ message: String) {
    var line = Array("healthetl-xmlfloor: \(message)\n".utf8)
    _ = write(2, &line, line.count)
}

func fail(_ message: String) -> Never {
    printError(message)
    exit(1)
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// One SAX2 push parser over the file's bytes `[from, to)`, after `prefix` and before `suffix`,
/// in 1 MiB chunks; the DOCTYPE block dropped from a prolog it reads. Returns the elements it counted.
func parse(_ fd: Int32, path: String, from: Int64, to: Int64, prefix: String = "", suffix: String = "")
    -> (elements: Int64, removedDoctype: Bool) {
    let counter = Counter()
    var sax = xmlSAXHandler()
    sax.initialized = UInt32(XML_SAX2_MAGIC)
    sax.startElementNs = { ctx, _, _, _, _, _, _, _, _ in
        Unmanaged<Counter>.fromOpaque(ctx!)._withUnsafeGuaranteedRef { $0.elements += 1 }
    }
    sax.serror = { _, _ in }
    let user = Unmanaged.passUnretained(counter).toOpaque()
    guard let parser = xmlCreatePushParserCtxt(&sax, user, nil, 0, path) else { fail("libxml2 could not create a parser") }
    defer { xmlFreeParserCtxt(parser) }
    xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue | XML_PARSE_NOERROR.rawValue
        | XML_PARSE_NOWARNING.rawValue))
    parser.pointee.replaceEntities = 0
    parser.pointee.loadsubset = 0
    parser.pointee.validate = 0

    let chunkSize = 1 << 20
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
    defer { buffer.deallocate(); scratch.deallocate() }
    var skipper = DoctypeSkipper()

    func push(_ pointer: UnsafePointer<UInt8>, _ count: Int, terminate: Bool) {
        let rc = pointer.withMemoryRebound(to: CChar.self, capacity: max(count, 1)) {
            xmlParseChunk(parser, $0, Int32(count), terminate ? 1 : 0)
        }
        if rc != 0 || parser.pointee.wellFormed == 0 {
            let message = xmlCtxtGetLastError(parser).flatMap { $0.pointee.message.map { String(cString: $0) } }
            fail("not well-formed XML: \(message ?? "rc \(rc)")")
        }
    }
    func push(_ text: String) {
        var bytes = Array(text.utf8)
        if !bytes.isEmpty { push(&bytes, bytes.count, terminate: false) }
    }

    push(prefix)
    var at = from
    while at < to {
        let n = pread(fd, buffer, min(chunkSize, Int(to - at)), off_t(at))
        if n < 0 { fail("read error on \(path)") }
        if n == 0 { break }
        at += Int64(n)
        if skipper.inBody || from > 0 {
            push(buffer, n, terminate: false)
        } else {
            let (written, consumed) = skipper.filterProlog(UnsafeBufferPointer(start: buffer, count: n), into: scratch)
            if written > 0 { push(scratch, written, terminate: false) }
            if consumed < n { push(buffer + consumed, n - consumed, terminate: false) }
        }
    }
    push(suffix)
    push(buffer, 0, terminate: true)
    return (counter.elements, skipper.removed)
}

/// Where a line starting a top-level record begins, at or past `offset` (within the next MiB).
func recordLine(_ fd: Int32, after offset: Int64, path: String) -> Int64 {
    let window = 1 << 20
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: window)
    defer { bytes.deallocate() }
    let n = pread(fd, bytes, window, off_t(offset))
    let marker = Array("\n <Record ".utf8)
    if n > marker.count {
        for i in 0...(n - marker.count) where bytes[i] == marker[0] && memcmp(bytes + i, marker, marker.count) == 0 {
            return offset + Int64(i) + 1
        }
    }
    fail("no line starting a record in the MiB after byte \(offset) of \(path)")
}

var arguments = Array(CommandLine.arguments.dropFirst())
let twoParsers = arguments.first == "--two-parsers"
if twoParsers { arguments.removeFirst() }
guard arguments.count == 1 else {
    printError("usage: healthetl-xmlfloor [--two-parsers] FILE")
    exit(64)
}
let path = arguments[0]
let started = now()
let fd = open(path, O_RDONLY)
guard fd >= 0 else { fail("cannot open \(path)") }
var info = stat()
guard fstat(fd, &info) == 0 else { fail("cannot read \(path)") }
let bytes = Int64(info.st_size)

let elements: Int64, removedDoctype: Bool
if twoParsers {
    let cut = recordLine(fd, after: bytes / 2, path: path)
    let results = Mutex<[Int: (elements: Int64, removedDoctype: Bool)]>([:])
    DispatchQueue.concurrentPerform(iterations: 2) { half in
        let result = half == 0 ? parse(fd, path: path, from: 0, to: cut, suffix: "</HealthData>")
            : parse(fd, path: path, from: cut, to: bytes, prefix: "<HealthData>")
        results.withLock { $0[half] = result }
    }
    let (first, second) = results.withLock { ($0[0]!, $0[1]!) }
    // The second half's root is not the file's.
    (elements, removedDoctype) = (first.elements + second.elements - 1, first.removedDoctype)
} else {
    (elements, removedDoctype) = parse(fd, path: path, from: 0, to: bytes)
}
close(fd)
let seconds = now() - started
let megabytesPerSecond = seconds > 0 ? Double(bytes) / 1e6 / seconds : 0
print("{\"bytes\":\(bytes),\"elements\":\(elements),\"removed_doctype\":\(removedDoctype),\"parsers\":\(twoParsers ? 2 : 1),"
    + "\"seconds\":\(seconds),\"megabytes_per_second\":\(megabytesPerSecond)}")
