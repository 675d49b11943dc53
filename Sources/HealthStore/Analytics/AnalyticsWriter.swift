import HealthCore
import SQLite

/// Writes the aggregate stage's results into the analytics tables, replacing what was there,
/// in one transaction: a reader sees either the old analytics or the new, never a mix.
package struct AnalyticsWriter {
    let database: Database
    package init(database: Database) { self.database = database }

    package struct Content: Sendable {
        package var days: [DailyAnalytics] = []
        package var nights: [SleepNight] = []
        package var typeDays: [DailyTypeMetric] = []
        package var typeHours: [HourlyTypeAmount] = []
        /// A store of one person's two phones: each platform's part of each day's merged total.
        package var platformShares: [PlatformShare] = []
        package init() {}
    }

    /// One platform's part of a day's total of a reconciled metric (`reconciliation_platforms`):
    /// what of the merged total came from its records, and what its records add up to alone.
    package struct PlatformShare: Sendable, Equatable {
        package var date: CivilDate
        package var metric: String
        package var platform: String
        package var counted: Double
        package var allSourcesSum: Double
        package var samples: Int
        package init(date: CivilDate, metric: String, platform: String, counted: Double, allSourcesSum: Double, samples: Int) {
            self.date = date; self.metric = metric; self.platform = platform; self.counted = counted
            self.allSourcesSum = allSourcesSum; self.samples = samples
        }
    }

    /// Replaces the analytics of `days` (nil: of every day) with `content`, inside the
    /// caller's transaction. Weeks, months and years are re-summed by the caller from the
    /// stored days and written with `replacePeriods`.
    package func replace(days: Set<CivilDate>?, with content: Content, recordedAt: Timestamp) throws {
        if let days {
            for table in ["daily_analytics WHERE date", "daily_metrics WHERE date", "hourly_metrics WHERE date",
                          "sleep_sessions WHERE night_date", "reconciliation_platforms WHERE date"] {
                let stmt = try database.prepare("DELETE FROM \(table) = ?")
                for d in days { stmt.bind(1, d.iso8601); try stmt.run() }
            }
        } else {
            try clear()
        }
        try write(content, recordedAt: recordedAt.iso8601)
    }

    /// Sets `partial_day` on every stored day (docs/days-and-averages.md): the first day with
    /// data (the data starts some time into it) and the export's own local day and any after it
    /// (the export was taken some time into it) are partial, every other day complete. A
    /// function of the stored days and the export day alone, so a full and an incremental run
    /// agree, and a later export turns the previous export day complete.
    package func markPartialDays(exportDay: CivilDate?) throws {
        try database.rows("""
            UPDATE daily_analytics SET partial_day = CASE
              WHEN date = (SELECT min(date) FROM daily_analytics) OR (?1 IS NOT NULL AND date >= ?1) THEN 1 ELSE 0 END
            """, [exportDay.map { .text($0.iso8601) } ?? .null])
    }

    /// Sets every day's zone and travel mark under `calendar` (all days: a few thousand rows,
    /// and a changed timeline can move the mark of a day no sample touched).
    package func markZones(calendar: LocalCalendar) throws {
        guard calendar.isTravelling else {
            try database.rows("UPDATE daily_analytics SET zone = ?, travel_day = 0", [.text(calendar.timeZone.identifier)])
            return
        }
        let update = try database.prepare("UPDATE daily_analytics SET zone = ?, travel_day = ? WHERE date = ?")
        for row in try database.rows("SELECT date FROM daily_analytics") {
            guard let text = row[0].string, let day = CivilDate(iso: text) else { continue }
            try update.bind([.text(calendar.zoneName(on: day)), .integer(calendar.isTravelDay(day) ? 1 : 0), .text(text)])
            try update.run()
        }
    }

    /// The partial days as stored.
    package func partialDays() throws -> Set<CivilDate> {
        Set(try database.rows("SELECT date FROM daily_analytics WHERE partial_day = 1").compactMap {
            $0[0].string.flatMap { CivilDate(iso: $0) }
        })
    }

    /// Empties every analytics table (the profile and samples stay).
    package func clear() throws {
        try database.execute("""
            DELETE FROM daily_analytics; DELETE FROM weekly_analytics; DELETE FROM monthly_analytics;
            DELETE FROM yearly_analytics; DELETE FROM sleep_sessions; DELETE FROM daily_metrics;
            DELETE FROM hourly_metrics; DELETE FROM reconciliation_platforms;
            """)
    }

    private static let metricNames = StoreSchema.metricNames
    private static let metricMarks = DailyMetric.allCases.map { _ in "?" }.joined(separator: ",")

    private func bind(_ metrics: MetricValues, to stmt: Statement, from first: Int32) {
        for m in DailyMetric.allCases {
            let index = first + Int32(m.rawValue)
            // Values are bounded at the door (`PlausibleValues`); a sum still out of Int64's range is
            // stored as NULL rather than stopping the process.
            if m.isInteger { stmt.bind(index, metrics[m].flatMap(\.roundedInt64)) } else { stmt.bind(index, metrics[m]) }
        }
    }

    private func write(_ c: Content, recordedAt: String) throws {
        let n = Int32(DailyMetric.allCases.count)
        let daily = try database.prepare(
            "INSERT INTO daily_analytics (date, \(Self.metricNames), recorded_at) VALUES (?, \(Self.metricMarks), ?)")
        for d in c.days {
            daily.bind(1, d.date.iso8601)
            bind(d.metrics, to: daily, from: 2)
            daily.bind(2 + n, recordedAt)
            try daily.run()
        }
        let night = try database.prepare("""
            INSERT INTO sleep_sessions (night_date, start_utc, end_utc, in_bed_minutes, asleep_minutes, core_minutes,
              deep_minutes, rem_minutes, unspecified_minutes, awake_minutes, sources, nap_minutes, naps, recorded)
              VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        for s in c.nights {
            try night.bind([.text(s.date.iso8601), .text(s.start.iso8601), .text(s.end.iso8601), .real(s.inBedMinutes),
                             s.isInBedOnly ? .null : .real(s.asleepMinutes), .real(s.coreMinutes), .real(s.deepMinutes), .real(s.remMinutes),
                             .real(s.unspecifiedMinutes), .real(s.awakeMinutes), .text(s.sources.joined(separator: ", ")),
                             .real(s.napMinutes), .integer(Int64(s.naps)), .text(s.recorded)])
            try night.run()
        }
        let metric = try database.prepare("""
            INSERT INTO daily_metrics (date, type, unit, sum, average, minimum, maximum, count) VALUES (?,?,?,?,?,?,?,?)
            """)
        for m in c.typeDays {
            metric.bind(1, m.date.iso8601); metric.bind(2, m.type); metric.bind(3, m.unit); metric.bind(4, m.sum)
            metric.bind(5, m.average); metric.bind(6, m.minimum); metric.bind(7, m.maximum); metric.bind(8, Int64(m.count))
            try metric.run()
        }
        let hourly = try database.prepare("INSERT INTO hourly_metrics (date, hour, type, sum) VALUES (?,?,?,?)")
        for h in c.typeHours {
            hourly.bind(1, h.date.iso8601); hourly.bind(2, Int64(h.hour)); hourly.bind(3, h.type); hourly.bind(4, h.sum)
            try hourly.run()
        }
        let share = try database.prepare("""
            INSERT INTO reconciliation_platforms (date, metric, platform, counted, all_sources_sum, samples) VALUES (?,?,?,?,?,?)
            """)
        for p in c.platformShares {
            try share.bind([.text(p.date.iso8601), .text(p.metric), .text(p.platform), .real(p.counted), .real(p.allSourcesSum),
                            .integer(Int64(p.samples))])
            try share.run()
        }
    }

    /// Replaces the periods of `kind` starting at `starts` (nil: all of them) with `periods`.
    package func replacePeriods(_ kind: PeriodKind, starts: Set<CivilDate>?, with periods: [PeriodAnalytics],
                               recordedAt: Timestamp) throws {
        let (table, key, _) = StoreSchema.periodTable(kind)
        if let starts {
            let delete = try database.prepare("DELETE FROM \(table) WHERE \(key) = ?")
            for s in starts { delete.bind(1, s.iso8601); try delete.run() }
        } else {
            try database.execute("DELETE FROM \(table)")
        }
        try write(periods, recordedAt: recordedAt.iso8601)
    }

    private func write(_ periods: [PeriodAnalytics], recordedAt: String) throws {
        let n = Int32(DailyMetric.allCases.count)
        let statements: [PeriodKind: Statement] = [
            .week: try database.prepare("""
                INSERT INTO weekly_analytics (week_start, week_end, \(Self.metricNames), days_with_data, recorded_at)
                VALUES (?, ?, \(Self.metricMarks), ?, ?)
                """),
            .month: try database.prepare("""
                INSERT INTO monthly_analytics (year, month, start_date, end_date, \(Self.metricNames), days_with_data,
                  recorded_at) VALUES (?, ?, ?, ?, \(Self.metricMarks), ?, ?)
                """),
            .year: try database.prepare("""
                INSERT INTO yearly_analytics (year, start_date, end_date, \(Self.metricNames), days_with_data, recorded_at)
                VALUES (?, ?, ?, \(Self.metricMarks), ?, ?)
                """),
        ]
        for p in periods {
            let stmt = statements[p.kind]!
            var i: Int32 = 1
            if p.kind != .week { stmt.bind(i, Int64(p.start.year)); i += 1 }
            if p.kind == .month { stmt.bind(i, Int64(p.start.month)); i += 1 }
            stmt.bind(i, p.start.iso8601); stmt.bind(i + 1, p.end.iso8601)
            bind(p.metrics, to: stmt, from: i + 2)
            stmt.bind(i + 2 + n, Int64(p.daysWithData))
            stmt.bind(i + 3 + n, recordedAt)
            try stmt.run()
        }
    }
}
