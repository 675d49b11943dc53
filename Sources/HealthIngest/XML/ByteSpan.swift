#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore

/// A view of bytes owned by libxml2 or an input buffer, valid only during a callback.
/// Comparing and parsing on these avoids making a `String` for every attribute.
package struct ByteSpan {
    package let start: UnsafePointer<UInt8>
    package let count: Int

    @inline(__always) package init(start: UnsafePointer<UInt8>, count: Int) {
        self.start = start; self.count = count
    }

    @inline(__always) package init(cString: UnsafePointer<UInt8>) {
        self.init(start: cString, count: strlen(UnsafeRawPointer(cString).assumingMemoryBound(to: CChar.self)))
    }

    @inline(__always) package subscript(i: Int) -> UInt8 { start[i] }
    @inline(__always) package var isEmpty: Bool { count == 0 }

    /// Byte equality with a literal, without creating a String.
    @inline(__always) package func equals(_ literal: StaticString) -> Bool {
        literal.utf8CodeUnitCount == count && memcmp(start, literal.utf8Start, count) == 0
    }

    /// Byte equality with bytes kept from an earlier span.
    @inline(__always) package func equals(_ bytes: [UInt8]) -> Bool {
        bytes.count == count && (count == 0 || bytes.withUnsafeBufferPointer { memcmp(start, $0.baseAddress!, count) == 0 })
    }

    @inline(__always) package func hasPrefix(_ literal: StaticString) -> Bool {
        literal.utf8CodeUnitCount <= count && memcmp(start, literal.utf8Start, literal.utf8CodeUnitCount) == 0
    }

    @inline(__always) package func contains(_ byte: UInt8) -> Bool {
        memchr(start, Int32(byte), count) != nil
    }

    package func dropFirst(_ n: Int) -> ByteSpan { ByteSpan(start: start + min(n, count), count: max(0, count - n)) }

    package var string: String {
        String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// Parses a decimal number (`72`, `-0.5`, `1.23457e+06`). Nil for empty or malformed text,
    /// and for what `strtod` reads but Apple never writes (`0x10`, `inf`, `nan`).
    package var double: Double? {
        guard count > 0, count < 64, DecimalText.isDecimal(UnsafeBufferPointer(start: start, count: count)) else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buf in
            memcpy(buf.baseAddress!, start, count)
            buf[count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let v = strtod(buf.baseAddress!, &end)
            guard let end, end - buf.baseAddress! == count, v.isFinite else { return nil }
            return v
        }
    }
}
