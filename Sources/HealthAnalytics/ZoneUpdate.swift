import HealthCore
import HealthStore
import SQLite

/// The run's zone timeline (issue 48), and what it moves: built from the `HKTimeZone`
/// evidence of everything the store holds after this run, it gives the settings their
/// calendar; when the days follow it, the days that moved since the timeline the stored rows
/// were dated under are dated again (`redate`) and recomputed.
package struct ZoneUpdate {
    /// The settings with the timeline.
    package var settings: AnalyticsSettings
    /// The days whose bounds, zone or travel mark moved (nil: every day), and the instants (µs)
    /// they span, a range per run of days: the rows starting there are to be dated again.
    package var moved: (days: Set<CivilDate>, instants: [Range<Int64>])?

    /// `evidence`: nil reads the store's (`ZoneStore.evidence`, through the index). `previous`:
    /// the timeline the stored rows were dated under; nil: home alone, as a full load dates them.
    package init(_ database: Database, settings: AnalyticsSettings, evidence: [ZoneEvidence]? = nil,
         previous: ZoneTimeline? = nil) throws {
        let timeline = ZoneTimeline.build(evidence: try evidence ?? ZoneStore(database: database).evidence(),
                                          home: settings.zoneName)
        self.settings = settings.with(timeline)
        guard settings.localDays == .whereRecorded else { moved = ([], []); return }
        let before = previous ?? ZoneTimeline(stretches: [.init(start: nil, zone: settings.zoneName)], windows: [],
                                              home: settings.zoneName)
        moved = before.changedDays(to: timeline)
    }

    /// The instants whose rows are to be dated again, in order and apart.
    package var instants: [Range<Int64>] { moved?.instants ?? [Int64.min..<Int64.max] }

    /// Dates the stored rows of the moved days again, inside the caller's transaction (after a
    /// full load's last rows, its dropped copies among them, are in the store).
    package func redate(_ database: Database) throws {
        try LocalDayRedating(database: database).redate(startingIn: instants, calendar: settings.calendar())
    }
}

/// A full load's sorted runs, with the rows that start where the days moved dated again
/// (`ZoneUpdate`): the runs were written as the load dated them, before the timeline was known.
package struct RedatedSeries<Base: SeriesSource>: SeriesSource {
    let base: Base
    /// In order and apart (`ZoneUpdate.instants`).
    let instants: [Range<Int64>]
    let calendar: LocalCalendar

    package init(base: Base, instants: [Range<Int64>], calendar: LocalCalendar) {
        self.base = base; self.instants = instants; self.calendar = calendar
    }

    package func forEachBatch(typeID: Int64, starting range: Range<Int64>?, batchSize: Int,
                      _ body: ([SeriesReader.Row]) throws -> Void) throws {
        guard !instants.isEmpty else { return try base.forEachBatch(typeID: typeID, starting: range, batchSize: batchSize, body) }
        var calendar = calendar
        var next = 0   // rows come in start order: the first range not yet behind them
        try base.forEachBatch(typeID: typeID, starting: range, batchSize: batchSize) { rows in
            var rows = rows
            for i in rows.indices {
                let start = rows[i].start
                while next < instants.count, instants[next].upperBound <= start { next += 1 }
                guard next < instants.count, instants[next].contains(start) else { continue }
                rows[i].localDay = calendar.localDate(of: Timestamp(microseconds: start)).daysSinceEpoch
            }
            try body(rows)
        }
    }
}
