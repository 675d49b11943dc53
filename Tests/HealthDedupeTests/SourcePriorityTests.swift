import XCTest
@testable import HealthDedupe

/// The order in which sources win a slice (docs/FORMAT.md, "How a day is counted"): patterns
/// matched by name or device model, `manual` by the user-entered flag, Unicode spaces and
/// apostrophes folded, each source a place of its own.
final class SourcePriorityTests: XCTestCase {
    func testDefaultPriorityManualWatchPhoneOthers() {
        let p = SourcePriority()
        let c: [SourcePriority.Candidate] = [
            .init(name: "Garmin Connect", deviceModel: nil, userEntered: false),
            .init(name: "Alex’s iPhone", deviceModel: "iPhone", userEntered: false),
            .init(name: "Pedometer++", deviceModel: "iPhone", userEntered: false),
            .init(name: "Alex’s Apple Watch", deviceModel: "Watch", userEntered: false),
            .init(name: "Health", deviceModel: nil, userEntered: false),
            .init(name: "Garmin Connect", deviceModel: nil, userEntered: true),
            .init(name: "Zepp Life", deviceModel: nil, userEntered: false),
            .init(name: "Mi Fit", deviceModel: "Watch", userEntered: false),
        ]
        let r = p.ranks(of: c)
        func rank(_ i: Int) -> Int { r[c[i]]! }
        XCTAssertLessThan(rank(5), rank(3))   // typed-in Garmin data is manual entry
        XCTAssertGreaterThan(rank(4), rank(2)) // "Health" without HKWasUserEntered is no manual entry (issue 44)
        XCTAssertLessThan(rank(3), rank(7))   // named watch before a device-only match
        XCTAssertLessThan(rank(7), rank(1))
        XCTAssertLessThan(rank(1), rank(2))   // the iPhone itself before an app on it
        XCTAssertLessThan(rank(2), rank(0))
        XCTAssertLessThan(rank(0), rank(6))   // third parties each get a place (by name)
        XCTAssertEqual(Set(r.values).count, c.count)
    }

    /// Issue 44, item 3: Apple's own source names. A Watch named with a no-break space and no
    /// `device` ranks where the same Watch with a device does; curly apostrophes match straight
    /// ones; the Health app's localized names are manual entry only by their metadata.
    func testAppleSourceNamesMatchWithSpacesAndApostrophesFolded() {
        let p = SourcePriority(patterns: ["manual", "Apple Watch", "Sam's iPhone", "iPhone"])
        let watchNoDevice = SourcePriority.Candidate(name: "윤창희의 Apple\u{A0}Watch", deviceModel: nil, userEntered: false)
        let watchNarrow = SourcePriority.Candidate(name: "Sam’s Apple\u{202F}Watch", deviceModel: nil, userEntered: false)
        let samsPhone = SourcePriority.Candidate(name: "Sam’s iPhone", deviceModel: nil, userEntered: false)
        let otherPhone = SourcePriority.Candidate(name: "Kim’s iPhone", deviceModel: nil, userEntered: false)
        let app = SourcePriority.Candidate(name: "Pedometer", deviceModel: nil, userEntered: false)
        let r = p.ranks(of: [watchNoDevice, watchNarrow, samsPhone, otherPhone, app])
        for watch in [watchNoDevice, watchNarrow] {
            XCTAssertEqual(p.key(for: watch).patternIndex, 1, "\(watch.name) is an Apple Watch by its name")
            XCTAssertFalse(p.key(for: watch).byDeviceOnly)
            XCTAssertLessThan(r[watch]!, r[samsPhone]!)
        }
        XCTAssertEqual(p.key(for: samsPhone).patternIndex, 2, "Sam’s (curly) matches Sam's (straight)")
        XCTAssertEqual(p.key(for: otherPhone).patternIndex, 3)
        XCTAssertEqual(p.key(for: app).patternIndex, 4)
        for health in ["Health", "건강", "Salud", "Santé"] {
            XCTAssertEqual(p.key(for: .init(name: health, deviceModel: nil, userEntered: true)).patternIndex, 0, health)
            XCTAssertEqual(p.key(for: .init(name: health, deviceModel: nil, userEntered: false)).patternIndex, 4,
                           "\(health) without HKWasUserEntered is a source like any other")
        }
        XCTAssertEqual(SourcePriority.folded("Alex\u{2019}s\u{A0}APPLE\u{2009}Watch"), "alex's apple watch")
    }

    func testCustomPriorityPatterns() {
        let p = SourcePriority(patterns: ["garmin*", "manual", "Apple Watch"])
        let garmin = SourcePriority.Candidate(name: "Garmin Connect", deviceModel: nil, userEntered: false)
        let watch = SourcePriority.Candidate(name: "Alex’s Apple Watch", deviceModel: "Watch", userEntered: false)
        let health = SourcePriority.Candidate(name: "Health", deviceModel: nil, userEntered: true)
        let r = p.ranks(of: [watch, health, garmin])
        XCTAssertEqual([r[garmin], r[health], r[watch]], [0, 1, 2])
        XCTAssertTrue(SourcePriority.matches("*apple*watch", "Alex’s Apple Watch"))
        XCTAssertFalse(SourcePriority.matches("garmin*", "My Garmin"))
    }

    /// The Health app lists a source once whatever its versions: two candidates that differ
    /// only in their device model but land in the same class by name share one rank.
    func testEqualNamesInOneClassShareARank() {
        let p = SourcePriority()
        let old = SourcePriority.Candidate(name: "Alex’s iPhone", deviceModel: "iPhone", userEntered: false)
        let new = SourcePriority.Candidate(name: "Alex’s iPhone", deviceModel: nil, userEntered: false)
        let app = SourcePriority.Candidate(name: "Zepp Life", deviceModel: nil, userEntered: false)
        let r = p.ranks(of: [old, new, app])
        XCTAssertEqual(r[old], r[new])
        XCTAssertEqual(Set(r.values).count, 2)
    }

    /// A device model matches a pattern that names it, and an empty model matches nothing
    /// (an empty string is a substring of every pattern).
    func testDeviceModelMatchesThePatternNamingIt() {
        XCTAssertTrue(SourcePriority.matchesDevice("Apple Watch", "Watch"))
        XCTAssertTrue(SourcePriority.matchesDevice("iPhone", "iPhone"))
        XCTAssertFalse(SourcePriority.matchesDevice("iPhone", "Watch"))
        XCTAssertFalse(SourcePriority.matchesDevice("Apple Watch", ""))
        let p = SourcePriority()
        let blank = SourcePriority.Candidate(name: "Some App", deviceModel: "", userEntered: false)
        XCTAssertEqual(p.key(for: blank).patternIndex, p.patterns.count, "an empty model is no device match")
    }

    /// No patterns given, or an empty list, is the default order, not "every source equal".
    func testAnEmptyPatternListIsTheDefaultOrder() {
        XCTAssertEqual(SourcePriority(patterns: []).patterns, SourcePriority.defaultPatterns)
        XCTAssertEqual(SourcePriority(patterns: nil), SourcePriority())
        XCTAssertEqual(SourcePriority(patterns: ["Garmin"]).patterns, ["Garmin"])
    }

    /// The wildcard backtracks (the first `a` after `*` is not always the right one) and
    /// anchors both ends; a pattern without a star is a substring match.
    func testWildcardsBacktrackAndAnchor() {
        XCTAssertTrue(SourcePriority.matches("*a*b", "xaayab"))
        XCTAssertFalse(SourcePriority.matches("*a*b", "xaayabc"))
        XCTAssertTrue(SourcePriority.matches("garmin*", "GARMIN Connect"))
        XCTAssertTrue(SourcePriority.matches("*", ""))
        XCTAssertTrue(SourcePriority.matches("watch", "Alex’s Apple Watch"))
        XCTAssertFalse(SourcePriority.matches("watches", "Alex’s Apple Watch"))
    }
}
