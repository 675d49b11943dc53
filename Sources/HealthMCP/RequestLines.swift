#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The requests on standard input, a line each, none longer than `maximum` bytes: a longer line
/// is read to its end without being kept (memory stays `maximum`, whatever a client sends) and
/// reported as too long, so the server answers it with an error and goes on (issue 46).
struct RequestLines {
    enum Line { case request(Data), tooLong(bytes: Int) }

    let descriptor: Int32
    let maximum: Int
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var pending = Data(), start = 0, end = 0, finished = false

    init(descriptor: Int32 = 0, maximum: Int) {
        self.descriptor = descriptor; self.maximum = maximum
    }

    /// The next line without its newline, or nil at the end of input.
    mutating func next() -> Line? {
        pending.removeAll(keepingCapacity: true)
        var dropped = 0
        while true {
            if start == end {
                guard !finished else { break }
                let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { finished = true; break }
                start = 0; end = n
            }
            let newline = buffer[start..<end].firstIndex(of: 0x0A)
            let stop = newline ?? end
            if dropped == 0 && pending.count + (stop - start) <= maximum {
                pending.append(contentsOf: buffer[start..<stop])
            } else {
                dropped += pending.count + (stop - start)
                pending.removeAll(keepingCapacity: true)
            }
            start = newline.map { $0 + 1 } ?? end
            if newline != nil { return dropped > 0 ? .tooLong(bytes: dropped) : .request(pending) }
        }
        if dropped > 0 { return .tooLong(bytes: dropped) }
        return pending.isEmpty ? nil : .request(pending)
    }
}
