import HealthCore

/// Reads series back out of the store for the merge and aggregate stages: one type at a
/// time, in start order, through the (type, start) index, in batches, so memory stays flat
/// however long the series is.
public struct SeriesReader {
    /// A stored source, as the priority merge needs it.
    public struct Source: Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var deviceModel: String?
    }

    /// A stored sample of one type.
    public struct Row: Sendable {
        public var start: Int64
        public var end: Int64
        public var value: Double?
        public var sourceID: Int64
        public var userEntered: Bool
        public var categoryValue: String?
    }

    let database: Database
    public init(database: Database) { self.database = database }

    /// Stored type identifiers by id.
    public func types() throws -> [(id: Int64, identifier: String)] {
        try database.rows("SELECT id, identifier FROM types WHERE id IN (SELECT DISTINCT type_id FROM sample_data) ORDER BY id")
            .map { ($0[0].int ?? 0, $0[1].string ?? "") }
    }

    public func sources() throws -> [Source] {
        try database.rows("SELECT id, name, device_model FROM sources ORDER BY id")
            .map { Source(id: $0[0].int ?? 0, name: $0[1].string ?? "", deviceModel: $0[2].string) }
    }

    /// Spans of workouts of `activityType`, in start order.
    public func workoutSpans(activityType: String) throws -> [Range<Int64>] {
        try database.rows("""
            SELECT start_us, end_us FROM workouts WHERE activity_type = ? AND start_us IS NOT NULL
              AND end_us > start_us ORDER BY start_us
            """, [.text(activityType)])
            .compactMap { row in row[0].int.flatMap { s in row[1].int.map { s..<$0 } } }
    }

    /// The samples of a type in start order, `batchSize` at a time; with `starting`, only
    /// those starting in that range (µs).
    public func forEachBatch(typeID: Int64, starting range: Range<Int64>? = nil, batchSize: Int = 8192,
                             _ body: ([Row]) throws -> Void) throws {
        let stmt = try database.prepare("""
            SELECT start_us, end_us, value, source_id, user_entered, category_value
            FROM sample_data WHERE type_id = ? AND start_us >= ? AND start_us < ? ORDER BY start_us
            """)
        stmt.bind(1, typeID)
        stmt.bind(2, range?.lowerBound ?? Int64.min)
        stmt.bind(3, range?.upperBound ?? Int64.max)
        var batch: [Row] = []
        batch.reserveCapacity(batchSize)
        while try stmt.step() {
            batch.append(Row(start: stmt.int64(0), end: stmt.int64(1), value: stmt.isNull(2) ? nil : stmt.double(2),
                             sourceID: stmt.int64(3), userEntered: stmt.int64(4) != 0,
                             categoryValue: stmt.isNull(5) ? nil : stmt.text(5)))
            if batch.count == batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// Count, mean, min and max per type and local day of start, over every stored sample
    /// (categories: count and minutes in `sum`). Cumulative sums and time-weighted means
    /// replace these where the merge knows better.
    public func dailyStatistics(days: ClosedRange<CivilDate>? = nil) throws -> [DailyTypeMetric] {
        let stmt = try database.prepare("""
            SELECT s.local_day, t.identifier, min(s.unit), count(*), avg(s.value), min(s.value), max(s.value),
                   sum(s.end_us - s.start_us) / 60000000.0, count(s.value)
            FROM sample_data s JOIN types t ON t.id = s.type_id
            WHERE s.local_day BETWEEN ? AND ?
            GROUP BY s.local_day, s.type_id
            """)
        stmt.bind(1, Int64(days?.lowerBound.daysSinceEpoch ?? Int(Int32.min)))
        stmt.bind(2, Int64(days?.upperBound.daysSinceEpoch ?? Int(Int32.max)))
        var out: [DailyTypeMetric] = []
        while try stmt.step() {
            let numeric = stmt.int64(8) > 0
            out.append(DailyTypeMetric(
                date: CivilDate(daysSinceEpoch: Int(stmt.int64(0))), type: stmt.text(1) ?? "",
                unit: numeric ? stmt.text(2) : "min",
                sum: numeric ? nil : stmt.double(7),
                average: numeric ? stmt.double(4) : nil, minimum: numeric ? stmt.double(5) : nil,
                maximum: numeric ? stmt.double(6) : nil, count: Int(stmt.int64(3))))
        }
        return out
    }
}
