import Foundation
import HealthCore

/// Runs stages on their own threads and tears the whole job down on the first failure:
/// every channel is cancelled so that no peer stays blocked, threads are joined, and the
/// root cause (not a `ChannelCancelled` echo) is rethrown.
final class StageThreads: @unchecked Sendable {
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var firstError: Error?
    private var cancellers: [@Sendable () -> Void] = []

    func onFailure(cancel: @escaping @Sendable () -> Void) {
        lock.withLock { cancellers.append(cancel) }
    }

    func spawn(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
        group.enter()
        let thread = Thread { [self] in
            defer { group.leave() }
            do { try body() } catch { fail(error) }
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }

    func fail(_ error: Error) {
        let toCancel: [@Sendable () -> Void] = lock.withLock {
            if error is ChannelCancelled { return [] }
            guard firstError == nil else { return [] }
            firstError = error
            return cancellers
        }
        toCancel.forEach { $0() }
    }

    /// Joins every thread; rethrows the first real error.
    func wait() throws {
        group.wait()
        if let error = lock.withLock({ firstError }) { throw error }
    }
}
