import Foundation

/// A bounded, blocking, single-consumer queue between two stage threads.
///
/// Stages pass *batches*, so one lock round-trip moves thousands of records. `send` blocks
/// while the channel is full (back-pressure: a fast parser cannot run ahead of the SQLite
/// writer and fill memory). `cancel` wakes both sides so that a failing stage stops the
/// whole job instead of leaving a peer blocked forever.
public final class Channel<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer: [Element?]
    private var head = 0
    private var count = 0
    private var finished = false
    private var cancelled = false
    public let capacity: Int

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        buffer = Array(repeating: nil, count: capacity)
    }

    /// Blocks while full. Throws `ChannelCancelled` once the job is being torn down.
    public func send(_ element: consuming Element) throws {
        condition.lock()
        defer { condition.unlock() }
        while count == capacity && !cancelled { condition.wait() }
        if cancelled { throw ChannelCancelled() }
        precondition(!finished, "send after finish")
        buffer[(head + count) % capacity] = element
        count += 1
        condition.broadcast()
    }

    /// The next element, or `nil` once the producer finished and everything was taken.
    public func receive() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !finished && !cancelled { condition.wait() }
        if cancelled { throw ChannelCancelled() }
        guard count > 0 else { return nil }
        let element = buffer[head]
        buffer[head] = nil
        head = (head + 1) % capacity
        count -= 1
        condition.broadcast()
        return element
    }

    /// The producer is done: the consumer drains what is left, then gets `nil`.
    public func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Tear down: pending and future calls on both sides throw `ChannelCancelled`.
    public func cancel() {
        condition.lock()
        cancelled = true
        buffer = Array(repeating: nil, count: capacity)
        count = 0
        condition.broadcast()
        condition.unlock()
    }
}

/// Thrown by a channel whose job is being cancelled; never the root cause of a failure.
public struct ChannelCancelled: Error { public init() {} }

/// A value set on one thread and read on another after a join.
public final class Handoff<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?
    public init() {}
    public func set(_ value: Value) { lock.withLock { stored = value } }
    public var value: Value? { lock.withLock { stored } }
}
