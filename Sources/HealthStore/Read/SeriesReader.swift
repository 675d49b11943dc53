import HealthCore
import SQLite

/// Where the merge and aggregate stages read series from: one type at a time, in start order
/// (then insertion order), in batches.
package protocol SeriesSource {
    /// The samples of a type in start order, `batchSize` at a time; with `starting`, only those
    /// starting in that range (µs).
    func forEachBatch(typeID: Int64, starting range: Range<Int64>?, batchSize: Int,
                      _ body: ([SeriesReader.Row]) throws -> Void) throws
}

/// Reads series back out of the store for the merge and aggregate stages: one type at a
/// time, in start order, through the (type, start) index, in batches, so memory stays flat
/// however long the series is.
package struct SeriesReader: SeriesSource {
    /// A stored source, as the priority merge and the samples output need it.
    package struct Source: Sendable, Hashable {
        package var id: Int64
        package var name: String
        package var version: String?
        package var deviceModel: String?
        /// nil: the store's own platform (a source stored before version 12).
        package var platform: InputPlatform? = nil
        package init(id: Int64, name: String, version: String?, deviceModel: String?, platform: InputPlatform? = nil) {
            self.id = id; self.name = name; self.version = version; self.deviceModel = deviceModel; self.platform = platform
        }
    }

    /// A stored sample of one type: what the merge and aggregate stages need, and the rest
    /// of a `samples` output row.
    package struct Row: Sendable, Equatable {
        package var start: Int64
        package var end: Int64
        package var value: Double?
        package var sourceID: Int64
        package var userEntered: Bool
        package var categoryValue: String?
        /// Days since 1970-01-01 of the local date of `start`.
        package var localDay: Int
        package var unit: String?
        package var created: Int64?
        package var rawValue: String?
        package var rawUnit: String?
        /// The row's id in `sample_data` (the order in which the data-quality sums add up).
        package var id: Int64
    }

    let database: Database
    package init(database: Database) { self.database = database }

    /// Stored type identifiers by id. (`EXISTS` seeks the (type, start) index once per type;
    /// `IN (SELECT DISTINCT type_id …)` read all of it: 0.13 s for 2.4 M samples.)
    package func types() throws -> [(id: Int64, identifier: String)] {
        try database.rows("SELECT id, identifier FROM types t WHERE EXISTS (SELECT 1 FROM sample_data s WHERE s.type_id = t.id) ORDER BY id")
            .map { ($0[0].int ?? 0, $0[1].string ?? "") }
    }

    /// Every type identifier by id, stored samples or not (no index needed).
    package func allTypes() throws -> [(id: Int64, identifier: String)] {
        try database.rows("SELECT id, identifier FROM types ORDER BY id").map { ($0[0].int ?? 0, $0[1].string ?? "") }
    }

    package func sources() throws -> [Source] {
        let platform = try StoreSchema.columns(of: "sources", in: database).contains("platform") ? "platform" : "NULL"
        let own = InputPlatform(rawValue: try StoreSettings.platform(in: database)) ?? .appleHealth
        return try database.rows("SELECT id, name, version, device_model, \(platform) FROM sources ORDER BY id")
            .map { Source(id: $0[0].int ?? 0, name: $0[1].string ?? "", version: $0[2].string, deviceModel: $0[3].string,
                          platform: $0[4].string.flatMap(InputPlatform.init(rawValue:)) ?? own) }
    }

    /// The first instant each platform's samples begin at, when the store holds more than one
    /// platform's sources (a person's two phones, issue 60); empty otherwise, without reading a
    /// sample. One pass over the samples: only for a store of two platforms.
    package func platformStarts(_ sources: [Source]) throws -> [InputPlatform: Int64] {
        let platformOf = Dictionary(sources.map { ($0.id, $0.platform ?? .appleHealth) }, uniquingKeysWith: { a, _ in a })
        guard Set(platformOf.values).count > 1 else { return [:] }
        var starts: [InputPlatform: Int64] = [:]
        for row in try database.rows("SELECT source_id, min(start_us) FROM sample_data GROUP BY source_id") {
            guard let id = row[0].int, let start = row[1].int, let platform = platformOf[id] else { continue }
            starts[platform] = min(starts[platform] ?? .max, start)
        }
        return starts.count > 1 ? starts : [:]
    }

    /// Spans of workouts of `activityType`, in start order.
    package func workoutSpans(activityType: String) throws -> [Range<Int64>] {
        try database.rows("""
            SELECT start_us, end_us FROM workouts WHERE activity_type = ? AND start_us IS NOT NULL
              AND end_us > start_us ORDER BY start_us
            """, [.text(activityType)])
            .compactMap { row in row[0].int.flatMap { s in row[1].int.map { s..<$0 } } }
    }

    /// The samples of a type in start order (then insertion order: the order of the `samples`
    /// output), `batchSize` at a time; with `starting`, only those starting in that range (µs).
    package func forEachBatch(typeID: Int64, starting range: Range<Int64>? = nil, batchSize: Int = 8192,
                             _ body: ([Row]) throws -> Void) throws {
        let stmt = try database.prepare("""
            SELECT start_us, end_us, value, source_id, user_entered, category_value, local_day, unit,
                   created_us, raw_value, raw_unit, id
            FROM sample_data WHERE type_id = ? AND start_us >= ? AND start_us < ? ORDER BY start_us, id
            """)
        stmt.bind(1, typeID)
        stmt.bind(2, range?.lowerBound ?? Int64.min)
        stmt.bind(3, range?.upperBound ?? Int64.max)
        var batch: [Row] = []
        batch.reserveCapacity(batchSize)
        // A series repeats a handful of units and category values: one String each.
        var units = RepeatedText(), categories = RepeatedText(), rawUnits = RepeatedText()
        while try stmt.step() {
            batch.append(Row(start: stmt.int64(0), end: stmt.int64(1), value: stmt.isNull(2) ? nil : stmt.double(2),
                             sourceID: stmt.int64(3), userEntered: stmt.int64(4) != 0,
                             categoryValue: categories.text(stmt, 5), localDay: Int(stmt.int64(6)),
                             unit: units.text(stmt, 7), created: stmt.isNull(8) ? nil : stmt.int64(8),
                             rawValue: stmt.text(9), rawUnit: rawUnits.text(stmt, 10), id: stmt.int64(11)))
            if batch.count == batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }
}

extension RepeatedText {
    /// The text of a column of the statement's current row; nil for NULL.
    mutating func text(_ stmt: Statement, _ column: Int32) -> String? {
        stmt.isNull(column) ? nil : stmt.withText(column) { text($0) }
    }
}
