import HealthCore

/// The known-record skipper's work shared by the read thread and the parse thread.
///
/// A nightly run over a re-saved export is mostly skipping: libxml2 parses little, so the
/// parse thread would wait for the read thread. Each chunk read is therefore cut in two at a
/// line that starts a top-level record (`\n <Record `, as exports indent them). The second
/// part goes at once, raw, to a second skipper on the parse thread, which filters it from
/// the top level; meanwhile the read thread's skipper filters the first part, once the
/// parse thread has handed back where its last part ended (state and held bytes). That the
/// second part starts at the top level is a guess, checked: the first part must end there
/// with nothing held. If it does not, the read thread filters the second part itself and
/// the parse thread drops its work. The parse thread notes its part's drops in the shared
/// log after the first part's. Either way the bytes passed on, and the log, are those of
/// one skipper over the whole input.
final class SkippingOnTwoThreads: ReadFilter {
    /// Chunk tags: the read side's output; a raw second part; the first part's output, after
    /// which the parse side's output of the second part comes; the first part's output, the
    /// second part being filtered on the read side after all.
    private static let plain: UInt8 = 0, piece: UInt8 = 1, outputThenPiece: UInt8 = 2, outputPieceVoid: UInt8 = 3

    /// Read side: its skipper, and the bytes read, kept apart until the parse side's end of
    /// the last part is back (they come after its held bytes).
    private let reader: KnownRecordSkipper
    private var staging: UnsafeMutableBufferPointer<UInt8> = .allocate(capacity: 1 << 16)
    /// Parse side: its skipper and the output of the part it filtered.
    private let helper: KnownRecordSkipper
    private var pieceOutput: UnsafeMutableBufferPointer<UInt8>?
    /// Bytes handed to the consumer so far: output offsets of the parse side.
    private var fed: Int64 = 0

    /// The parse side's end of a part, for the read side.
    private struct PieceEnd: Sendable {
        var state: KnownRecordSkipper.State
        var held: [UInt8]
        var outputCount: Int
        var lastPassedEnd: Int64
    }
    /// The parse side's end of each part taken over, to the read side: at most one in flight
    /// (the read side takes it before it filters the next first part).
    private let handback = Channel<PieceEnd>(capacity: 1)
    private var awaitingHandback = false

    var log: SkipLog { reader.log }
    /// Second parts the parse side's work was kept for, and dropped (for tests: read once
    /// the read thread has ended).
    private(set) var partsTakenOver = 0, partsVoided = 0

    init(prefilter: any RecordPrefilter, startingInBody: Bool, log: SkipLog = SkipLog()) {
        reader = KnownRecordSkipper(prefilter: prefilter, startingInBody: startingInBody, log: log)
        helper = KnownRecordSkipper(prefilter: prefilter, startingInBody: true)
    }

    deinit { staging.deallocate() }

    // MARK: Read side

    func inputBuffer(adding count: Int) throws -> UnsafeMutablePointer<UInt8> {
        if staging.count < count {
            staging.deallocate()
            staging = .allocate(capacity: count)
        }
        return staging.baseAddress!
    }

    func filter(added: Int, send: (UnsafeMutableBufferPointer<UInt8>, UInt8) throws -> Void) throws {
        let input = UnsafeMutableBufferPointer(rebasing: staging[0..<added])
        // The second part (from a third on: this side also reads) leaves first.
        let split = reader.isSkipping ? KnownRecordSkipper.splitPoint(in: input, from: added / 3) : nil
        if let split { try send(UnsafeMutableBufferPointer(rebasing: input[split...]), Self.piece) }
        try takeHandback()
        let first = split ?? added
        let output = reader.filter(copying: UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: input[..<first])))
        guard let split else { return try send(output, Self.plain) }
        if reader.endedAtTopLevel {
            try send(output, Self.outputThenPiece)
            awaitingHandback = true
            partsTakenOver += 1
        } else {
            try send(output, Self.outputPieceVoid)
            partsVoided += 1
            try send(reader.filter(copying: UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: input[split...]))),
                     Self.plain)
        }
    }

    func finish(send: (UnsafeMutableBufferPointer<UInt8>, UInt8) throws -> Void) throws {
        try takeHandback()
        try send(reader.finish(), Self.plain)
    }

    /// Waits for the parse side's end of the last part, and takes up from there.
    private func takeHandback() throws {
        guard awaitingHandback else { return }
        awaitingHandback = false
        guard let end = try handback.receive() else { throw ChannelCancelled() }
        end.held.withUnsafeBufferPointer {
            reader.handOver(to: end.state, held: $0, outputCount: end.outputCount, lastPassedEnd: end.lastPassedEnd)
        }
    }

    // MARK: Parse side

    func received(_ bytes: UnsafeRawBufferPointer, tag: UInt8, consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch tag {
        case Self.piece:
            pieceOutput = helper.filterPiece(bytes)
        case Self.outputThenPiece:
            guard let output = pieceOutput else { preconditionFailure("a first part's output with no second part") }
            pieceOutput = nil
            // The piece's drops go in the log after the first part's (noted before it was
            // sent) and before the read side's next ones (it waits for the handback).
            let base = fed + Int64(bytes.count)
            log.note(helper.takeDrops(at: base))
            let end = helper.pieceEnd
            try handback.send(PieceEnd(state: end.state, held: Array(end.held), outputCount: output.count,
                                       lastPassedEnd: end.lastPassedEnd))
            try feed(bytes, consume)
            try feed(UnsafeRawBufferPointer(output), consume)
        case Self.outputPieceVoid:
            pieceOutput = nil   // its drops go with it: `filterPiece` starts afresh
            try feed(bytes, consume)
        default:
            try feed(bytes, consume)
        }
    }

    private func feed(_ bytes: UnsafeRawBufferPointer, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        fed += Int64(bytes.count)
        if !bytes.isEmpty { try consume(bytes) }
    }

    func cancel() { handback.cancel() }
}
