import Foundation
import HealthCore

/// What a person's own settings say (`OUT/people/ID/person.json`); each one set overrides the
/// pipeline's for that person's imports. Unset fields fall back to the pipeline.
public struct PersonSettings: Codable, Sendable, Equatable {
    public var name: String?
    /// `YYYY-MM-DD`; where unset, the export's own (`Me`) is shown.
    public var birthDate: String?
    /// An IANA zone for the person's local days.
    public var timezone: String?
    /// The order of sources for the person's daily totals (see the pipeline's `sourcePriority`).
    public var sourcePriority: [String]?
    /// Which platform counts first per data category, for a person with an iPhone's and an
    /// Android phone's exports (the pipeline's `platformPriority`).
    public var platformPriority: [String: String]?
    /// `metric` or `imperial`: what the person's CSV, workbook and report show.
    public var units: String?
    /// The maximum heart rate of their workouts' zones (bpm; else 208 − 0.7 × age from the
    /// birth date of their export): docs/vitals-hrv-workouts.md.
    public var maxHeartRate: Double?

    public init(name: String? = nil, birthDate: String? = nil, timezone: String? = nil, sourcePriority: [String]? = nil) {
        self.name = name; self.birthDate = birthDate; self.timezone = timezone; self.sourcePriority = sourcePriority
    }

    /// Throws a usage error (64) for a birth date that is not a real `YYYY-MM-DD` day or a zone
    /// that is not an IANA name.
    public func validated() throws -> PersonSettings {
        if let birthDate {
            // Round trip through the day number: 2001-02-30 is no day.
            guard let day = CivilDate(iso: birthDate), CivilDate(daysSinceEpoch: day.daysSinceEpoch).iso8601 == birthDate else {
                throw HealthETLError.usage("birth date '\(birthDate)' is not a day in the form YYYY-MM-DD")
            }
        }
        if let units, units != "metric" && units != "imperial" {
            throw HealthETLError.usage("units '\(units)' is neither metric nor imperial")
        }
        if let maxHeartRate, !(maxHeartRate >= 100 && maxHeartRate <= 250) {
            throw HealthETLError.usage("maximum heart rate \(maxHeartRate) is not between 100 and 250 bpm")
        }
        if let timezone, TimeZone(identifier: timezone) == nil {
            throw HealthETLError.usage("unknown time zone '\(timezone)' (expected an IANA name such as Europe/Berlin)")
        }
        return self
    }
}
