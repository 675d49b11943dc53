import HealthCore

/// The order in which sources win a time slice (docs/FORMAT.md, "How a day is counted").
/// Used by the analytics (`PriorityMerger`'s ranks, `WorkoutCopies`), on their thread; the
/// pipeline reads it from the settings.
///
/// The order is a setting, not part of the export: `sourcePriority` lists patterns, best
/// first, each matched case-insensitively against the source name and the device model
/// (`*` is a wildcard; without one a pattern matches as a substring), with Unicode spaces and
/// apostrophes folded: Apple names a Watch "윤창희의 Apple\u{A0}Watch" (a no-break space) and a
/// phone "Sam’s iPhone" (a curly apostrophe), which the patterns "Apple Watch" and "Sam's iPhone"
/// must match. The word `manual` stands for data the user typed in, as its
/// `HKWasUserEntered=1` metadata says; not the Health app's source name, which is localized
/// ("Health", "건강", "Salud", "Santé" …). Sources that match no pattern (third-party apps and
/// devices) come last.
///
/// Like the Health app's list, every source gets a place of its own: two third-party apps
/// never count in the same slice. Within a class a source matched by name (`Alex’s iPhone`)
/// ranks before one matched only by its device (an app writing from the iPhone), then by name.
package struct SourcePriority: Sendable, Equatable {
    package static let defaultPatterns = ["manual", "Apple Watch", "iPhone"]
    package let patterns: [String]
    /// Per type, the sources that count, best first, as an export lists them (a Health Connect
    /// export's priority list per data category): for these types a source not listed does not
    /// count, and of two overlapping records of one source the one modified last counts, as
    /// Health Connect adds up (docs/HEALTH_CONNECT.md). Empty for an Apple export, whose
    /// priority is not in the export (the patterns decide).
    package var listed: [String: [String]] = [:]
    /// Which platform counts first where a person's two phones overlap (issue 60).
    package var platforms = PlatformPriority()

    /// A short, stable digest of `listed` for the store's settings line (nil when empty).
    package var listedDigest: String? {
        guard !listed.isEmpty else { return nil }
        var hasher = StableHasher()
        for type in listed.keys.sorted() {
            hasher.combine(type)
            for name in listed[type]! { hasher.combine(name) }
        }
        return String(hasher.value, radix: 16)
    }

    /// The rank of a record of a listed type: its source's place first, then the later
    /// modification (`modifiedMicroseconds`), so that the merge's lowest rank is Health
    /// Connect's winner; nil for a source the list leaves out (it does not count).
    package static func listedRank(place: Int?, modifiedMicroseconds: Int64?) -> Int? {
        guard let place else { return nil }
        let ms = max(0, min((modifiedMicroseconds ?? 0) / 1000, (1 << 42) - 1))
        return place << 42 | ((1 << 42) - 1 - Int(ms))
    }

    package init(patterns: [String]? = nil) {
        let given = patterns ?? []
        self.patterns = given.isEmpty ? Self.defaultPatterns : given
    }

    /// A source as the merge sees it.
    package struct Candidate: Hashable, Sendable {
        package var name: String
        package var deviceModel: String?
        package var userEntered: Bool
        package init(name: String, deviceModel: String?, userEntered: Bool) {
            self.name = name; self.deviceModel = deviceModel; self.userEntered = userEntered
        }
    }

    /// Sort key: pattern class, then name-match before device-match, then name.
    struct Key: Comparable, Hashable {
        var patternIndex: Int
        var byDeviceOnly: Bool
        var name: String
        static func < (a: Key, b: Key) -> Bool {
            (a.patternIndex, a.byDeviceOnly ? 1 : 0, a.name) < (b.patternIndex, b.byDeviceOnly ? 1 : 0, b.name)
        }
    }

    func key(for c: Candidate) -> Key {
        for (index, pattern) in patterns.enumerated() {
            if pattern.lowercased() == "manual" {
                if c.userEntered { return Key(patternIndex: index, byDeviceOnly: false, name: c.name) }
                continue
            }
            if Self.matches(pattern, c.name) { return Key(patternIndex: index, byDeviceOnly: false, name: c.name) }
            if let model = c.deviceModel, Self.matchesDevice(pattern, model) {
                return Key(patternIndex: index, byDeviceOnly: true, name: c.name)
            }
        }
        return Key(patternIndex: patterns.count, byDeviceOnly: false, name: c.name)
    }

    /// Ranks (0 = best) for a set of sources; equal names in the same class share a rank,
    /// since the Health app lists a source once whatever its versions.
    package func ranks(of candidates: some Sequence<Candidate>) -> [Candidate: Int] {
        let keyed = candidates.map { ($0, key(for: $0)) }
        let order = Set(keyed.map(\.1)).sorted()
        let rankOfKey = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        return Dictionary(keyed.map { ($0.0, rankOfKey[$0.1]!) }, uniquingKeysWith: { a, _ in a })
    }

    static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = folded(pattern), t = folded(text)
        guard p.contains("*") else { return t.contains(p) }
        return glob(Array(p.unicodeScalars), Array(t.unicodeScalars))
    }

    /// A device model (`Watch`, `iPhone`) matches a pattern that names it (`Apple Watch`).
    static func matchesDevice(_ pattern: String, _ model: String) -> Bool {
        guard !model.isEmpty else { return false }
        return matches(pattern, model) || folded(pattern).contains(folded(model))
    }

    /// Lowercased, every Unicode space (no-break, narrow no-break, thin …) a plain space, and
    /// every apostrophe-like mark (’ ‘ ʼ ′ ＇) a plain apostrophe: the forms a name is typed in
    /// and the forms a device writes it in compare equal.
    static func folded(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            switch scalar.value {
            case 0x2018, 0x2019, 0x201B, 0x02BC, 0x2032, 0xFF07: scalars.append("'")
            case _ where scalar.properties.generalCategory == .spaceSeparator: scalars.append(" ")
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    private static func glob(_ p: [Unicode.Scalar], _ t: [Unicode.Scalar]) -> Bool {
        // Iterative wildcard match with backtracking to the last star.
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] != "*", p[pi] == t[ti] { pi += 1; ti += 1 }
            else if pi < p.count, p[pi] == "*" { star = pi; mark = ti; pi += 1 }
            else if star >= 0 { pi = star + 1; mark += 1; ti = mark }
            else { return false }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
