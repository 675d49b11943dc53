import HealthCore

/// Which platform counts where one person's iPhone and Android phone both recorded (issue 60;
/// docs/PEOPLE.md, "One person, two phones"). It ranks above every source rank: in a slice
/// of time that both platforms' records cover, only the first platform's best source counts
/// (the merge never sums the two); where only one platform recorded, it counts. So a day
/// recorded on one phone comes from it, and the day of the switch takes each hour from the
/// phone that recorded it.
///
/// Per data category a choice: a platform, or `newer-phone` (the default) — the platform
/// whose records begin later, the phone the person moved to. In the weeks both phones record,
/// the old one is the phone being given up (left in a drawer, worn less, its apps signed out);
/// the new one is what the person carries from then on. The choice is the person's: a
/// pipeline's `platformPriority` or `people set ID --platform-priority activity=apple-health`.
package struct PlatformPriority: Sendable, Equatable {
    package enum Choice: String, Sendable, CaseIterable {
        case newerPhone = "newer-phone"
        case appleHealth = "apple-health"
        case healthConnect = "health-connect"
    }

    /// The categories set to something other than the default.
    package private(set) var choices: [HealthDataCategory: Choice] = [:]

    package init() {}

    /// `["activity": "apple-health", …]`; a category or a choice that is not one is an error
    /// naming what is allowed.
    package init(_ given: [String: String]) throws {
        for (key, value) in given {
            guard let category = HealthDataCategory(rawValue: key) else {
                throw HealthETLError.usage("platform priority: no data category \"\(key)\" (one of "
                    + HealthDataCategory.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            guard let choice = Choice(rawValue: value) else {
                throw HealthETLError.usage("platform priority of \(key): \"\(value)\" is not one of "
                    + Choice.allCases.map(\.rawValue).joined(separator: ", "))
            }
            if choice != .newerPhone { choices[category] = choice }
        }
    }

    package func choice(for category: HealthDataCategory) -> Choice { choices[category] ?? .newerPhone }

    /// The settings line's form (`activity:apple-health,sleep:health-connect`); nil: the default.
    package var line: String? {
        guard !choices.isEmpty else { return nil }
        return choices.keys.sorted().map { "\($0.rawValue):\(choices[$0]!.rawValue)" }.joined(separator: ",")
    }

    package init(line: String) {
        for part in line.split(separator: ",") {
            let pair = part.split(separator: ":", maxSplits: 1).map(String.init)
            if pair.count == 2, let category = HealthDataCategory(rawValue: pair[0]), let choice = Choice(rawValue: pair[1]) {
                choices[category] = choice
            }
        }
    }

    /// The platform that counts first in `category`, given the one whose records begin later.
    package func first(in category: HealthDataCategory, newer: InputPlatform) -> InputPlatform {
        switch choice(for: category) {
        case .newerPhone: newer
        case .appleHealth: .appleHealth
        case .healthConnect: .healthConnect
        }
    }

    /// A platform's tier in `category` (0 counts first), shifted above every source rank
    /// (`SourcePriority.listedRank` stays below 2^52).
    package func tier(of platform: InputPlatform, in category: HealthDataCategory, newer: InputPlatform) -> Int {
        platform == first(in: category, newer: newer) ? 0 : 1 << 52
    }
}
