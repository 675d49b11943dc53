import Foundation
import HealthCore

/// Reads (or inflates) the input on a thread of its own, a few chunks ahead of the parser.
///
/// The parse thread is the load's bottleneck: every `read` copy, and for a zip all of the
/// inflate (about a second per GB), would otherwise run on it. The chunks circulate between
/// the two threads through a pair of channels and are allocated once, so memory stays at
/// `depth + 1` chunks and no fresh page is touched per chunk.
enum ReadAhead {
    /// A chunk's buffer, owned by one thread at a time (handed over through a channel).
    private final class Chunk: @unchecked Sendable {
        private(set) var storage: UnsafeMutableRawBufferPointer
        var count = 0
        /// What `produce` last reported as consumed from the input, for progress.
        var progress: Int64 = 0
        /// The filter's word on how the consumer's side takes these bytes.
        var tag: UInt8 = 0
        init(capacity: Int) { storage = .allocate(byteCount: capacity, alignment: FileReader.alignment) }
        deinit { storage.deallocate() }
        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<count]) }

        /// Holds `bytes` (a filter's output can be longer than a chunk: what it held back before).
        func fill(with bytes: UnsafeMutableBufferPointer<UInt8>) {
            if bytes.count > storage.count {
                storage.deallocate()
                storage = .allocate(byteCount: bytes.count, alignment: FileReader.alignment)
            }
            count = bytes.count
            if let base = bytes.baseAddress { storage.baseAddress!.copyMemory(from: base, byteCount: count) }
        }
    }

    /// A filter shared by the two threads: its read side runs on the read thread, its
    /// consumer side on the consumer's (`ReadFilter` keeps them apart).
    private struct SharedFilter: @unchecked Sendable {
        let filter: any ReadFilter
    }

    /// Runs `produce` (which reports progress and passes out bytes, like `ExportSource.readXML`)
    /// on a new thread and hands the same bytes, in order, to `consume` on this one, after
    /// giving `progress` the position the producer had reached for them. The first error of
    /// either side stops both; the consumer's own error wins, a producer's error comes after
    /// the bytes it produced before it. The bytes are copied into the chunks (a zip's inflated
    /// output comes in the inflater's own buffer).
    static func stream(chunkSize: Int, depth: Int = 4,
                       produce: @escaping @Sendable (_ progress: (Int64) -> Void,
                                                     _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Void,
                       progress: (Int64) -> Void, consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        try run(chunkSize: chunkSize, depth: depth, producer: { empty, filled in
            var reached: Int64 = 0
            try produce({ reached = $0 }) { bytes in
                var rest = bytes
                while !rest.isEmpty {
                    guard let chunk = try empty.receive() else { throw ChannelCancelled() }
                    chunk.count = min(rest.count, chunk.storage.count)
                    chunk.storage.baseAddress!.copyMemory(from: rest.baseAddress!, byteCount: chunk.count)
                    chunk.progress = reached
                    try filled.send(chunk)
                    rest = UnsafeRawBufferPointer(rebasing: rest[chunk.count...])
                }
            }
        }, progress: progress, consume: consume)
    }

    /// The same for an input that reads straight into the chunks (a file: `FileReader`, no
    /// copy): `fill` puts the next bytes at the start of the buffer it gets and returns how many
    /// (0 at the end) and the input position reached. Chunks are aligned for direct I/O. With
    /// a `filter`, the input is read into the filter's buffer instead and the chunks carry
    /// what its read side sends.
    static func stream(chunkSize: Int, depth: Int = 4, filter: (any ReadFilter)? = nil,
                       fill: @escaping @Sendable (UnsafeMutableRawBufferPointer) throws -> (count: Int, progress: Int64),
                       progress: (Int64) -> Void, consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let shared = filter.map(SharedFilter.init)
        try run(chunkSize: chunkSize, depth: depth, filter: filter, producer: { empty, filled in
            if let filter = shared?.filter {
                // Read into the filter's own buffer, after what it held back; hand on its output.
                while true {
                    let input = try filter.inputBuffer(adding: chunkSize)
                    let (count, reached) = try fill(UnsafeMutableRawBufferPointer(start: input, count: chunkSize))
                    let send = { (bytes: UnsafeMutableBufferPointer<UInt8>, tag: UInt8) throws in
                        try Self.send(bytes, tag: tag, progress: reached, empty: empty, filled: filled)
                    }
                    if count == 0 { return try filter.finish(send: send) }
                    try filter.filter(added: count, send: send)
                }
            }
            while true {
                guard let chunk = try empty.receive() else { throw ChannelCancelled() }
                (chunk.count, chunk.progress) = try fill(chunk.storage)
                if chunk.count == 0 { return }
                try filled.send(chunk)
            }
        }, progress: progress, consume: consume)
    }

    /// Hands `bytes` on in the next empty chunk (no chunk for no bytes with tag 0).
    private static func send(_ bytes: UnsafeMutableBufferPointer<UInt8>, tag: UInt8, progress: Int64,
                             empty: Channel<Chunk>, filled: Channel<Chunk>) throws {
        guard !bytes.isEmpty || tag != 0 else { return }
        guard let chunk = try empty.receive() else { throw ChannelCancelled() }
        chunk.fill(with: bytes)
        chunk.progress = progress
        chunk.tag = tag
        try filled.send(chunk)
    }

    /// The two threads and the chunks circulating between them; `producer` takes empty chunks
    /// and sends them on filled.
    private static func run(chunkSize: Int, depth: Int, filter: (any ReadFilter)? = nil,
                            producer: @escaping @Sendable (_ empty: Channel<Chunk>, _ filled: Channel<Chunk>) throws -> Void,
                            progress: (Int64) -> Void, consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let filled = Channel<Chunk>(capacity: depth)
        let empty = Channel<Chunk>(capacity: depth + 1)
        for _ in 0...depth { try empty.send(Chunk(capacity: max(chunkSize, 1))) }
        let producerError = Handoff<any Error>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            do {
                try producer(empty, filled)
            } catch {
                producerError.set(error)
            }
            filled.finish()
        }
        thread.name = "read"
        thread.stackSize = 1 << 20
        thread.start()
        do {
            while let chunk = try filled.receive() {
                progress(chunk.progress)
                if let filter { try filter.received(chunk.bytes, tag: chunk.tag, consume: consume) } else { try consume(chunk.bytes) }
                try empty.send(chunk)
            }
        } catch {
            filled.cancel()
            empty.cancel()
            filter?.cancel()
            done.wait()
            throw error
        }
        done.wait()
        if let error = producerError.value { throw error }
    }
}

/// Work done on the input between the read and the consumer (the known-record skipper). Its
/// read side runs on the read thread: the input is written into its buffer, after whatever
/// it held back from the last piece, and it sends on pieces, each with a tag. Its consumer
/// side gets them, in order, on the consumer's thread, and passes bytes on to the consumer
/// (tag 0: as they are). The two sides share nothing but what they hand each other.
protocol ReadFilter: AnyObject {
    /// Room for `count` more input bytes.
    func inputBuffer(adding count: Int) throws -> UnsafeMutablePointer<UInt8>
    /// Filters the `added` bytes written into the input buffer (and what it held back).
    func filter(added: Int, send: (UnsafeMutableBufferPointer<UInt8>, _ tag: UInt8) throws -> Void) throws
    /// The end of the input: what it still holds.
    func finish(send: (UnsafeMutableBufferPointer<UInt8>, _ tag: UInt8) throws -> Void) throws
    /// On the consumer's thread: a piece the read side sent.
    func received(_ bytes: UnsafeRawBufferPointer, tag: UInt8, consume: (UnsafeRawBufferPointer) throws -> Void) throws
    /// The consumer stopped: a read side waiting for it must not wait any longer.
    func cancel()
}
