// Eight input bytes at a time, for the scanners in front of libxml2 (the sanitizer, the device
// cut, the known-record skipper): the classic "has zero byte" and "has less than" bit tricks.
// Each result is nonzero if some byte of `word` qualifies, exact for whether any does and for
// the lowest such byte.

/// The high bit of every byte: set in a word where a byte is 0x80 or above.
let highBitOfEveryByte: UInt64 = 0x8080_8080_8080_8080

/// Nonzero if a byte of `word` equals the byte repeated in `repeated` (`0x2626…` for `&`).
@inline(__always) func hasByte(_ word: UInt64, _ repeated: UInt64) -> UInt64 {
    hasByteBelow(word ^ repeated, 0x0101_0101_0101_0101)
}

/// Nonzero if a byte of `word` is below the byte repeated in `repeated` (at most 0x80 each).
@inline(__always) func hasByteBelow(_ word: UInt64, _ repeated: UInt64) -> UInt64 {
    (word &- repeated) & ~word & highBitOfEveryByte
}
