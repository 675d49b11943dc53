@testable import HealthIngest

/// `text`'s UTF-8 bytes as the span libxml2 hands the handler, alive for `body`.
func withSpan<R>(_ text: String, _ body: (ByteSpan) -> R) -> R {
    Array(text.utf8).withUnsafeBufferPointer { body(ByteSpan(start: $0.baseAddress!, count: $0.count)) }
}
