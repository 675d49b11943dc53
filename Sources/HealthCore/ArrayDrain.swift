extension Array {
    /// Hands every element to `body` in order, moving it out instead of copying it, and
    /// leaves the array empty. (`body` cannot throw: a stop half-way would leave the rest of
    /// the array reversed.)
    ///
    /// A stage that turns a batch's records into samples owns the batch: a copy would retain
    /// each record's strings and arrays here and release them again when the batch dies,
    /// atomic operations on reference counts that the parse thread touched last.
    @inlinable public mutating func drain(_ body: (consuming Element) -> Void) {
        // `popLast` moves the last element out. Reversed first, by moves: `reverse()` swaps
        // by copying, which would retain everything once more.
        withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var (low, high) = (0, buffer.count - 1)
            while low < high {
                let first = (base + low).move()
                (base + low).moveInitialize(from: base + high, count: 1)
                (base + high).initialize(to: first)
                low += 1; high -= 1
            }
        }
        while let element = popLast() { body(element) }
    }
}
