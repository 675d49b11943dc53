import Synchronization

/// Interned texts that are never reference counted: made the way Swift makes a string
/// literal, pointing at bytes that live as long as the process.
///
/// Why: a record carries its type, source name and device description from the parse thread
/// through normalize to the store's thread, and every copy and every release of one of those
/// shared Strings is an atomic operation on the one object all records of that source point
/// at, its cache line moving between the cores with each batch (a tenth of an import's
/// samples were reference counting, issue 62). A literal's String is marked immortal: the
/// runtime sees the mark and touches nothing.
///
/// How: Swift's String layout is part of its stable ABI on 64-bit platforms (a word of count
/// and flags, a word of pointer and discriminator). The first use checks that a String built
/// here from a literal's own bytes has exactly that literal's bits; if it does not (another
/// layout), nothing is ever made here and the interner makes ordinary Strings.
///
/// Bounded: at most `capacityBytes` of text in all, for the whole process (a long-lived one,
/// such as a server importing for many people, shares them across imports; past the bound
/// texts are ordinary Strings again). The same bytes always give the same String.
enum ImmortalText {
    static let capacityBytes = 4 << 20

    private struct Store {
        var byBytes: [[UInt8]: String] = [:]
        var usedBytes = 0
        /// The block texts are copied into, and how much of it is used.
        var block: UnsafeMutableRawPointer?
        var blockUsed = 0
        static let blockBytes = 64 << 10
    }

    private static let store = Mutex(Store())

    /// Whether this platform's String layout is the one `make` builds (checked once).
    static let available: Bool = {
        #if arch(x86_64) || arch(arm64)
        guard MemoryLayout<String>.size == 16 else { return false }
        // A literal of each kind (ASCII, not ASCII), longer than a small string.
        for literal in ["HKQuantityTypeIdentifierHeartRate", "Zoë’s Apple Watch (ÅÄÖ)"] {
            let made = literal.utf8.withContiguousStorageIfAvailable { bytes -> (UInt64, UInt64)? in
                guard let base = bytes.baseAddress else { return nil }
                return bits(of: UnsafeRawPointer(base), count: bytes.count, isASCII: literal.utf8.allSatisfy { $0 < 0x80 })
            } ?? nil
            guard let made, made == unsafeBitCast(literal, to: (UInt64, UInt64).self) else { return false }
        }
        return true
        #else
        return false
        #endif
    }()

    /// The never-counted String of `text`'s bytes; nil when none can be made (the bound is
    /// reached, a small string, which is never counted anyway, or this platform's layout differs).
    static func string(_ text: String) -> String? {
        guard available, text.utf8.count > 15 else { return nil }
        let bytes = Array(text.utf8)
        return store.withLock { store in
            if let known = store.byBytes[bytes] { return known }
            guard store.usedBytes + bytes.count + 1 <= capacityBytes else { return nil }
            let start = copy(bytes, into: &store)
            let made = unsafeBitCast(bits(of: UnsafeRawPointer(start), count: bytes.count,
                                          isASCII: bytes.allSatisfy { $0 < 0x80 }), to: String.self)
            store.byBytes[bytes] = made
            return made
        }
    }

    /// Copies `bytes` and a terminating NUL (a literal's bytes end in one, and `withCString`
    /// relies on it) into the store's current block; the blocks are never freed.
    private static func copy(_ bytes: [UInt8], into store: inout Store) -> UnsafeMutablePointer<UInt8> {
        let needed = bytes.count + 1
        if store.block == nil || store.blockUsed + needed > Store.blockBytes {
            store.block = .allocate(byteCount: max(Store.blockBytes, needed), alignment: 16)
            store.blockUsed = 0
        }
        let start = (store.block! + store.blockUsed).assumingMemoryBound(to: UInt8.self)
        bytes.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: bytes.count) }
        start[bytes.count] = 0
        store.blockUsed += needed
        store.usedBytes += needed
        return start
    }

    /// The two words of an immortal String of `count` UTF-8 bytes at `start`: the count with the
    /// flags a literal has (tail-allocated, so its bytes are contiguous; ASCII and NFC when
    /// ASCII), and the address less the 32-byte bias of native storage with the immortal
    /// discriminator (the top bit).
    private static func bits(of start: UnsafeRawPointer, count: Int, isASCII: Bool) -> (UInt64, UInt64) {
        let flags: UInt64 = (1 << 60) | (isASCII ? (1 << 63) | (1 << 62) : 0)
        return (UInt64(count) | flags, (1 << 63) | (UInt64(UInt(bitPattern: start)) &- 32))
    }
}
