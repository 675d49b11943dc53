import HealthCore
import SQLite

/// The library surface an app uses on a published `health.sqlite`: analytics by day, week,
/// month and year, sleep nights, and the profile. Reads are plain indexed queries on the
/// analytics tables; writes (profile, clearing) run in transactions.
public final class HealthStore {
    public let database: Database

    public init(path: String, writable: Bool = false) throws {
        database = try Database(path: path, mode: writable ? .readWrite : .readOnly)
    }

    /// Over a connection the caller already has (inside its transaction, it sees what that
    /// transaction wrote).
    public init(database: Database) { self.database = database }

    // MARK: days

    public func daily(on date: CivilDate) throws -> DailyAnalytics? {
        try days("WHERE date = ?", [.text(date.iso8601)]).first
    }
    /// Days from `start` through `end`, both included.
    public func daily(from start: CivilDate, through end: CivilDate) throws -> [DailyAnalytics] {
        try days("WHERE date BETWEEN ? AND ? ORDER BY date", [.text(start.iso8601), .text(end.iso8601)])
    }
    public func allDaily() throws -> [DailyAnalytics] { try days("ORDER BY date") }
    public func latestDaily() throws -> DailyAnalytics? { try days("ORDER BY date DESC LIMIT 1").first }

    // MARK: weeks

    /// The week holding `date` (weeks start on the pipeline's `weekStart`).
    public func week(containing date: CivilDate) throws -> PeriodAnalytics? {
        try periods(.week, "WHERE week_start <= ?1 AND week_end >= ?1", [.text(date.iso8601)]).first
    }
    /// Weeks overlapping `start` … `end`.
    public func weeks(from start: CivilDate, through end: CivilDate) throws -> [PeriodAnalytics] {
        try periods(.week, "WHERE week_end >= ? AND week_start <= ? ORDER BY week_start", [.text(start.iso8601), .text(end.iso8601)])
    }
    public func allWeeks() throws -> [PeriodAnalytics] { try periods(.week, "ORDER BY week_start") }
    public func latestWeek() throws -> PeriodAnalytics? { try periods(.week, "ORDER BY week_start DESC LIMIT 1").first }

    // MARK: months

    public func month(year: Int, month: Int) throws -> PeriodAnalytics? {
        try periods(.month, "WHERE year = ? AND month = ?", [.integer(Int64(year)), .integer(Int64(month))]).first
    }
    public func months(inYear year: Int) throws -> [PeriodAnalytics] {
        try periods(.month, "WHERE year = ? ORDER BY month", [.integer(Int64(year))])
    }
    public func allMonths() throws -> [PeriodAnalytics] { try periods(.month, "ORDER BY start_date") }
    public func latestMonth() throws -> PeriodAnalytics? { try periods(.month, "ORDER BY start_date DESC LIMIT 1").first }

    // MARK: years

    public func year(_ year: Int) throws -> PeriodAnalytics? {
        try periods(.year, "WHERE year = ?", [.integer(Int64(year))]).first
    }
    public func allYears() throws -> [PeriodAnalytics] { try periods(.year, "ORDER BY year") }
    public func latestYear() throws -> PeriodAnalytics? { try periods(.year, "ORDER BY year DESC LIMIT 1").first }

    // MARK: sleep

    /// The night that ends on `date` (its wake-up day, docs/sleep-nights.md), with its naps' minutes.
    public func sleepNight(morning date: CivilDate) throws -> SleepNight? {
        try sleepNights("WHERE night_date = ?", [.text(date.iso8601)]).first
    }

    // MARK: profile

    public func profile() throws -> StoredProfile? {
        try database.rows("""
            SELECT date_of_birth, biological_sex, blood_type, fitzpatrick_skin_type, cardio_fitness_medications_use,
                   locale, export_date_utc FROM profile WHERE id = 1
            """).first.map { r in
            StoredProfile(dateOfBirth: r[0].string.flatMap { CivilDate(iso: $0) }, biologicalSex: r[1].string,
                          bloodType: r[2].string, fitzpatrickSkinType: r[3].string,
                          cardioFitnessMedicationsUse: r[4].string, locale: r[5].string, exportDate: r[6].string)
        }
    }

    /// Replaces the profile's fields (a store opened `writable`).
    public func updateProfile(_ p: StoredProfile) throws {
        try database.transaction {
            try database.rows("""
                INSERT INTO profile (id, date_of_birth, biological_sex, blood_type, fitzpatrick_skin_type,
                  cardio_fitness_medications_use, locale, export_date_utc, updated_at)
                VALUES (1,?,?,?,?,?,?,?,strftime('%Y-%m-%dT%H:%M:%SZ','now'))
                ON CONFLICT (id) DO UPDATE SET date_of_birth = excluded.date_of_birth,
                  biological_sex = excluded.biological_sex, blood_type = excluded.blood_type,
                  fitzpatrick_skin_type = excluded.fitzpatrick_skin_type,
                  cardio_fitness_medications_use = excluded.cardio_fitness_medications_use,
                  locale = excluded.locale, export_date_utc = excluded.export_date_utc, updated_at = excluded.updated_at
                """, [Self.text(p.dateOfBirth?.iso8601), Self.text(p.biologicalSex), Self.text(p.bloodType),
                      Self.text(p.fitzpatrickSkinType), Self.text(p.cardioFitnessMedicationsUse), Self.text(p.locale),
                      Self.text(p.exportDate)])
        }
    }

    /// Empties the analytics tables and keeps the profile (and the samples).
    public func clearAnalytics() throws {
        try database.transaction { try AnalyticsWriter(database: database).clear() }
    }

    // MARK: reading rows

    private static func text(_ s: String?) -> SQLValue { s.map(SQLValue.text) ?? .null }
    private static let metricList = StoreSchema.metricNames

    private static func metrics(_ row: ArraySlice<SQLValue>) -> MetricValues {
        var m = MetricValues()
        for (metric, value) in zip(DailyMetric.allCases, row) { m[metric] = value.double }
        return m
    }

    private func days(_ clause: String, _ bindings: [SQLValue] = []) throws -> [DailyAnalytics] {
        try database.rows("SELECT date, \(Self.metricList) FROM daily_analytics \(clause)", bindings).compactMap { r in
            r[0].string.flatMap { CivilDate(iso: $0) }.map { DailyAnalytics(date: $0, metrics: Self.metrics(r.dropFirst())) }
        }
    }

    private func periods(_ kind: PeriodKind, _ clause: String, _ bindings: [SQLValue] = []) throws -> [PeriodAnalytics] {
        let (table, start, end) = StoreSchema.periodTable(kind)
        return try database.rows("SELECT \(start), \(end), days_with_data, \(Self.metricList) FROM \(table) \(clause)", bindings)
            .compactMap { r in
                guard let s = r[0].string.flatMap({ CivilDate(iso: $0) }), let e = r[1].string.flatMap({ CivilDate(iso: $0) })
                else { return nil }
                return PeriodAnalytics(kind: kind, start: s, end: e, metrics: Self.metrics(r.dropFirst(3)),
                                       daysWithData: Int(r[2].int ?? 0))
            }
    }
}

/// The profile as stored (from the export's `Me` element, or set by the app).
public struct StoredProfile: Sendable, Equatable {
    public var dateOfBirth: CivilDate?
    public var biologicalSex: String?
    public var bloodType: String?
    public var fitzpatrickSkinType: String?
    public var cardioFitnessMedicationsUse: String?
    public var locale: String?
    public var exportDate: String?
    public init(dateOfBirth: CivilDate? = nil, biologicalSex: String? = nil, bloodType: String? = nil,
                fitzpatrickSkinType: String? = nil, cardioFitnessMedicationsUse: String? = nil, locale: String? = nil,
                exportDate: String? = nil) {
        self.dateOfBirth = dateOfBirth; self.biologicalSex = biologicalSex; self.bloodType = bloodType
        self.fitzpatrickSkinType = fitzpatrickSkinType; self.cardioFitnessMedicationsUse = cardioFitnessMedicationsUse
        self.locale = locale; self.exportDate = exportDate
    }
}
