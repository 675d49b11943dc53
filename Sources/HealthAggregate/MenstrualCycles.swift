import HealthCore

/// Menstrual cycles from the day-level cycle observations of either platform (docs/cycles.md):
/// which days start a cycle, how long each period and cycle is, and what each day recorded.
/// The observations are few (a handful a month), so the rule works on whole days in memory.
package enum MenstrualCycles {
    /// A flow day's level; `unspecified` is flow recorded without a level (Apple's
    /// `Unspecified`, Health Connect's `FLOW_UNKNOWN`).
    package enum Flow: String, Sendable, Comparable {
        case unspecified, light, medium, heavy
        var rank: Int {
            switch self {
            case .unspecified: 0
            case .light: 1
            case .medium: 2
            case .heavy: 3
            }
        }
        package static func < (a: Flow, b: Flow) -> Bool { a.rank < b.rank }
    }

    /// What started a cycle, as the `cycles.start_from` column says it.
    package enum StartEvidence: String, Sendable {
        /// Apple: a flow record with `HKMenstrualCycleStart` = 1 on that day.
        case cycleStartKey = "HKMenstrualCycleStart"
        /// Health Connect: a `MenstruationPeriodRecord` starting that day.
        case periodRecord = "Health Connect period"
        /// A flow day after `flowFreeDaysBeforeStart` days without flow (no record said).
        case rule
        /// Flow at the beginning of the data that no record marks as a start (Apple's key = 0):
        /// a period already going on, whose start lies before the data.
        case beforeData = "before the data"
    }

    /// Everything recorded on one local day.
    package struct Day: Sendable, Equatable {
        package var date: CivilDate
        /// The heaviest flow recorded that day; nil: none (an explicit "no flow" is nil too).
        package var flow: Flow?
        /// A flow record that day carried `HKMenstrualCycleStart`: true for 1, false for 0.
        package var cycleStartKey: Bool?
        /// A Health Connect period record starts that day.
        package var periodRecordStarts = false
        /// A Health Connect period record covers that day.
        package var inPeriodRecord = false
        package var spotting = false
        /// The day's ovulation test result: `positive` (an LH surge), `high` (estrogen surge),
        /// `negative`, `indeterminate`; the most telling one if several.
        package var ovulationTest: String?
        package var ovulationTests = 0
        package var cervicalMucus: String?
        package var basalTemperature: Double?
        package var sexualActivity = 0
        /// Apple's cycle-deviation notices recorded that day (`IrregularMenstrualCycles` …).
        package var notices: [String] = []
        package var flowRecords = 0
        /// The sources of the day's flow and period records.
        package var sources: [String] = []
        package init(date: CivilDate) { self.date = date }
    }

    /// One cycle: from its start day to the day before the next cycle's start.
    package struct Cycle: Sendable, Equatable {
        package var start: CivilDate
        /// The next cycle's start; nil for the last cycle, still open.
        package var nextStart: CivilDate?
        package var startFrom: StartEvidence
        /// False when the start may lie before the first day of data (a period across the
        /// export's first day): its period and cycle lengths are then not known.
        package var complete: Bool
        /// Start through the period's last day (gaps of up to `gapDaysInsidePeriod` days
        /// without flow inside); nil when not complete.
        package var periodDays: Int?
        /// Days to the next start; nil for the open cycle and an incomplete one.
        package var length: Int? {
            guard complete, let nextStart else { return nil }
            return nextStart.daysSinceEpoch - start.daysSinceEpoch
        }
        package var flowDays: [Flow: Int] = [:]
        package var spottingDays = 0
        package var firstPositiveOvulationTest: CivilDate?
        package var ovulationTests = 0
        package var flowRecords = 0
        package var notices: [String] = []
    }

    /// A day in a cycle: its number (1 on the start day; nil in an incomplete cycle, whose
    /// true first day is unknown) and whether it is a period day.
    package struct DayInCycle: Sendable, Equatable {
        package var day: Day
        package var cycleStart: CivilDate?
        package var cycleDay: Int?
        package var inPeriod: Bool
    }

    /// A new period needs this many days without flow before its first flow day (docs/cycles.md).
    package static let flowFreeDaysBeforeStart = 10
    /// Up to this many days without flow inside a period do not end it (a day not logged).
    package static let gapDaysInsidePeriod = 2

    /// The cycles of `days` (any order, one entry per date); `firstDataDay`: the first local day
    /// of any data in the store, before which nothing is known.
    package static func build(_ days: [Day], firstDataDay: CivilDate?) -> (cycles: [Cycle], days: [DayInCycle]) {
        let sorted = days.sorted { $0.date < $1.date }
        guard !sorted.isEmpty else { return ([], []) }
        let firstKnown = min(firstDataDay ?? sorted[0].date, sorted[0].date)
        var starts: [(CivilDate, StartEvidence)] = []
        var lastFlow: CivilDate?
        // Whether the run of flow days (gaps of up to `gapDaysInsidePeriod`) now going on has a start.
        var runHasStart = false
        for day in sorted {
            guard day.flow != nil || day.inPeriodRecord else { continue }
            let gap = lastFlow.map { day.date.daysSinceEpoch - $0.daysSinceEpoch - 1 } ?? Int.max
            var evidence: StartEvidence?
            if day.periodRecordStarts {
                evidence = .periodRecord
            } else if day.cycleStartKey == true {
                evidence = .cycleStartKey
            } else if day.cycleStartKey == nil, !day.inPeriodRecord, gap >= flowFreeDaysBeforeStart {
                // The rule, only where no record said whether the day starts a cycle: Apple's
                // key = 0 is Apple's word that it does not.
                evidence = .rule
            }
            if gap > gapDaysInsidePeriod {
                runHasStart = false
                // The first flow of the data, said not to start a cycle: one began before it.
                if evidence == nil, starts.isEmpty { evidence = .beforeData }
            }
            // A second start inside one run of flow (another app's record of the same period) is
            // not a new cycle: the first one holds.
            if let evidence, !runHasStart {
                starts.append((day.date, evidence))
                runHasStart = true
            }
            lastFlow = day.date
        }
        var cycles: [Cycle] = []
        var placed: [DayInCycle] = []
        var index = 0
        for (n, (start, evidence)) in starts.enumerated() {
            let next = n + 1 < starts.count ? starts[n + 1].0 : nil
            // A start found by the rule needs the days before it: if they are not all in the
            // data, the period may have begun earlier.
            let seenBefore = start.daysSinceEpoch - firstKnown.daysSinceEpoch
            let complete = evidence == .rule ? seenBefore >= flowFreeDaysBeforeStart : evidence != .beforeData
            var cycle = Cycle(start: start, nextStart: next, startFrom: evidence, complete: complete)
            // Days before the first cycle belong to none.
            while index < sorted.count, sorted[index].date < start {
                if cycles.isEmpty { placed.append(DayInCycle(day: sorted[index], cycleStart: nil, cycleDay: nil, inPeriod: false)) }
                index += 1
            }
            var periodEnd = start
            var periodOpen = true
            while index < sorted.count, next.map({ sorted[index].date < $0 }) ?? true {
                let day = sorted[index]
                let flowing = day.flow != nil || day.inPeriodRecord
                if periodOpen, flowing, day.date.daysSinceEpoch - periodEnd.daysSinceEpoch - 1 <= gapDaysInsidePeriod {
                    periodEnd = day.date
                } else if day.date.daysSinceEpoch - periodEnd.daysSinceEpoch - 1 > gapDaysInsidePeriod {
                    periodOpen = false
                }
                if let flow = day.flow { cycle.flowDays[flow, default: 0] += 1 }
                if day.spotting { cycle.spottingDays += 1 }
                if day.ovulationTest == "positive", cycle.firstPositiveOvulationTest == nil {
                    cycle.firstPositiveOvulationTest = day.date
                }
                cycle.ovulationTests += day.ovulationTests
                cycle.flowRecords += day.flowRecords
                for notice in day.notices where !cycle.notices.contains(notice) { cycle.notices.append(notice) }
                placed.append(DayInCycle(day: day, cycleStart: start,
                                         cycleDay: complete ? day.date.daysSinceEpoch - start.daysSinceEpoch + 1 : nil,
                                         inPeriod: false))
                index += 1
            }
            cycle.periodDays = complete ? periodEnd.daysSinceEpoch - start.daysSinceEpoch + 1 : nil
            // A day without flow inside the period (a gap) is a period day too: it gets a row.
            var d = start
            var row = placed.firstIndex { $0.cycleStart == start } ?? placed.count
            while d <= periodEnd {
                if row < placed.count, placed[row].day.date == d {
                    placed[row].inPeriod = true
                    row += 1
                } else {
                    placed.insert(DayInCycle(day: Day(date: d), cycleStart: start,
                                             cycleDay: complete ? d.daysSinceEpoch - start.daysSinceEpoch + 1 : nil,
                                             inPeriod: true), at: row)
                    row += 1
                }
                d = d.adding(days: 1)
            }
            cycles.append(cycle)
        }
        if cycles.isEmpty {
            placed = sorted.map { DayInCycle(day: $0, cycleStart: nil, cycleDay: nil, inPeriod: false) }
        }
        return (cycles, placed)
    }
}
