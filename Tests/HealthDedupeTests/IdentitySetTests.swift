import XCTest
@_spi(Load) import HealthDedupe

/// The load's duplicate filter answers as `Set<UInt64>` does, through growth, collisions
/// and the identity 0 (its empty-slot marker).
final class IdentitySetTests: XCTestCase {
    func testAgreesWithSetThroughGrowth() {
        var generator = SystemRandomNumberGenerator()
        var identities = (0..<50_000).map { _ in UInt64.random(in: .min ... .max, using: &generator) }
        // Duplicates, zero, and values that share their top bits (the same home slot).
        identities += identities.prefix(5_000) + [0, 0, 1, 2, 3]
        identities += (0..<2_000).map { UInt64($0) << 1 }
        identities.shuffle(using: &generator)
        var set = IdentitySet()
        var reference = Set<UInt64>()
        for identity in identities {
            XCTAssertEqual(set.insert(identity), reference.insert(identity).inserted, "\(identity)")
        }
        XCTAssertEqual(set.count, reference.count)
        XCTAssertGreaterThan(set.count, 50_000)
    }

    /// Sized up front, the set holds that many without growing; batches prefetched first (as
    /// the sink does) answer the same as one by one.
    func testPresizedAndPrefetchedAgreesWithSet() {
        var generator = SystemRandomNumberGenerator()
        var set = IdentitySet(minimumCapacity: 30_000)
        let capacity = set.capacity
        XCTAssertGreaterThanOrEqual(capacity, 30_000)
        var reference = Set<UInt64>()
        for _ in 0..<20 {
            var batch = (0..<1_500).map { _ in UInt64.random(in: 0 ... 40_000, using: &generator) } + [0]
            batch += batch.prefix(100)
            batch.withUnsafeBufferPointer { set.prefetch($0) }
            for identity in batch {
                XCTAssertEqual(set.insert(identity), reference.insert(identity).inserted, "\(identity)")
            }
        }
        XCTAssertEqual(set.count, reference.count)
        XCTAssertEqual(set.capacity, capacity, "no growth below the size asked for")
    }
}
