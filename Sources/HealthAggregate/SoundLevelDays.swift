import Foundation
import HealthCore

/// A sound level sample (dBASPL) over `[start, end)`.
package struct SoundLevelReading: Sendable, Equatable {
    package var start: Int64
    package var end: Int64
    package var decibels: Double
    package init(start: Int64, end: Int64, decibels: Double) { self.start = start; self.end = end; self.decibels = decibels }
}

/// The aggregate stage for audio exposure: decibels are logarithmic, so a day's level is the
/// energy average (LEQ) `10·log10(Σ tᵢ·10^(Lᵢ/10) / Σ tᵢ)`, weighted by duration, not the
/// arithmetic mean. Samples belong to the local day of their start.
package struct SoundLevelDays: StageHandler {
    package typealias InboundIn = [SoundLevelReading]
    package typealias InboundOut = [DailyTypeMetric]

    private var calendar: LocalCalendar
    private let type: String
    private var days: [CivilDate: (energy: Double, weight: Double, min: Double, max: Double, count: Int)] = [:]

    package init(type: String, calendar: LocalCalendar) { self.type = type; self.calendar = calendar }

    package mutating func handle(_ input: [SoundLevelReading], emit: (consuming [DailyTypeMetric]) throws -> Void) throws {
        for r in input {
            let date = calendar.localDate(of: Timestamp(microseconds: r.start))
            // Instants weigh one second so that a day of instants is their energy mean.
            let weight = Double(max(r.end - r.start, 1_000_000))
            var d = days[date] ?? (0, 0, .infinity, -.infinity, 0)
            d.energy += weight * pow(10, r.decibels / 10)
            d.weight += weight
            d.min = min(d.min, r.decibels); d.max = max(d.max, r.decibels); d.count += 1
            days[date] = d
        }
    }

    package mutating func finish(emit: (consuming [DailyTypeMetric]) throws -> Void) throws {
        let rows = days.sorted { $0.key < $1.key }.map { date, d in
            DailyTypeMetric(date: date, type: type, unit: "dBASPL", average: 10 * log10(d.energy / d.weight),
                            minimum: d.min, maximum: d.max, count: d.count)
        }
        try emit(rows)
        days = [:]
    }
}
