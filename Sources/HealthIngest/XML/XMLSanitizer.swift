/// A byte filter in front of libxml2 that repairs Apple's known defects.
///
/// - The `<!DOCTYPE HealthData [ … ]>` block is removed (its newlines are kept, so line
///   numbers in error messages still match the file). iOS 16 writes a syntactically broken
///   DTD that stops libxml2 before the first record, newer exporters write elements the DTD
///   does not allow, and without a DTD no entity can be declared, so no external entity can
///   ever be loaded and no entity can expand.
/// - Control bytes XML 1.0 forbids (`\x0b` and friends) are dropped.
/// - Invalid UTF-8 bytes are replaced by `?` (libxml2 stops dead on them).
/// - The per-object address in device descriptions is cut out (`DeviceAddress`): it would
///   send libxml2 down its slow path for every record, and the handler drops it anyway. A
///   value cut by the chunk's end is passed on whole, for the handler to strip.
///
/// One pass over a chunk that is already in cache; ASCII takes a two-compare fast path.
struct XMLSanitizer {
    private enum State { case prolog, doctype, body }
    private var state = State.prolog
    /// The end of a DOCTYPE being removed (`XMLSyntax.DoctypeEnd`, the skipper's rule too).
    private var doctypeEnd = XMLSyntax.DoctypeEnd()
    /// Bytes of the `<!DOCTYPE` keyword matched so far while in the prolog.
    private var keywordMatched = 0
    /// A UTF-8 sequence cut by the previous chunk boundary.
    private var pending: [UInt8] = []
    private(set) var removedDoctype = false
    /// Past the prolog (and any DOCTYPE): inside the root element's start tag or after it.
    var isInBody: Bool { state == .body }
    var repairedBytes: Int { Int(repaired.total) }
    /// Output bytes before the current chunk; input bytes dropped (not passed on one for one)
    /// and repairs, by output offset: map a parser offset back to the file and tell what was
    /// repaired before it (the filter runs a whole chunk ahead of the parser).
    private var outputBefore: Int64 = 0
    private var dropped = OffsetLog()
    private var repaired = OffsetLog()

    /// A `StaticString`, not an array: a static array is initialized lazily, and the check
    /// for that ran at every byte the fast path passed on.
    private static let keywordText: StaticString = "<!DOCTYPE"
    @inline(__always) private static var keyword: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: keywordText.utf8Start, count: keywordText.utf8CodeUnitCount)
    }

    /// `startingInBody`: the input starts inside the root element (a resumed parse).
    init(startingInBody: Bool = false) {
        if startingInBody { state = .body }
    }

    /// Input bytes dropped before output offset `offset` (offsets asked for only grow).
    mutating func droppedBefore(output offset: Int64) -> Int64 { dropped.before(offset) }
    mutating func repairedBefore(output offset: Int64) -> Int { Int(repaired.before(offset)) }
    /// Entries held in the logs (for tests: they must not grow with the input).
    var heldNotes: Int { dropped.held + repaired.held }
    /// Folds what was noted up to output offset `offset`: no later question asks about an earlier one.
    mutating func settle(upTo offset: Int64) {
        _ = dropped.before(offset)
        _ = repaired.before(offset)
    }

    /// One repair at output position `o` of the current chunk that used `dropping` more input bytes than it wrote.
    private mutating func repair(at o: Int, dropping: Int) {
        repaired.note(1, at: outputBefore + Int64(o))
        dropped.note(dropping, at: outputBefore + Int64(o))
    }

    /// Room the output needs beyond the input's size. Output can run ahead of input: a
    /// `<!DOCTYPE` prefix held over from the last chunk and then broken is written out (up to
    /// 8 bytes), as is a UTF-8 sequence completed across the boundary (3); and the fast path
    /// stores whole 8- and 16-byte blocks past the last byte it keeps.
    static let outputSlack = 32

    /// Filters `input` into `out`, which must have room for `input.count + outputSlack`
    /// bytes. Returns the number of bytes written.
    mutating func filter(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let o = filterChunk(input, into: out)
        outputBefore += Int64(o)
        return o
    }

    private mutating func filterChunk(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var o = 0
        var i = 0
        let count = input.count
        guard let src = input.baseAddress else { return 0 }
        if !pending.isEmpty {
            // Continue the cut sequence from the new chunk's first bytes, by the same rule as
            // an uncut one (`maximalSubpart`): where bytes are cut must not change the text.
            let need = sequenceLength(pending[0])
            while pending.count < need && i < count && fits(src[i], at: pending.count, after: pending[0]) {
                pending.append(src[i]); i += 1
            }
            if pending.count < need && i == count { return 0 }   // still cut: wait for more
            if pending.count == need {
                for b in pending { out[o] = b; o += 1 }
            } else {
                repair(at: o, dropping: pending.count - 1)
                out[o] = UInt8(ascii: "?"); o += 1
            }
            pending = []
        }
        // Locals, not static lets: a static of a SIMD type is initialized lazily, checked at
        // every use.
        let printable = SIMD16<Int8>(repeating: 0x20), ampersand = SIMD16<Int8>(repeating: 0x26)
        while i < count {
            if state == .body {
                // Sixteen bytes at a time while they are all printable ASCII other than `&`
                // (most of a file). As signed bytes, everything from 0x80 up is negative, so
                // one compare finds control bytes and non-ASCII alike. Thirty-two a round first:
                // one test and one step for two blocks, and wrapping steps (`i` and `o` stay
                // within the buffers), where the checked ones cost half the loop.
                while i &+ 32 <= count {
                    let low = UnsafeRawPointer(src + i).loadUnaligned(as: SIMD16<Int8>.self)
                    let high = UnsafeRawPointer(src + (i &+ 16)).loadUnaligned(as: SIMD16<Int8>.self)
                    if any((low .< printable) .| (low .== ampersand) .| (high .< printable) .| (high .== ampersand)) { break }
                    UnsafeMutableRawPointer(out + o).storeBytes(of: low, as: SIMD16<Int8>.self)
                    UnsafeMutableRawPointer(out + (o &+ 16)).storeBytes(of: high, as: SIMD16<Int8>.self)
                    i &+= 32; o &+= 32
                }
                while i + 16 <= count {
                    let block = UnsafeRawPointer(src + i).loadUnaligned(as: SIMD16<Int8>.self)
                    if any((block .< printable) .| (block .== ampersand)) { break }
                    UnsafeMutableRawPointer(out + o).storeBytes(of: block, as: SIMD16<Int8>.self)
                    i += 16; o += 16
                }
                // Then eight at a time, up to the first byte that needs a look: the lowest
                // flagged byte of a word is exact (`ByteWord.swift`).
                while i + 8 <= count {
                    let word = UnsafeRawPointer(src + i).loadUnaligned(as: UInt64.self)
                    UnsafeMutableRawPointer(out + o).storeBytes(of: word, as: UInt64.self)
                    let look = Self.lookMask(word)
                    if look != 0 {
                        let clean = look.trailingZeroBitCount / 8
                        i += clean; o += clean
                        break
                    }
                    i += 8; o += 8
                }
                if i == count { break }
            }
            let b = src[i]
            if state == .body && b >= 0x20 && b < 0x80 {
                if b == UInt8(ascii: "&"), let device = DeviceAddress.match(src, at: i, count: count) {
                    o = keepRest(of: device, from: src, at: i, into: out, o)
                    i = device.quote
                    continue
                }
                out[o] = b; o += 1; i += 1
                continue
            }
            switch state {
            case .body:
                break
            case .prolog:
                // Bytes that may start `<!DOCTYPE` are held back until the keyword is
                // complete (then dropped) or broken (then written).
                if b == Self.keyword[keywordMatched] {
                    keywordMatched += 1
                    i += 1
                    if keywordMatched == Self.keyword.count {
                        state = .doctype
                        doctypeEnd = XMLSyntax.DoctypeEnd()
                        removedDoctype = true
                        keywordMatched = 0
                        dropped.note(Self.keyword.count, at: outputBefore + Int64(o))
                    }
                    continue
                }
                let held = keywordMatched
                for k in 0..<held { out[o] = Self.keyword[k]; o += 1 }
                keywordMatched = 0
                if held == 1 && isNameStart(b) {
                    state = .body   // `<` + name: the root element; no DOCTYPE can follow
                } else if b == Self.keyword[0] {
                    keywordMatched = 1
                    i += 1
                    continue
                }
            case .doctype:
                if doctypeEnd.ends(at: b) { state = .prolog }
                if b == UInt8(ascii: "\n") { out[o] = b; o += 1 } else { dropped.note(1, at: outputBefore + Int64(o)) }
                i += 1
                continue
            }
            if b < 0x20 {
                if b == 0x09 || b == 0x0A || b == 0x0D {
                    out[o] = b; o += 1
                } else {
                    repair(at: o, dropping: 1)
                }
                i += 1
                continue
            }
            if b < 0x80 { out[o] = b; o += 1; i += 1; continue }
            // A lead byte and as many bytes after it as can still make a valid sequence (the
            // "maximal subpart" of Unicode's substitution practice): complete, it passes; cut
            // by the chunk's end, it waits for the next chunk; broken, it becomes one `?` and
            // the byte that broke it is looked at anew.
            let n = sequenceLength(b)
            let valid = maximalSubpart(src + i, available: count - i, length: n)
            if valid == n {
                for k in 0..<n { out[o + k] = src[i + k] }
                o += n; i += n
            } else if n > 0 && i + valid == count {   // only a lead byte waits for more
                pending = Array(UnsafeBufferPointer(start: src + i, count: valid))
                break
            } else {
                repair(at: o, dropping: valid - 1)
                out[o] = UInt8(ascii: "?"); o += 1; i += valid
            }
        }
        return o
    }

    /// Writes what is kept of a device value at `out + o` and notes the address before it and
    /// the brackets after it as dropped; returns the new output count.
    private mutating func keepRest(of device: DeviceAddress.Match, from src: UnsafePointer<UInt8>, at i: Int,
                                   into out: UnsafeMutablePointer<UInt8>, _ o: Int) -> Int {
        dropped.note(device.rest.lowerBound - i, at: outputBefore + Int64(o))
        (out + o).update(from: src + device.rest.lowerBound, count: device.rest.count)
        let end = o + device.rest.count
        dropped.note(device.quote - device.rest.upperBound, at: outputBefore + Int64(end))
        return end
    }

    /// Nonzero if a byte of `word` is below 0x20 or above 0x7F, or an `&`; its lowest set
    /// bit is in the first such byte (`ByteWord.swift`).
    @inline(__always) private static func lookMask(_ word: UInt64) -> UInt64 {
        (word & highBitOfEveryByte) | hasByteBelow(word, 0x2020_2020_2020_2020) | hasByte(word, 0x2626_2626_2626_2626)
    }


    /// Counts noted at output offsets (the DOCTYPE, stray control bytes, one or two per device
    /// address cut). Entries at or before an offset that was asked for fold into one total, and
    /// the parser settles the log at every chunk, so it holds about a chunk's worth.
    private struct OffsetLog {
        private var entries: [(output: Int64, total: Int64)] = []
        private var settled: Int64 = 0
        private(set) var total: Int64 = 0
        var held: Int { entries.count }

        mutating func note(_ count: Int, at output: Int64) {
            guard count > 0 else { return }
            total += Int64(count)
            if let last = entries.last, last.output == output {
                entries[entries.count - 1].total = total
            } else {
                entries.append((output, total))
            }
        }

        mutating func before(_ offset: Int64) -> Int64 {
            var folded = 0
            while folded < entries.count, entries[folded].output <= offset { settled = entries[folded].total; folded += 1 }
            if folded > 0 { entries.removeFirst(folded) }
            return settled
        }
    }

    /// What is left at the end of the input: a cut sequence becomes `?`.
    mutating func finish() -> [UInt8] {
        defer { pending = [] }
        if pending.isEmpty { return [] }
        repaired.note(1, at: outputBefore)
        return [UInt8(ascii: "?")]
    }
}

@inline(__always) private func isContinuation(_ b: UInt8) -> Bool { b & 0xC0 == 0x80 }
@inline(__always) private func isNameStart(_ b: UInt8) -> Bool { XMLSyntax.isNameStart(b) }
@inline(__always) func sequenceLength(_ lead: UInt8) -> Int {
    switch lead {
    case 0xC2...0xDF: 2
    case 0xE0...0xEF: 3
    case 0xF0...0xF4: 4
    default: 0
    }
}
/// Whether `byte` can stand at position `k` (1…3) of a sequence that starts with `lead`:
/// a continuation byte, and after four leads only those that keep the scalar in range (no
/// overlong forms, no UTF-16 surrogates, nothing past U+10FFFF).
@inline(__always) func fits(_ byte: UInt8, at k: Int, after lead: UInt8) -> Bool {
    guard isContinuation(byte) else { return false }
    guard k == 1 else { return true }
    switch lead {
    case 0xE0: return byte >= 0xA0
    case 0xED: return byte < 0xA0
    case 0xF0: return byte >= 0x90
    case 0xF4: return byte < 0x90
    default: return true
    }
}
/// How many bytes from `p` (a non-ASCII byte; `length`: the length of the sequence it leads,
/// 0 if it leads none) are replaced together when they do not make a whole valid sequence: the
/// valid start of its sequence, looking at no more than `available` bytes, or the byte alone.
@inline(__always) private func maximalSubpart(_ p: UnsafePointer<UInt8>, available: Int, length: Int) -> Int {
    var k = 1
    while k < length && k < available && fits(p[k], at: k, after: p[0]) { k += 1 }
    return k
}
