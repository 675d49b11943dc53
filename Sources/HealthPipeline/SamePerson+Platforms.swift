import Foundation
import HealthCore
import HealthStore
import SQLite

/// Whether an export of one platform is the person's whose store holds another platform's
/// (issue 60: one person who switched phones). Neither `Me` (an Android export has none) nor
/// devices (an iPhone's and an Android phone's never match) can tell; what the two hold can:
/// the body measurements a scale or the person wrote to both phones. Read from the loaded
/// delta, before anything is merged or published; docs/PEOPLE.md, "One person, two phones".
extension SamePerson {
    enum Evidence: Equatable {
        /// The same measurements on both: one person (why).
        case same(String)
        /// Measurements no one person has (why): another person's.
        case other(String)
        /// Nothing in the two to compare.
        case unknown
    }

    /// Two measurements of one type closer than this in time, and in value than the type's
    /// tolerance, are one measurement written to both phones.
    static let sameMinute: Int64 = 120_000_000
    static let tolerance = ["HKQuantityTypeIdentifierBodyMass": 0.05, "HKQuantityTypeIdentifierHeight": 0.005]
    /// Weights this close in time that differ by more than `weightGap` are not one body's.
    static let nearInTime: Int64 = 3 * 86_400_000_000
    static let weightGap = 0.12
    static let heightGap = 0.04

    /// `copies`: the export's measurements the load dropped as exact copies of stored ones.
    static func evidence(stored: [HealthStore.Measurement], exported: [HealthStore.Measurement], copies: Int = 0) -> Evidence {
        let storedByType = Dictionary(grouping: stored, by: \.type).mapValues { $0.sorted { $0.startMicroseconds < $1.startMicroseconds } }
        var identical = copies, nearPairs = 0, apartPairs = 0, biggestGap = 0.0
        for m in exported {
            guard let candidates = storedByType[m.type] else { continue }
            if candidates.contains(where: { abs($0.startMicroseconds - m.startMicroseconds) <= sameMinute
                                         && abs($0.value - m.value) <= tolerance[m.type] ?? 0 }) {
                identical += 1
                continue
            }
            guard m.type == "HKQuantityTypeIdentifierBodyMass", m.value > 0,
                  let near = candidates.min(by: { abs($0.startMicroseconds - m.startMicroseconds) < abs($1.startMicroseconds - m.startMicroseconds) }),
                  abs(near.startMicroseconds - m.startMicroseconds) <= nearInTime else { continue }
            nearPairs += 1
            let gap = abs(near.value - m.value) / max(near.value, m.value)
            if gap > weightGap { apartPairs += 1; biggestGap = max(biggestGap, gap) }
        }
        // One is enough: a weight of the same app, to the minute and the gram, is no coincidence.
        if identical > 0 {
            return .same("\(identical) body measurement\(identical == 1 ? "" : "s") in both exports, to the minute")
        }
        let heights = { (list: [HealthStore.Measurement]) in
            list.filter { $0.type == "HKQuantityTypeIdentifierHeight" }.map(\.value).sorted()
        }
        let (h1, h2) = (heights(stored), heights(exported))
        if let a = h1.isEmpty ? nil : h1[h1.count / 2], let b = h2.isEmpty ? nil : h2[h2.count / 2], abs(a - b) > heightGap {
            return .other(String(format: "its height is %.2f m, the store's person's %.2f m", b, a))
        }
        if nearPairs >= 2, apartPairs * 2 > nearPairs {
            return .other("\(apartPairs) of its \(nearPairs) weights differ from the store's of the same days by up to "
                          + "\(Int((biggestGap * 100).rounded())) %")
        }
        return .unknown
    }

    /// Throws unless the records of `platform` (in `exported`) are the person's whose records
    /// of the other platforms are in `stored`; returns a note for the summary. `confirmed`: the
    /// person said so (`--same-person`), which overrides what the data suggests.
    static func checkAcross(stored: HealthStore, storedPlatforms: [InputPlatform], exported: HealthStore, platform: InputPlatform,
                            confirmed: Bool, input: String, out: String) throws -> String {
        var storedMeasurements: [HealthStore.Measurement] = []
        for p in storedPlatforms { storedMeasurements += try stored.measurements(from: p) }
        let found = evidence(stored: storedMeasurements, exported: try exported.measurements(from: platform),
                             copies: try exported.copiedMeasurements())
        let theirs = storedPlatforms.map(\.displayName).joined(separator: " and ")
        let keep = "To keep it apart, import it with --person ID (each person a folder of their own) or into another --out."
        switch (found, confirmed) {
        case (.same(let why), _):
            return "\(platform.displayName) export added to the \(theirs) data of this store: the same person (\(why))"
        case (.other(let why), false):
            throw HealthETLError.dataUnusable("""
                \(input) looks like another person's export: \(why). Nothing was changed. \(keep) If it is yours \
                (the phone you switched to), run again with --same-person.
                """)
        case (.unknown, false):
            throw HealthETLError.dataUnusable("""
                \(input) is \(platform.article) \(platform.displayName) export, and the store in \(out) holds \(theirs) data \
                only: nothing in the two tells whether they are one person's (no weight or height in both to compare, \
                and an Android export says no date of birth). Nothing was changed. If both are yours (you switched \
                phones), run again with --same-person; the store then holds both and later runs need no option. \(keep)
                """)
        case (.other(let why), true):
            return "\(platform.displayName) export added to the \(theirs) data of this store, as --same-person said (\(why))"
        case (.unknown, true):
            return "\(platform.displayName) export added to the \(theirs) data of this store, as --same-person said"
        }
    }
}
