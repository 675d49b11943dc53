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
import CLibXML2
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

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    printError("usage: healthetl-xmlfloor FILE")
    exit(64)
}
let path = arguments[1]
let started = now()
let fd = open(path, O_RDONLY)
guard fd >= 0 else { fail("cannot open \(path)") }

let counter = Counter()
var sax = xmlSAXHandler()
sax.initialized = UInt32(XML_SAX2_MAGIC)
sax.startElementNs = { ctx, _, _, _, _, _, _, _, _ in
    Unmanaged<Counter>.fromOpaque(ctx!).takeUnretainedValue().elements += 1
}
sax.serror = { _, _ in }
let user = Unmanaged.passUnretained(counter).toOpaque()
guard let parser = xmlCreatePushParserCtxt(&sax, user, nil, 0, path) else { fail("libxml2 could not create a parser") }
xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue | XML_PARSE_NOERROR.rawValue
    | XML_PARSE_NOWARNING.rawValue))
parser.pointee.replaceEntities = 0
parser.pointee.loadsubset = 0
parser.pointee.validate = 0

let chunkSize = 1 << 20
let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
var skipper = DoctypeSkipper()
var bytes: Int64 = 0

func push(_ pointer: UnsafeMutablePointer<UInt8>, _ count: Int, terminate: Bool) {
    let rc = pointer.withMemoryRebound(to: CChar.self, capacity: max(count, 1)) {
        xmlParseChunk(parser, $0, Int32(count), terminate ? 1 : 0)
    }
    if rc != 0 || parser.pointee.wellFormed == 0 {
        let message = xmlCtxtGetLastError(parser).flatMap { $0.pointee.message.map { String(cString: $0) } }
        fail("not well-formed XML: \(message ?? "rc \(rc)")")
    }
}

while true {
    let n = read(fd, buffer, chunkSize)
    if n < 0 { fail("read error on \(path)") }
    if n == 0 { break }
    bytes += Int64(n)
    if skipper.inBody {
        push(buffer, n, terminate: false)
    } else {
        let (written, consumed) = skipper.filterProlog(UnsafeBufferPointer(start: buffer, count: n), into: scratch)
        if written > 0 { push(scratch, written, terminate: false) }
        if consumed < n { push(buffer + consumed, n - consumed, terminate: false) }
    }
}
push(buffer, 0, terminate: true)
close(fd)
xmlFreeParserCtxt(parser)
let seconds = now() - started
let megabytesPerSecond = seconds > 0 ? Double(bytes) / 1e6 / seconds : 0
print("{\"bytes\":\(bytes),\"elements\":\(counter.elements),\"removed_doctype\":\(skipper.removed),"
    + "\"seconds\":\(seconds),\"megabytes_per_second\":\(megabytesPerSecond)}")
