import Foundation
import HealthCore

/// Seconds a workout spent in five heart-rate zones (docs/vitals-hrv-workouts.md, "Zones").
///
/// Zone n covers [50 + 10(n-1) %, 50 + 10n %) of the maximum heart rate, zone 5 everything from
/// 90 % up; below 50 % is in no zone. A heart-rate sample's bpm holds from its start until the
/// next sample starts, the workout ends, or `holdSeconds` pass, whichever comes first (a watch
/// that stopped measuring does not stretch its last reading over minutes).
package enum HeartRateZones {
    package static let holdSeconds = 60.0

    /// Tanaka, Monahan & Seals (2001): 208 − 0.7 × age in whole years on `day`; nil without a
    /// birth date or for an age outside 1…120.
    package static func maximum(birthDate: CivilDate?, on day: CivilDate) -> Double? {
        guard let birth = birthDate else { return nil }
        var age = day.year - birth.year
        if (day.month, day.day) < (birth.month, birth.day) { age -= 1 }
        guard age >= 1, age <= 120 else { return nil }
        return 208 - 0.7 * Double(age)
    }

    /// The zone (1…5) of `bpm`, nil below 50 %.
    package static func zone(of bpm: Double, maximum: Double) -> Int? {
        // In tenths, so that 140 of 200 is exactly 7 (0.7 − 0.5 is not 0.2 in binary).
        let tenths = Int((bpm * 10 / maximum).rounded(.down))
        guard tenths >= 5 else { return nil }
        return min(5, tenths - 4)
    }

    /// `samples`: (start in µs, bpm) in time order, inside the workout; `end`: the workout's end in µs.
    package static func seconds(_ samples: [(start: Int64, bpm: Double)], end: Int64, maximum: Double) -> [Double] {
        var result = [Double](repeating: 0, count: 5)
        for (i, s) in samples.enumerated() {
            let next = i + 1 < samples.count ? samples[i + 1].start : end
            let held = min(Double(max(0, min(next, end) - s.start)) / 1_000_000, holdSeconds)
            if let z = zone(of: s.bpm, maximum: maximum) { result[z - 1] += held }
        }
        return result
    }
}

/// Figures of a workout's route (docs/vitals-hrv-workouts.md, "Routes").
package enum RouteFigures {
    /// The mean Earth radius (IUGG), metres.
    package static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres between two points in degrees (haversine).
    package static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (lat2 - lat1) * r, dLon = (lon2 - lon1) * r
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * r) * cos(lat2 * r) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }

    /// Route distance (sum of haversine steps between consecutive points) and elevation gain
    /// (sum of rises between consecutive points that both have an altitude).
    package static func measure(_ points: [(latitude: Double, longitude: Double, altitude: Double?)]) -> (distance: Double, gain: Double?) {
        var measure = Measure()
        for p in points { measure.add(p.latitude, p.longitude, p.altitude) }
        return measure.figures
    }

    /// The same figures point by point, as the points are read: a route of millions of points
    /// is never held (issue 46).
    package struct Measure {
        package private(set) var count = 0
        private var last: (latitude: Double, longitude: Double, altitude: Double?)?
        private var distance = 0.0, gain = 0.0, anyAltitude = false

        package init() {}

        package mutating func add(_ latitude: Double, _ longitude: Double, _ altitude: Double?) {
            if let a = last {
                distance += haversine(a.latitude, a.longitude, latitude, longitude)
                if let x = a.altitude, let y = altitude { anyAltitude = true; gain += max(0, y - x) }
            }
            last = (latitude, longitude, altitude)
            count += 1
        }

        package var figures: (distance: Double, gain: Double?) { (distance, anyAltitude ? gain : nil) }
    }
}
