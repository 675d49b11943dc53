/// A pipeline stage in the spirit of SwiftNIO's `ChannelInboundHandler`: it declares the
/// type it consumes and the type it produces and knows nothing else of its neighbours.
///
/// Handlers are driven batch by batch. `emit` hands a value to whatever follows (another
/// handler on the same thread, or a channel to another thread), so a stage never learns
/// how it is wired.
public protocol StageHandler {
    associatedtype InboundIn
    associatedtype InboundOut

    /// `input` is the handler's own: it may move the batch's values on instead of copying them.
    mutating func handle(_ input: consuming InboundIn, emit: (consuming InboundOut) throws -> Void) throws
    /// Called once after the last input: flush whatever is buffered.
    mutating func finish(emit: (consuming InboundOut) throws -> Void) throws
}

extension StageHandler {
    public mutating func finish(emit: (consuming InboundOut) throws -> Void) throws {}

    /// Runs `next` right after `self` on the same thread (no channel between them).
    public func then<Next: StageHandler>(_ next: Next) -> FusedStages<Self, Next>
    where Next.InboundIn == InboundOut {
        FusedStages(first: self, second: next)
    }

    /// Consumes `input` until it is finished, passing results to `output`; finishes `output`.
    public mutating func pump(from input: Channel<InboundIn>, to output: Channel<InboundOut>) throws
    where InboundIn: Sendable, InboundOut: Sendable {
        while let batch = try input.receive() {
            try handle(consume batch, emit: output.send)   // the handler's alone: it may move what it holds
        }
        try finish(emit: output.send)
        output.finish()
    }
}

/// Two handlers run back to back on one thread.
public struct FusedStages<First: StageHandler, Second: StageHandler>: StageHandler
where First.InboundOut == Second.InboundIn {
    public var first: First
    public var second: Second

    public mutating func handle(_ input: consuming First.InboundIn, emit: (consuming Second.InboundOut) throws -> Void) throws {
        try first.handle(consume input) { (batch: consuming First.InboundOut) in try second.handle(consume batch, emit: emit) }
    }

    public mutating func finish(emit: (consuming Second.InboundOut) throws -> Void) throws {
        try first.finish { try second.handle($0, emit: emit) }
        try second.finish(emit: emit)
    }
}
