import HealthAggregate
import HealthCore
import HealthStore

/// Computes the cycle tables (docs/cycles.md) from a loaded store, after the other analytics.
/// Every run rebuilds them whole: a person has a few cycle records a day at most, and a cycle's
/// length depends on the next one's start, so a touched day can change the row before it.
package struct CycleBuilder {
    package var calendar: LocalCalendar

    package init(calendar: LocalCalendar) { self.calendar = calendar }

    /// Reads the records, builds the cycles, replaces both tables; returns the cycles' count.
    @discardableResult
    package mutating func update(_ store: CycleStore) throws -> Int {
        let records = try store.records()
        guard !records.isEmpty else {
            // No cycle data (most stores): nothing more to read.
            try store.replace(cycles: [], days: [])
            return 0
        }
        let days = self.days(of: records)
        let built = MenstrualCycles.build(Array(days.values), firstDataDay: try store.firstDataDay())
        try store.replace(cycles: built.cycles.map { Self.row($0, sources: days) }, days: built.days.map(Self.row))
        return built.cycles.count
    }

    /// Each record on the local days it covers: a flow or period record over several days (one
    /// HealthKit sample may hold a whole period) counts on each of them.
    func days(of records: [CycleStore.Record]) -> [CivilDate: MenstrualCycles.Day] {
        var days: [CivilDate: MenstrualCycles.Day] = [:]
        var temperatures: [CivilDate: (sum: Double, count: Int)] = [:]
        var calendar = self.calendar
        for r in records {
            let name = r.type.replacingOccurrences(of: "HKCategoryTypeIdentifier", with: "")
            let first = r.localDay
            var last = first
            if name == "MenstrualFlow" || name == "MenstrualPeriod", r.end.microseconds > r.start.microseconds {
                // The end instant is exclusive: a record to midnight ends the day before.
                last = max(first, calendar.localDate(of: Timestamp(microseconds: r.end.microseconds - 1)))
            }
            var d = first
            while d <= last {
                var day = days[d] ?? MenstrualCycles.Day(date: d)
                Self.add(r, name: name, to: &day, first: d == first, temperatures: &temperatures)
                days[d] = day
                d = d.adding(days: 1)
            }
        }
        for (d, t) in temperatures { days[d]?.basalTemperature = t.sum / Double(t.count) }
        return days
    }

    static func add(_ r: CycleStore.Record, name: String, to day: inout MenstrualCycles.Day, first: Bool,
                    temperatures: inout [CivilDate: (sum: Double, count: Int)]) {
        let value = r.category.map { Self.categoryWord($0) }
        switch name {
        case "MenstrualFlow":
            guard let flow = value.flatMap(MenstrualCycles.Flow.init(rawValue:)) else { return }   // `None`: no flow
            day.flow = max(day.flow ?? flow, flow)
            day.flowRecords += 1
            if !day.sources.contains(r.source) { day.sources.append(r.source) }
            if first, let key = r.cycleStartKey {
                let starts = key == "1" || key.lowercased() == "true"
                day.cycleStartKey = (day.cycleStartKey ?? false) || starts
            }
        case "MenstrualPeriod":
            day.inPeriodRecord = true
            if first { day.periodRecordStarts = true }
            if !day.sources.contains(r.source) { day.sources.append(r.source) }
        case "IntermenstrualBleeding":
            day.spotting = true
        case "OvulationTestResult":
            day.ovulationTests += 1
            let result = Self.ovulationResult(value ?? "")
            if let current = day.ovulationTest, Self.ovulationRank(current) >= Self.ovulationRank(result) { return }
            day.ovulationTest = result
        case "CervicalMucusQuality":
            day.cervicalMucus = Self.mucusWord(value ?? "")
        case "SexualActivity":
            day.sexualActivity += 1
        case "HKQuantityTypeIdentifierBasalBodyTemperature":
            guard let v = r.value else { return }
            temperatures[day.date, default: (0, 0)].sum += v
            temperatures[day.date, default: (0, 0)].count += 1
        default:
            // Apple's cycle-deviation notices (iOS 16+): named on the day and in its cycle.
            if !day.notices.contains(name) { day.notices.append(name) }
        }
    }

    /// `HKCategoryValueMenstrualFlowMedium` → `medium`; `…CervicalMucusQualityEggWhite` → `EggWhite`.
    static func categoryWord(_ value: String) -> String {
        for prefix in ["HKCategoryValueMenstrualFlow", "HKCategoryValueOvulationTestResult", "HKCategoryValueCervicalMucusQuality"]
        where value.hasPrefix(prefix) {
            let word = String(value.dropFirst(prefix.count))
            return prefix == "HKCategoryValueMenstrualFlow" ? word.lowercased() : word
        }
        return value
    }

    /// Apple's `LuteinizingHormoneSurge` (and the older `Positive`) is a positive test; Health
    /// Connect's "high" is stored as `EstrogenSurge`.
    static func ovulationResult(_ word: String) -> String {
        switch word {
        case "LuteinizingHormoneSurge", "Positive": "positive"
        case "EstrogenSurge": "high"
        case "Negative": "negative"
        default: "indeterminate"
        }
    }

    static func ovulationRank(_ result: String) -> Int {
        ["indeterminate": 0, "negative": 1, "high": 2, "positive": 3][result] ?? 0
    }

    static func mucusWord(_ word: String) -> String {
        word == "EggWhite" ? "egg white" : word.lowercased()
    }

    static func row(_ c: MenstrualCycles.Cycle, sources days: [CivilDate: MenstrualCycles.Day]) -> CycleStore.CycleRow {
        var row = CycleStore.CycleRow(start: c.start, nextStart: c.nextStart, complete: c.complete, periodDays: c.periodDays,
                                      length: c.length, startFrom: c.startFrom.rawValue)
        row.light = c.flowDays[.light] ?? 0
        row.medium = c.flowDays[.medium] ?? 0
        row.heavy = c.flowDays[.heavy] ?? 0
        row.unspecified = c.flowDays[.unspecified] ?? 0
        row.spotting = c.spottingDays
        row.ovulationPositive = c.firstPositiveOvulationTest
        row.ovulationTests = c.ovulationTests
        row.flowRecords = c.flowRecords
        var names: [String] = []
        for (d, day) in days where d >= c.start && c.nextStart.map({ d < $0 }) ?? true {
            for s in day.sources where !names.contains(s) { names.append(s) }
        }
        row.sources = names.isEmpty ? nil : names.sorted().joined(separator: ", ")
        row.notices = c.notices.isEmpty ? nil : c.notices.joined(separator: ", ")
        return row
    }

    static func row(_ d: MenstrualCycles.DayInCycle) -> CycleStore.DayRow {
        CycleStore.DayRow(date: d.day.date, cycleStart: d.cycleStart, cycleDay: d.cycleDay, inPeriod: d.inPeriod,
                          flow: d.day.flow?.rawValue, spotting: d.day.spotting, ovulationTest: d.day.ovulationTest,
                          cervicalMucus: d.day.cervicalMucus, basalTemperature: d.day.basalTemperature,
                          sexualActivity: d.day.sexualActivity, notices: d.day.notices.isEmpty ? nil : d.day.notices.joined(separator: ", "))
    }
}
