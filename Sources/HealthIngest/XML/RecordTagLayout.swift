#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The layout of a `Record` start tag that `KnownRecordSkipper`'s strict scan accepted: the
/// bytes around its values (` type="`, `" sourceName="`, …, and the closing `"/>` or `">`),
/// and which of the values the skipper reads (type, source, creation date).
///
/// Records come series by series, each with the same attributes in the same order, so the
/// next start tag is most often the same bytes with other values. Checking it against the
/// layout compares those bytes; what the strict scan checks in the bytes between values
/// (names, `=`, quotes, white space, no duplicate attribute) holds for the same bytes again,
/// so the verdict is the full scan's.
struct RecordTagLayout: ~Copyable {
    enum Role: UInt8 { case none, type, source, created }

    static let maxBytes = 512
    static let maxValues = 32

    /// The separators back to back: separator k ends at `ends[k]`; separator `valueCount` is
    /// the tail after the last value's closing quote, up to and including `>`.
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: maxBytes)
    private let ends = UnsafeMutablePointer<Int>.allocate(capacity: maxValues + 1)
    private let roles = UnsafeMutablePointer<Role>.allocate(capacity: maxValues)
    /// Values in the tag; 0: no layout held.
    private(set) var valueCount = 0
    private(set) var selfClosing = false

    deinit {
        bytes.deallocate()
        ends.deallocate()
        roles.deallocate()
    }

    /// Separator `k` (the bytes before value `k`, or the tail for `k == valueCount`).
    @inline(__always) func separator(_ k: Int) -> (start: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = k == 0 ? 0 : ends[k - 1]
        return (bytes + from, ends[k] - from)
    }

    /// Which role value `k` takes (a later value may take a role again: the last one counts,
    /// as in the full scan).
    @inline(__always) func role(_ k: Int) -> Role { roles[k] }

    /// Keeps the layout of the tag `p[start..<end]` whose values lie at `values[2k]..<values[2k+1]`
    /// (opening quote just before, closing quote at the end index). A tag too long for the
    /// buffer leaves no layout.
    mutating func capture(_ p: UnsafeMutablePointer<UInt8>, start: Int, end: Int, selfClosing: Bool,
                          values places: UnsafePointer<Int>, roles taken: UnsafePointer<Role>, count: Int) {
        valueCount = 0
        guard count > 0, count <= Self.maxValues else { return }
        var used = 0
        var from = start
        for k in 0...count {
            let to = k == count ? end : places[2 * k]
            let length = to - from
            guard used + length <= Self.maxBytes else { return }
            memcpy(bytes + used, p + from, length)
            used += length
            ends[k] = used
            if k < count {
                roles[k] = taken[k]
                from = places[2 * k + 1]
            }
        }
        self.selfClosing = selfClosing
        valueCount = count
    }
}

/// The content of the last known record dropped whole, after its start tag up to and
/// including `</Record>` (the same metadata entries follow record after record): the same
/// bytes again are the same elements, so the strict scan's verdict holds for them.
struct LastRecordContent: ~Copyable {
    static let maxBytes = 1024
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: maxBytes)
    /// 0: none held.
    private(set) var count = 0
    private(set) var hasLineBreaks = false

    deinit { bytes.deallocate() }

    /// Whether `p[start...]` begins with the held content (`n`: the end of the bytes at hand).
    @inline(__always) func isAt(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ n: Int) -> Bool {
        count > 0 && start + count <= n && bytesEqual(p + start, bytes, count)
    }

    mutating func capture(_ p: UnsafeMutablePointer<UInt8>, start: Int, end: Int, hasLineBreaks: Bool) {
        count = 0
        guard end - start <= Self.maxBytes else { return }
        memcpy(bytes, p + start, end - start)
        count = end - start
        self.hasLineBreaks = hasLineBreaks
    }
}

/// `count` bytes at `a` and `b` are equal: eight at a time, inline (the runs compared here
/// are short, and a call to `memcmp` per attribute cost more than the compare).
@inline(__always) func bytesEqual(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ count: Int) -> Bool {
    if count < 8 {
        for k in 0..<count where a[k] != b[k] { return false }
        return true
    }
    var k = 0
    while k + 8 < count {
        if UnsafeRawPointer(a + k).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + k).loadUnaligned(as: UInt64.self) {
            return false
        }
        k += 8
    }
    // The last eight bytes (overlapping what was compared).
    return UnsafeRawPointer(a + count - 8).loadUnaligned(as: UInt64.self)
        == UnsafeRawPointer(b + count - 8).loadUnaligned(as: UInt64.self)
}
